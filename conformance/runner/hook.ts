// Owns the scripted permission hook of a case: it answers from the case's script in order (deny once the
// script runs out), records every request with the call it came during, and reports a script that was
// over- or under-used.
import type { PermissionDecision, PermissionRequest } from "../../schemas/index.ts";
import type { PermissionHook } from "../../schemas/implementation.ts";
import type { Miss } from "./expect.ts";

export interface Recorded {
  call: number;
  request: unknown;
  answer: PermissionDecision;
}

export class ScriptedHook {
  readonly recorded: Recorded[] = [];
  /** The call being made (-1 outside calls): attributed to each request. */
  currentCall = -1;
  readonly hook: PermissionHook | undefined;

  constructor(private readonly answers: readonly PermissionDecision[] | undefined) {
    this.hook = answers ? (request) => this.answer(request) : undefined;
  }

  private answer(request: PermissionRequest): PermissionDecision {
    const answer: PermissionDecision = this.answers?.[this.recorded.length] ?? "deny";
    let copy: unknown;
    try {
      copy = structuredClone(request);
    } catch {
      copy = request;
    }
    this.recorded.push({ call: this.currentCall, request: copy, answer });
    return answer;
  }

  /** Requests recorded since `from` (the count before a call). */
  since(from: number): unknown[] {
    return this.recorded.slice(from).map((r) => r.request);
  }

  /** After the last call: was the script used exactly? */
  scriptMisses(): Miss[] {
    if (!this.answers) return [];
    const asked = this.recorded.length;
    const scripted = this.answers.length;
    if (asked > scripted) return [{ at: "hook", expected: `${scripted} ask(s)`, actual: `${asked} ask(s)`, what: "the hook was asked more often than the case scripts (unscripted asks were answered deny)" }];
    if (asked < scripted) return [{ at: "hook", expected: `${scripted} ask(s)`, actual: `${asked} ask(s)`, what: "scripted hook answers were never asked for" }];
    return [];
  }
}
