// The conformance runner's front door. A newcomer reads it in this order:
//   load.ts   loads and validates a suite's case files;
//   case.ts   runs ONE case against an Implementation (steps 1–6 in its header), with batch.ts for
//             concurrent calls, hook.ts for the scripted permission hook, expect.ts for the checks,
//             workspace.ts for the temp dir, faults.ts for blame and deadlines, prototypes.ts for the guard;
//   here      runs a suite: cases in order, reopening the implementation after an errored case, the summary.
// Each case keeps its observed status: the expected-failures baseline is applied by conformance/baseline.ts.
// It reaches implementations only through schemas/implementation.ts.
import { unobservableRules } from "./unobserved.ts";
import { isAbsolute, relative } from "node:path";
import { userCwd } from "../../package-root.ts";
import { KIT_VERSION, SPEC_VERSION } from "../../schemas/index.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { runCase } from "./case.ts";
import { runLanes, startOrder } from "./schedule.ts";
import { DEFAULT_PROFILE, rulesOfCase, type Profile } from "./rules.ts";
import { countRules, judgeRules, scoreRun } from "./verdicts.ts";
import { ImplFault, faultOf } from "./faults.ts";
import type { LoadedCase } from "./load.ts";
import type { CaseResult, RunAbort, RunReport, Summary } from "./types.ts";

export type { CaseResult, Mismatch, RuleResult, RunAbort, RunReport, Summary } from "./types.ts";
export { DEFAULT_PROFILE, PROFILES, isProfile, type Profile } from "./rules.ts";
export { scoreRun } from "./verdicts.ts";
export { DEFAULT_TIMEOUT_MS, runCase } from "./case.ts";
export { suites, loadCases, loadCasesFrom, suiteDir, type LoadedCase } from "./load.ts";

export interface SuiteOptions {
  /** Which rule sources are scored (default DEFAULT_PROFILE). */
  profile?: Profile;
  /** Each case as it finishes (not the cases of a run that ended early: see onAbort). */
  onResult?: (r: CaseResult) => void;
  /**
   * Once, when the run ends early: the implementation cannot be opened, or (in-process) a case left work running that
   * close() did not stop. The cases left are errored as not run, without waiting.
   */
  onAbort?: (a: RunAbort) => void;
  driverLabel: string;
  suite: string;
  timeoutMs?: number;
  /**
   * The command line that reruns this run's target (`skill-conformance --exec "…"`): each failed or errored case
   * gets it with `--suite <its suite> --filter <its id>` appended. Default: `skill-conformance`.
   */
  rerun?: string;
  /**
   * Cases run at once, each lane with its own implementation (schedule.ts): cases whose verdict is timed run alone
   * after the others. Default 1: one case at a time, in case order.
   */
  jobs?: number;
  /**
   * The real time of the run's first open when it was made before the run (a primed target: conformance/target.ts):
   * the first open() then returns at once, and the first case's time and an abort's after_ms say this instead.
   */
  handshakeMs?: number;
}

async function safeDispose(i: Implementation | undefined): Promise<void> {
  if (!i) return;
  try {
    await i.dispose();
  } catch {
    // disposing is best effort; the next case opens a fresh implementation
  }
}

export function summarise(cases: readonly CaseResult[], duration_ms: number): Summary {
  const n = (s: CaseResult["status"]) => cases.filter((c) => c.status === s).length;
  return {
    total: cases.length,
    passed: n("passed"),
    failed: n("failed"),
    errored: n("errored"),
    skipped: n("skipped"),
    expected_failures: n("expected_failure"),
    not_scored: n("not_scored"),
    duration_ms,
  };
}

/** Where a failure can be read and rerun: the case file (relative to the user's directory) and the command. */
function locate(r: CaseResult, c: LoadedCase, rerun: string): CaseResult {
  if (r.status !== "failed" && r.status !== "errored" && r.status !== "expected_failure") return r;
  const rel = relative(userCwd(), c.file);
  const file = rel.startsWith("..") || isAbsolute(rel) ? c.file : rel;
  return { ...r, file, rerun: `${rerun} --suite ${c.suite} --filter ${c.id}` };
}

/**
 * Run cases in order; reopen the implementation after an errored case; always dispose at the end. An implementation
 * that cannot be opened (a handshake that fails or never comes) ends the run: that case says why, with the time the
 * attempt took, and the cases left are errored as not run, without waiting for a handshake each.
 */
export async function runSuite(
  open: () => Promise<Implementation>,
  cases: readonly LoadedCase[],
  opts: SuiteOptions,
): Promise<RunReport> {
  const started_at = new Date().toISOString();
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const t0 = performance.now();
  // By case index: a report lists cases in case order whatever order they finished in (schedule.ts).
  const slots: (CaseResult | undefined)[] = new Array(cases.length);
  const rerun = opts.rerun ?? "skill-conformance";
  const jobs = Math.max(1, Math.floor(opts.jobs ?? 1));
  // Each lane its own implementation (one lane: the run as it always was).
  const lanes: (Implementation | undefined)[] = [];
  let info: Implementation["info"] | undefined;
  let aborted: RunAbort | undefined;
  /** What the cases that never started say, once the run ended early. */
  let notRunReason: { reason: string; blame: CaseResult["blame"] } | undefined;
  let handshakeMs = opts.handshakeMs;
  const tryOpen = async (): Promise<Implementation | ImplFault> => {
    try {
      const i = await open();
      info ??= i.info;
      return i;
    } catch (e) {
      return faultOf(e, "opening the implementation");
    }
  };
  const errored = (c: LoadedCase, reason: string, extra: Partial<CaseResult> = {}): CaseResult =>
    locate(
      {
        id: c.id,
        title: c.title,
        spec: [...c.spec],
        rules: [...(c.rules ?? [])],
        checked_rules: rulesOfCase(c),
        status: "errored",
        duration_ms: 0,
        reason,
        ...extra,
      },
      c,
      rerun,
    );
  const record = (r: CaseResult, k: number) => {
    const located = locate(r, cases[k]!, rerun);
    slots[k] = located;
    opts.onResult?.(located);
  };
  /** The run ends early: no further case starts; said once (onAbort) when the cases in flight have finished. */
  const end = (a: Omit<RunAbort, "not_run">, rest: { reason: string; blame: CaseResult["blame"] }, own: 0 | 1) => {
    // `own`: the case at which it ended counts as not run too (its open failed: it never ran).
    aborted = { ...a, not_run: own };
    notRunReason = rest;
  };
  let started = 0;
  let firstOpen: Promise<Implementation | ImplFault> | undefined;
  const runAt = async (k: number, lane: number): Promise<void> => {
    const c = cases[k]!;
    started++;
    let openMs = 0;
    if (!lanes[lane]) {
      const t = performance.now();
      const primedMs = handshakeMs;
      handshakeMs = undefined;
      // The run's first open is awaited by the other lanes before their own: a target that cannot be opened ends the
      // run at its first case, as with one job, instead of failing once per lane.
      let o: Implementation | ImplFault;
      if (!firstOpen) o = await (firstOpen = tryOpen());
      else if ((await firstOpen) instanceof ImplFault) return;
      else o = await tryOpen();
      openMs = primedMs ?? performance.now() - t;
      if (o instanceof ImplFault) {
        const extra = { blame: o.blame, ...(o.stderr !== undefined ? { stderr: o.stderr } : {}) };
        // Another lane ended the run meanwhile: this case was not run either (filled in below).
        if (aborted) return;
        // Said once, by onAbort: the case the attempt was for carries the fault, the rest say they were not run.
        slots[k] = errored(c, o.message, { ...extra, duration_ms: Math.round(openMs) });
        end(
          { reason: o.message, ...extra, at: c.id, after_ms: Math.round(openMs) },
          { reason: `the implementation could not be opened (at ${c.id})`, blame: o.blame },
          1,
        );
        return;
      }
      lanes[lane] = o;
    }
    const current = lanes[lane]!;
    const ran = await runCase(current, c, {
      profile,
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    });
    // The case waited for the implementation to open: its time says so.
    const r = { ...ran, duration_ms: ran.duration_ms + Math.round(openMs) };
    record(r, k);
    if (ran.leftover && !current.isolated && started < cases.length && !aborted) {
      // In-process work cannot be stopped: running the next case beside it would let it touch that case.
      const reason = `case ${c.id} left ${ran.leftover.pending} call(s) running after close(), and in-process the kit cannot stop them: make close() answer pending calls (PROTOCOL.md), or run the implementation over stdio`;
      end(
        { reason, blame: "implementation", at: c.id, after_ms: ran.leftover.waited_ms },
        { reason, blame: "implementation" },
        0,
      );
      return;
    }
    if (r.status === "errored" || ran.status === "errored") {
      await safeDispose(current);
      lanes[lane] = undefined;
    }
  };
  try {
    await runLanes(startOrder(cases, jobs), jobs, runAt, () => aborted !== undefined);
    if (!info && !aborted) {
      const o = await tryOpen();
      if (!(o instanceof ImplFault)) lanes[0] = o;
    }
  } finally {
    await Promise.all(lanes.map(safeDispose));
  }
  // The cases that never started (the run ended early), errored as not run, in case order like the rest.
  const notRun = (c: LoadedCase) =>
    errored(c, `not run: ${notRunReason!.reason}`, notRunReason!.blame ? { blame: notRunReason!.blame } : {});
  const results = Array.from(slots, (r, k) => r ?? notRun(cases[k]!));
  if (aborted) {
    aborted.not_run += slots.length - slots.filter(Boolean).length;
    opts.onAbort?.(aborted);
  }
  const meta = info?.implementation ?? { name: "unknown", version: "unknown", language: "unknown" };
  const rules = judgeRules(results, {
    profile,
    capabilities: info?.capabilities,
    notObservable: unobservableRules(info?.unobserved),
  });
  const summary = summarise(results, Math.round(performance.now() - t0));
  return {
    kit: { version: KIT_VERSION, specVersion: SPEC_VERSION },
    implementation: { name: meta.name, version: meta.version, language: meta.language, driver: opts.driverLabel },
    ...(info?.capabilities ? { capabilities: info.capabilities } : {}),
    ...(info?.unobserved?.length ? { unobserved: info.unobserved } : {}),
    suite: opts.suite,
    profile,
    started_at,
    summary,
    rules,
    rule_counts: countRules(rules),
    score: scoreRun(rules, results, summary, profile),
    ...(aborted ? { aborted } : {}),
    cases: results,
  };
}
