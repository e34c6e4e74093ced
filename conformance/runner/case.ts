// Owns running ONE case against an Implementation, in the order a reader of the case file expects:
//   1. skip it when the implementation declares the case's capability false;
//   2. prepare a fresh temp dir (fixture + setup);
//   3. open a session (config templated, the scripted hook if the case has one);
//   4. read the catalog once and check it;
//   5. make the calls in order (single calls, batches issued concurrently: batch.ts, or a race against a writer
//      swapping the tree: race.ts), checking each;
//   6. check the hook script was used exactly; close the session; wait (bounded) for work it left pending, then
//      clean up once that work has settled (leftover.ts): a case cut off at its deadline cannot reach the next.
// Every step of the implementation runs under the case's deadline and is followed by the prototype guard.
// Results are normalised (temp dir → <tmp>) before they are checked or recorded. Every mismatch carries the
// rules it breaks and its effect (rules.ts): the case's status comes from the rules it exists to test (its
// own, scored under the profile, not n/a); a check under another rule is an incidental finding.
import { join } from "node:path";
import { check } from "../../schemas/index.ts";
import type { CaseCall, ConformanceCase, SessionConfig } from "../../schemas/index.ts";
import type { Implementation, SessionHandle } from "../../schemas/implementation.ts";
import { brief, runBatch, type StepContext } from "./batch.ts";
import { checkCatalog, checkResult, type Miss } from "./expect.ts";
import { checkFilesAbsent } from "./files.ts";
import { atUnobservedPlace, unobservableRules } from "./unobserved.ts";
import {
  isUnobservedAnswer,
  rulesOfExpect,
  splitChecked,
  unobservedAnswerProblem,
  type UnobservedCall,
} from "./unobserved-call.ts";
import { noneSeenWhole, noneSeenWholeReason, partlyObserved } from "./partly-observed.ts";
import {
  DEFAULT_PROFILE,
  RUNNER_RULES,
  activeOwn,
  effectOf,
  isNa,
  isNotObservable,
  resolveRules,
  rulesOfCase,
  uncheckedRules,
  type Judge,
  type Profile,
} from "./rules.ts";
import { ImplFault, faultOf, impl, toFault } from "./faults.ts";
import { ScriptedHook } from "./hook.ts";
import type { LoadedCase } from "./load.ts";
import { restorePrototypes, snapshotPrototypes } from "./prototypes.ts";
import { runRace, type RaceContext } from "./race.ts";
import { schemaMisses } from "./schema-miss.ts";
import { WorkTracker, type Leftover } from "./leftover.ts";
import { applySteps, normalise, prepareWorkspace, template, type Workspace } from "./workspace.ts";
import type { CaseResult, Mismatch } from "./types.ts";

export const DEFAULT_TIMEOUT_MS = 5000;

/**
 * An unscripted ask during a call the case expects already_loaded: §7 lists the permission check (step 3) before
 * dedupe (step 6), so asking there breaks D4's order of checks, a decision, not the spec's once-per-activation.
 */
const LOADED_ASK_RULES = ["hook.not-asked-when-loaded"] as const;

/** Strings longer than this are clipped in `observed` (a 1 MiB body would bloat every report); checks see them whole. */
const OBSERVED_STRING_MAX = 64 * 1024;

type Outcome = Omit<CaseResult, "id" | "title" | "spec" | "duration_ms" | "rules" | "checked_rules">;

export interface CaseOptions {
  timeoutMs?: number;
  /** Which rule sources are scored (default: DEFAULT_PROFILE). */
  profile?: Profile;
}

function clipLarge(value: unknown): unknown {
  if (typeof value === "string")
    return value.length > OBSERVED_STRING_MAX
      ? `${value.slice(0, OBSERVED_STRING_MAX)}… (${value.length} chars, clipped by the kit)`
      : value;
  if (Array.isArray(value)) return value.map(clipLarge);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipLarge(v)]));
  return value;
}

export async function runCase(
  implementation: Implementation,
  c: LoadedCase | ConformanceCase,
  opts: CaseOptions = {},
): Promise<CaseResult> {
  const t0 = performance.now();
  const own = [...(c.rules ?? [])];
  const finish = (r: Outcome): CaseResult => ({
    id: c.id,
    title: c.title,
    spec: [...c.spec],
    rules: own,
    checked_rules: rulesOfCase(c),
    ...r,
    duration_ms: Math.round(performance.now() - t0),
  });
  const judge: Judge = {
    profile: opts.profile ?? DEFAULT_PROFILE,
    capabilities: implementation.info.capabilities,
    notObservable: unobservableRules(implementation.info.unobserved),
  };
  if (c.capability !== undefined && implementation.info.capabilities?.[c.capability] === false) {
    return finish({ status: "skipped", reason: `the implementation declares capability ${c.capability} false` });
  }
  if (own.length && own.every((id) => isNa(id, judge))) {
    return finish({
      status: "skipped",
      reason: `n/a: every rule the case tests needs a capability the implementation declares false (${own.join(", ")})`,
    });
  }
  if (own.length && own.every((id) => isNa(id, judge) || isNotObservable(id, judge))) {
    return finish({
      status: "skipped",
      reason: `not observable here: every rule the case tests is n/a or needs a value the harness does not produce (${own.join(", ")})`,
    });
  }
  const suite = "suite" in c && typeof c.suite === "string" ? c.suite : "spec";
  let ws: Workspace;
  try {
    ws = prepareWorkspace(c.id, c.fixture, c.setup ?? [], suite);
  } catch (e) {
    return finish({ status: "errored", reason: (e as Error).message, blame: "kit" });
  }
  const run = new CaseRun(c, ws, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, implementation, judge);
  await run.execute();
  return finish(run.outcome());
}

/** The state of one case while it runs: what was seen, what did not hold, and the fault that ended it early. */
class CaseRun {
  private readonly mismatches: Mismatch[] = [];
  private readonly observed: unknown[] = [];
  /** The params of each call as sent (normalised), by call index: shown with a mismatch, used by parity. */
  private readonly calls: unknown[] = [];
  private readonly hook: ScriptedHook;
  private readonly prototypes = snapshotPrototypes();
  private session: SessionHandle | undefined;
  private catalogSeen: unknown;
  private fault: ImplFault | undefined;
  /** Every promise the implementation handed this case, until it settles (leftover.ts). */
  private readonly work = new WorkTracker();
  /** What was still pending after close() and the grace, when the case was cut off. */
  private leftover: Leftover | undefined;
  /** createSession's promise: a session that arrives after the deadline is closed as soon as it does. */
  private creating: Promise<SessionHandle> | undefined;

  constructor(
    private readonly c: ConformanceCase,
    private readonly ws: Workspace,
    private readonly ms: number,
    private readonly implementation: Implementation,
    private readonly judge: Judge,
  ) {
    // An implementation without a permission hook gets the case without one: the rules about the hook are n/a,
    // and every other rule of the case (dedupe, allowed-tools, …) is still judged.
    this.hookless = c.config.permission?.hook === true && judge.capabilities?.permission_hook === false;
    this.hook = new ScriptedHook(this.hookless ? undefined : c.hook);
  }

  private readonly hookless: boolean;

  async execute(): Promise<void> {
    try {
      await this.openSession();
      this.reached = "catalog";
      await this.readCatalog();
      for (const [i, call] of this.c.calls.entries()) {
        this.reached = i;
        await this.makeCall(i, call);
      }
      this.hook.currentCall = -1;
      for (const m of this.hook.scriptMisses())
        this.miss({ ...m, key: "hook", rules: m.rules ?? [...RUNNER_RULES.hookScript] });
    } catch (e) {
      this.fault = toFault(e);
    } finally {
      this.hook.ended = true;
      await this.closeSession();
      this.guard("end");
      await this.cutOff();
    }
  }

  /**
   * After close(): a session created too late is closed when it arrives; the case waits one more deadline for the
   * work it left pending (close() must answer it: PROTOCOL.md); what is still pending is reported; the temp dir goes
   * once that work has settled, never under it.
   */
  private async cutOff(): Promise<void> {
    if (!this.session && this.creating) void this.creating.then((s) => s.close()).catch(() => {});
    this.leftover = await this.work.drain(this.ms);
    if (this.leftover) {
      const { pending, waited_ms } = this.leftover;
      const what = `close() left ${pending} of this case's call(s) unanswered ${waited_ms} ms after it returned (PROTOCOL.md, session/close: a closed session's pending calls must be answered promptly)`;
      this.fault = this.fault
        ? new ImplFault(
            `${this.fault.message}; ${what}`,
            this.fault.blame,
            this.fault.stderr,
            this.fault.trace,
            this.fault.kind,
          )
        : new ImplFault(what, "implementation", undefined, undefined, "timeout");
    }
    this.work.cleanupWhenSettled(this.ws.dir, this.ws.cleanup);
  }

  outcome(): Outcome {
    const unobserved = [...this.unobservedCalls.values()];
    const split = splitChecked(this.c, new Set(this.unobservedCalls.keys()));
    this.partly = partlyObserved(this.c, this.implementation.info.unobserved, this.mismatches);
    const extra = {
      observed: this.observed,
      ...(this.partly.size ? { partly_observed_rules: [...this.partly.keys()] } : {}),
      ...(unobserved.length
        ? { checked_rules: split.checked, unobserved_calls: unobserved, unobserved_rules: split.unobserved }
        : {}),
      ...(this.calls.length ? { calls: this.calls } : {}),
      ...(this.catalogSeen !== undefined ? { catalog: this.catalogSeen } : {}),
      ...(this.hook.recorded.length
        ? {
            hook_requests: this.hook.recorded.map((r) => ({
              call: r.call,
              request: this.norm(r.request),
              answer: r.answer,
            })),
          }
        : {}),
    };
    const f = this.fault;
    const own = this.c.rules ?? [];
    if (f) return this.faulted(f, own, extra);
    const mismatches = this.mismatches.length ? { mismatches: this.mismatches } : {};
    if (this.mismatches.some((m) => m.effect === "fails_case")) return { status: "failed", ...mismatches, ...extra };
    // No rule it is judged on was seen whole: each was checked only at calls the harness could not be given (K120),
    // or has a check at a value the harness does not produce (K124). No evidence either way.
    const partly = [...this.partly.keys()];
    if (noneSeenWhole(own, this.judge, split.unobserved, partly))
      return {
        status: "skipped",
        reason: noneSeenWholeReason(own, this.judge, unobserved, split.unobserved, this.partly),
        ...mismatches,
        ...extra,
      };
    if (own.length && activeOwn(own, this.judge).length === 0) {
      return {
        status: "not_scored",
        reason: `profile ${this.judge.profile} scores none of the rules the case tests (${own.join(", ")})`,
        ...mismatches,
        ...extra,
      };
    }
    return { status: "passed", ...mismatches, ...extra };
  }

  /**
   * A case the implementation did not finish. A crash (a throw, a dead driver, a protocol violation) is a finding
   * under §3.4's errors.structured whatever the profile; a missed deadline is judged under the case's own rules, so
   * it is shown and not scored when the profile scores none of them. Either way the rules whose checks never ran
   * are named (unchecked_rules): no rule passes on a case that did not get to check it.
   */
  private faulted(f: ImplFault, own: readonly string[], extra: Partial<Outcome>): Outcome {
    const unchecked = uncheckedRules(this.c, this.reached);
    const detail = {
      reason: f.message,
      blame: f.blame,
      ...(f.stderr !== undefined ? { stderr: f.stderr } : {}),
      ...(f.trace !== undefined ? { stack: f.trace } : {}),
      ...(this.leftover ? { leftover: this.leftover } : {}),
      ...(unchecked.length ? { unchecked_rules: unchecked } : {}),
    };
    if (f.blame === "implementation" && f.kind === "crash") {
      const where = this.reached === "catalog" || this.reached === "session" ? this.reached : `calls[${this.reached}]`;
      this.miss({
        at: where,
        key: "fault",
        rules: [...RUNNER_RULES.crash],
        expected: "a structured result (§3.4: errors are returned, not thrown) and a session that stays usable",
        actual: f.message,
        what: "the implementation crashed instead of answering",
      });
    }
    const mismatches = this.mismatches.length ? { mismatches: this.mismatches } : {};
    if (f.blame === "implementation" && f.kind === "timeout" && own.length && activeOwn(own, this.judge).length === 0) {
      return {
        status: "not_scored",
        ...detail,
        reason: `${f.message}: a missed deadline, not scored (profile ${this.judge.profile} scores none of the rules the case tests: ${own.join(", ")})`,
        ...mismatches,
        ...extra,
      };
    }
    return { status: "errored", ...detail, ...mismatches, ...extra };
  }

  /** How far the case got: the session, the catalog, or the index of the call in progress (or the last one). */
  private reached: "session" | "catalog" | number = "session";

  /** The calls the driver could not give its harness (K120), by call index. */
  private readonly unobservedCalls = new Map<number, UnobservedCall>();
  /** The rules with a check at a value the harness does not produce, and where (K124): set by outcome(). */
  private partly = new Map<string, string>();

  /** The first call whose result went wrong in kind or code: what later calls show may follow from it (cascade). */
  private wentWrong: number | undefined;

  /** What that first wrong answer did under the profile. */
  private wentWrongEffect: Mismatch["effect"] | undefined;

  private norm = (v: unknown): unknown => normalise(v, this.ws.spellings);

  /** Whether a place of an answer, checked under `key`, is one the driver declares unobserved (K40). */
  private unobservedAt =
    (key: string) =>
    (at: string): boolean =>
      atUnobservedPlace(this.implementation.info.unobserved, at, key);

  /** How many findings lead the list (an unscripted hook ask explains what follows it). */
  private leads = 0;

  /** Record an expectation that did not hold, with the params of the call it belongs to, its rules and their effect. */
  private miss = (m: Miss): void => {
    this.record(m, this.mismatches.length);
  };

  /** Record a finding that explains what follows it: ahead of every other mismatch (after earlier leads). */
  private lead = (m: Miss): void => {
    this.record({ key: "hook", ...m }, this.leads++);
  };

  private record(m: Miss, position: number): void {
    const i = /^calls\[(\d+)\]/.exec(m.at)?.[1];
    const call = i === undefined ? undefined : this.calls[Number(i)];
    const rules = m.rules ?? [];
    // A later call (or the hook script checked at the end) showing something after an earlier call came back as
    // the wrong kind or code: the finding may only follow from that one (a refused activation is not loaded, so
    // its repeat is not already_loaded). Said on the mismatch; the finding stays.
    const callIndex = i === undefined ? (m.at.startsWith("hook") ? Infinity : undefined) : Number(i);
    const after =
      this.wentWrong !== undefined && callIndex !== undefined && callIndex > this.wentWrong
        ? `calls[${this.wentWrong}]`
        : undefined;
    const own = effectOf(rules, this.c.rules ?? [], this.judge);
    // A cascade from a call whose wrong answer the profile does not score (a decision's) is not scored either: the
    // spec's rules are not failed by what only follows from a choice the spec leaves open.
    const effect = after !== undefined && this.wentWrongEffect === "not_scored" && own !== "n/a" ? "not_scored" : own;
    if (
      i !== undefined &&
      (m.key === "kind" || m.key === "code") &&
      (this.wentWrong === undefined || Number(i) < this.wentWrong)
    ) {
      this.wentWrong = Number(i);
      this.wentWrongEffect = own;
    }
    this.mismatches.splice(position, 0, {
      at: m.at,
      key: m.key ?? "",
      rules,
      effect: atUnobservedPlace(this.implementation.info.unobserved, m.at, m.key ?? "") ? "not_observable" : effect,
      expected: m.expected,
      actual: m.actual,
      ...(call !== undefined ? { call } : {}),
      what: m.what,
      ...(after ? { after } : {}),
      message: `${m.at}: ${m.what}: expected ${brief(m.expected)}, got ${brief(m.actual)}${rules.length ? ` [${rules.join(", ")}]` : ""}${after ? ` (after ${after} went wrong: may follow from it)` : ""}`,
    });
  }

  /** max_ms of a call, a batch or the catalog: the rules its expectation names for max_ms. */
  private slow = (at: string, took: number, max: number | undefined, rules?: readonly string[]): void => {
    if (max !== undefined && took > max)
      this.miss({
        at,
        key: "max_ms",
        expected: `an answer within ${max} ms`,
        actual: `${Math.round(took)} ms`,
        what: "too slow",
        ...(rules ? { rules: [...rules] } : {}),
      });
  };

  /** Checked (and undone) right after every step the implementation takes, before the kit's own code runs on a polluted prototype. */
  private guard = (at: string): void => {
    const polluted = restorePrototypes(this.prototypes);
    if (polluted.length)
      this.miss({
        at: `${at}.prototypes`,
        key: "prototypes",
        rules: [...RUNNER_RULES.prototypes],
        expected: "built-in prototypes unchanged",
        actual: polluted,
        what: "prototype pollution (undone by the kit)",
      });
  };

  private stderrTail = (): string | undefined => this.implementation.stderrTail?.();

  /** One step of the implementation: under the deadline, then the guard. */
  private step = async <T>(at: string, what: string, f: () => T | Promise<T>): Promise<T> => {
    try {
      return await impl(
        what,
        this.ms,
        () => this.work.track(f()),
        () => this.implementation.stderrTail?.(),
      );
    } finally {
      this.guard(at);
    }
  };

  private async openSession(): Promise<void> {
    this.session = await this.step("createSession", "createSession", () => (this.creating = this.createSession()));
  }

  /** A session as the case's config, hook and environment describe it, as the implementation is asked for it. */
  private createSession(): Promise<SessionHandle> {
    const config = template(this.c.config, this.ws.dir) as SessionConfig;
    if (this.hookless && config.permission) {
      const { hook: _hook, ...rest } = config.permission;
      config.permission = rest;
    }
    const env = this.c.environment;
    const options = {
      ...(this.hook.hook ? { hook: this.hook.hook } : {}),
      ...(env ? { environment: { home: join(this.ws.dir, env.home), cwd: join(this.ws.dir, env.cwd) } } : {}),
    };
    return this.implementation.createSession(config, options);
  }

  private async readCatalog(): Promise<void> {
    const t = performance.now();
    const catalog = await this.step("catalog", "catalog()", () => this.session!.catalog());
    this.slow("catalog", performance.now() - t, this.c.catalog?.max_ms, resolveRules(this.c.catalog?.rules, "max_ms"));
    this.catalogSeen = this.norm(catalog);
    for (const m of schemaMisses(
      "catalog.schema.json",
      catalog,
      "catalog",
      "schema-invalid catalog",
      this.unobservedAt("schema"),
    ))
      this.miss({ ...m, key: "schema" });
    if (this.c.catalog) for (const m of checkCatalog(this.c.catalog, this.catalogSeen)) this.miss(m);
  }

  private async makeCall(i: number, call: ConformanceCase["calls"][number]): Promise<void> {
    this.hook.currentCall = i;
    const at = `calls[${i}]`;
    if (call.before) applySteps(this.ws.dir, call.before, `case ${this.c.id}: ${at}.before`);
    if ("race" in call) {
      this.calls[i] = this.norm(template(call.race.params as unknown, this.ws.dir));
      this.observed.push(await runRace(call, at, this.raceContext()));
      return;
    }
    if ("concurrent" in call) {
      this.calls[i] = this.norm(template(call.concurrent.params as unknown, this.ws.dir));
      const from = this.hook.recorded.length;
      this.observed.push(
        await runBatch(
          call,
          at,
          this.stepContext(
            () => this.judged(from, at),
            (answers) => this.unobservedCall(i, at, call.expect, answers),
          ),
        ),
      );
      this.checkHookPayloads(at, this.hook.since(from));
      return;
    }
    if (call.session === "new") await this.reopenSession();
    await this.makeSingleCall(i, at, call);
  }

  /** A call marked session: "new" runs on a fresh session with the same config: the old one is closed first. */
  private async reopenSession(): Promise<void> {
    await this.closeSession();
    if (this.fault) throw this.fault;
    this.session = undefined;
    await this.openSession();
  }

  private async makeSingleCall(i: number, at: string, call: CaseCall): Promise<void> {
    const params = template(call.params as unknown, this.ws.dir);
    this.calls[i] = this.norm(params);
    const invocation = call.invocation ?? "model";
    const options = call.turn === undefined ? { invocation } : { invocation, turn: call.turn };
    const from = this.hook.recorded.length;
    const t = performance.now();
    const result = await this.step(at, `call ${i} (${brief(call.params)})`, () => this.session!.call(params, options));
    if (this.unobservedCall(i, at, call.expect, [result])) return;
    this.slow(`${at}.time`, performance.now() - t, call.expect.max_ms, resolveRules(call.expect.rules, "max_ms"));
    const seen = this.norm(result);
    this.observed.push(clipLarge(seen));
    const judged = this.judged(from, at, call.expect.kind === "already_loaded" ? LOADED_ASK_RULES : undefined);
    for (const m of schemaMisses(
      "result.schema.json",
      result,
      `${at}.result`,
      "schema-invalid result",
      this.unobservedAt("schema"),
    ))
      this.miss({ ...m, key: "schema" });
    const asked = this.hook.since(from);
    this.checkHookPayloads(at, asked);
    if (judged) for (const m of checkResult(call.expect, seen, asked.map(this.norm), at)) this.miss(m);
    for (const m of checkFilesAbsent(call.expect, this.ws.dir, at)) this.miss(m);
  }

  /**
   * A call the driver answered unobserved (K120): it could not give its harness the call (a batch: any of it), so
   * nothing of it is judged. Recorded once, with effect not_observable under every rule its expectation checks; a
   * later call's findings say they come after it (a cascade, as after a wrong kind). An answer that names an id the
   * driver did not declare, or one that cannot stand for a call, is the driver's fault (the case errors).
   */
  private unobservedCall(i: number, at: string, exp: unknown, answers: readonly unknown[]): boolean {
    const mark = answers.find(isUnobservedAnswer);
    if (!mark) return false;
    const problem = unobservedAnswerProblem(mark, this.implementation.info.unobserved);
    if (problem) throw new ImplFault(`${at}: ${problem}`, "implementation");
    const u: UnobservedCall = { call: i, unobserved: mark.unobserved, reason: mark.reason };
    this.unobservedCalls.set(i, u);
    if (answers.length === 1) this.observed.push(this.norm(mark));
    const rules = rulesOfExpect(exp);
    this.mismatches.push({
      at,
      key: "unobserved",
      rules,
      effect: "not_observable",
      expected: "the harness's answer to this call",
      actual: this.norm(mark),
      ...(this.calls[i] !== undefined ? { call: this.calls[i] } : {}),
      what: `not observable here: the harness cannot be given this call (${mark.unobserved}: ${mark.reason})`,
      message: `${at}: not observable here: the harness cannot be given this call (${mark.unobserved}: ${mark.reason})${rules.length ? ` [${rules.join(", ")}]` : ""}`,
    });
    if (this.wentWrong === undefined || i < this.wentWrong) {
      this.wentWrong = i;
      this.wentWrongEffect = "not_observable";
    }
    return true;
  }

  /**
   * Whether a call's expectations are judged: not when the implementation asked the hook more often than the case
   * scripts, since the kit's deny then decided the result. That ask is the finding, reported first.
   */
  private judged(from: number, at: string, rules?: readonly string[]): boolean {
    const unscripted = this.hook.unscriptedMiss(from, at, rules);
    if (unscripted) this.lead(unscripted);
    return unscripted === undefined;
  }

  private checkHookPayloads(at: string, requests: readonly unknown[]): void {
    for (const [k, req] of requests.entries()) {
      for (const m of schemaMisses(
        "permission-request.schema.json",
        req,
        `${at}.hook_requests[${k}]`,
        "schema-invalid hook payload",
        this.unobservedAt("hook_schema"),
      ))
        this.miss({ ...m, key: "hook_schema" });
    }
  }

  private stepContext(judged: () => boolean, unobservedCall?: StepContext["unobservedCall"]): StepContext {
    return {
      session: this.session!,
      tmp: this.ws.dir,
      norm: this.norm,
      miss: this.miss,
      slow: this.slow,
      step: this.step,
      judged,
      track: (p) => this.work.track(p),
      unobserved: this.unobservedAt("schema"),
      ...(unobservedCall ? { unobservedCall } : {}),
    };
  }

  /** A race's tries each run on a session of their own (race.ts), opened and closed beside the case's, untouched. */
  private raceContext(): RaceContext {
    return {
      tmp: this.ws.dir,
      norm: this.norm,
      miss: this.miss,
      slow: this.slow,
      step: this.step,
      // Under the deadline without the prototype guard: the guard after each try's call covers its session's
      // steps too (a thousand tries would pay for it three times over).
      open: () => impl("createSession", this.ms, () => this.work.track(this.createSession()), this.stderrTail),
      close: (s) => impl("close()", this.ms, () => this.work.track(s.close()), this.stderrTail),
      unobserved: this.unobservedAt("schema"),
    };
  }

  private async closeSession(): Promise<void> {
    if (!this.session) return;
    try {
      await impl(
        "close()",
        this.ms,
        () => this.work.track(this.session!.close()),
        () => this.implementation.stderrTail?.(),
      );
    } catch (e) {
      this.fault ??= faultOf(e, "close()");
    }
  }
}
