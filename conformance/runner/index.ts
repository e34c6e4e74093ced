// The conformance runner's front door. A newcomer reads it in this order:
//   load.ts   loads and validates a suite's case files;
//   case.ts   runs ONE case against an Implementation (steps 1–6 in its header), with batch.ts for
//             concurrent calls, hook.ts for the scripted permission hook, expect.ts for the checks,
//             workspace.ts for the temp dir, faults.ts for blame and deadlines, prototypes.ts for the guard;
//   suite-run.ts runs a suite's cases over lanes, reopening the implementation after an errored case;
//   here      the suite's report: verdicts per rule, the summary.
// Each case keeps its observed status: the expected-failures baseline is applied by conformance/baseline.ts.
// It reaches implementations only through schemas/implementation.ts.
import { unobservableRules } from "./unobserved.ts";
import { KIT_VERSION, SPEC_VERSION } from "../../schemas/index.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { DEFAULT_PROFILE, type Profile } from "./rules.ts";
import { countRules, judgeRules, scoreRun } from "./verdicts.ts";
import type { LoadedCase } from "./load.ts";
import { SuiteRun } from "./suite-run.ts";
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

/**
 * Run cases in order; reopen the implementation after an errored case; always dispose at the end. An implementation
 * that cannot be opened (a handshake that fails or never comes) ends the run: that case says why, with the time the
 * attempt took, and the cases left are errored as not run, without waiting for a handshake each (suite-run.ts).
 */
export async function runSuite(
  open: () => Promise<Implementation>,
  cases: readonly LoadedCase[],
  opts: SuiteOptions,
): Promise<RunReport> {
  const started_at = new Date().toISOString();
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const t0 = performance.now();
  const run = new SuiteRun(open, cases, { ...opts, profile, rerun: opts.rerun ?? "skill-conformance" });
  const { results, info, aborted } = await run.runAll();
  if (aborted) opts.onAbort?.(aborted);
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
