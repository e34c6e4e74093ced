// Owns the scripted permission hook of a case: it answers from the case's script in order (deny once the
// script runs out), records every request with the call it came during, and reports a script that was
// over-used (an unscripted ask: its own finding, at the call it came during, before that call's checks) or
// under-used. Once the case has ended it answers deny and records nothing: late work cannot reach it.
import type { PermissionDecision, PermissionRequest } from "../../schemas/index.ts";
import type { PermissionHook } from "../../schemas/implementation.ts";
import type { Miss } from "./expect.ts";

export interface Recorded {
  call: number;
  request: unknown;
  answer: PermissionDecision;
  /** false: the case scripts no answer for this ask; `answer` is the kit's deny. */
  scripted: boolean;
}

/** The rule an unscripted ask breaks: the implementation asked where the case (the spec's order of checks) asks nothing more. */
export const UNSCRIPTED_ASK_RULE = "hook.unscripted-ask";

export class ScriptedHook {
  readonly recorded: Recorded[] = [];
  /** The call being made (-1 outside calls): attributed to each request. */
  currentCall = -1;
  readonly hook: PermissionHook | undefined;

  constructor(private readonly answers: readonly PermissionDecision[] | undefined) {
    this.hook = answers ? (request) => this.answer(request) : undefined;
  }

  /** Set when the case has ended: an ask from work the case left behind is denied and not recorded. */
  ended = false;

  private answer(request: PermissionRequest): PermissionDecision {
    if (this.ended) return "deny";
    const scripted = this.answers !== undefined && this.recorded.length < this.answers.length;
    const answer: PermissionDecision = scripted ? this.answers![this.recorded.length]! : "deny";
    let copy: unknown;
    try {
      copy = structuredClone(request);
    } catch {
      copy = request;
    }
    this.recorded.push({ call: this.currentCall, request: copy, answer, scripted });
    return answer;
  }

  /** Requests recorded since `from` (the count before a call). */
  since(from: number): unknown[] {
    return this.recorded.slice(from).map((r) => r.request);
  }

  /**
   * The unscripted asks among those recorded since `from`, as one finding at `at` (the call they came during):
   * the kit answered them deny, so what the call returned afterwards is the kit's doing, not the implementation's.
   */
  unscriptedMiss(from: number, at: string, rules: readonly string[] = [UNSCRIPTED_ASK_RULE]): Miss | undefined {
    const extra = this.recorded.slice(from).filter((r) => !r.scripted);
    if (!extra.length) return undefined;
    const scripted = this.answers?.length ?? 0;
    return {
      at: `${at}.hook`,
      expected: `at most ${scripted} ask(s) in the case (its script)`,
      actual: `${this.recorded.length} ask(s): ${extra.length} during ${at}, answered deny by the kit`,
      what: `the implementation asked the permission hook where the case scripts no ask; the kit answered deny, so ${at}'s result follows from the kit's answer and its expectations were not judged`,
      rules: [...rules],
    };
  }

  /** After the last call: scripted answers never asked for (an over-used script is reported at its call). */
  scriptMisses(): Miss[] {
    if (!this.answers) return [];
    const asked = this.recorded.length;
    const scripted = this.answers.length;
    const stray = this.recorded.filter((r) => !r.scripted && r.call < 0).length;
    if (stray)
      return [
        {
          at: "hook",
          expected: `${scripted} ask(s), each during a call`,
          actual: `${stray} unscripted ask(s) outside any call, answered deny by the kit`,
          what: "the implementation asked the permission hook outside a call",
          rules: [UNSCRIPTED_ASK_RULE],
        },
      ];
    if (asked < scripted)
      return [
        {
          at: "hook",
          expected: `${scripted} ask(s)`,
          actual: `${asked} ask(s)`,
          what: "scripted hook answers were never asked for",
        },
      ];
    return [];
  }
}
