// The conformance runner's front door. A newcomer reads it in this order:
//   load.ts   loads and validates a suite's case files;
//   case.ts   runs ONE case against an Implementation (steps 1–6 in its header), with batch.ts for
//             concurrent calls, hook.ts for the scripted permission hook, expect.ts for the checks,
//             workspace.ts for the temp dir, faults.ts for blame and deadlines, prototypes.ts for the guard;
//   here      runs a suite: cases in order, reopening the implementation after an errored case,
//             the expected-failures baseline, the summary.
// It reaches implementations only through schemas/implementation.ts.
import { KIT_VERSION, SPEC_VERSION } from "../../schemas/index.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { runCase } from "./case.ts";
import { DEFAULT_PROFILE, rulesOfCase, type Profile } from "./rules.ts";
import { applyRuleBaseline, countRules, judgeRules, splitBaseline } from "./verdicts.ts";
import { ImplFault, faultOf } from "./faults.ts";
import type { LoadedCase } from "./load.ts";
import type { CaseResult, RunReport, Summary } from "./types.ts";

export type { CaseResult, Mismatch, RuleResult, RunReport, Summary } from "./types.ts";
export { DEFAULT_PROFILE, PROFILES, isProfile, type Profile } from "./rules.ts";
export { RULE_PREFIX, failing, splitBaseline, staleRuleBaseline } from "./verdicts.ts";
export { DEFAULT_TIMEOUT_MS, runCase } from "./case.ts";
export { suites, loadCases, loadCasesFrom, suiteDir, type LoadedCase } from "./load.ts";

export interface SuiteOptions {
  /** Case ids and `rule:<id>` lines expected to fail. */
  expectedFailures?: ReadonlySet<string>;
  /** Which rule sources are scored (default DEFAULT_PROFILE). */
  profile?: Profile;
  onResult?: (r: CaseResult) => void;
  driverLabel: string;
  suite: string;
  timeoutMs?: number;
}

function applyBaseline(r: CaseResult, expected: ReadonlySet<string> | undefined): CaseResult {
  if (!expected?.has(r.id)) return r;
  if (r.status === "failed") return { ...r, status: "expected_failure" };
  if (r.status === "passed") {
    return {
      ...r,
      status: "failed",
      mismatches: [{ at: "baseline", key: "baseline", rules: [], effect: "fails_case", what: "stale baseline", expected: "failed", actual: "passed", message: `${r.id} is listed as an expected failure but passed: the baseline is stale, remove ${r.id} from it` }],
    };
  }
  return r;
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
  return { total: cases.length, passed: n("passed"), failed: n("failed"), errored: n("errored"), skipped: n("skipped"), expected_failures: n("expected_failure"), not_scored: n("not_scored"), duration_ms };
}

/** Run cases in order; reopen the implementation after an errored case; always dispose at the end. */
export async function runSuite(open: () => Promise<Implementation>, cases: readonly LoadedCase[], opts: SuiteOptions): Promise<RunReport> {
  const started_at = new Date().toISOString();
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const baseline = splitBaseline(opts.expectedFailures ?? []);
  const t0 = performance.now();
  const results: CaseResult[] = [];
  let current: Implementation | undefined;
  let info: Implementation["info"] | undefined;
  let openFailure: string | undefined;
  const tryOpen = async (): Promise<Implementation | ImplFault> => {
    try {
      const i = await open();
      info ??= i.info;
      return i;
    } catch (e) {
      const f = faultOf(e, "opening the implementation");
      openFailure ??= f.message;
      return f;
    }
  };
  try {
    for (const c of cases) {
      if (!current) {
        const o = await tryOpen();
        if (o instanceof ImplFault) {
          const r: CaseResult = { id: c.id, title: c.title, spec: [...c.spec], rules: [...(c.rules ?? [])], checked_rules: rulesOfCase(c), status: "errored", duration_ms: 0, reason: o.message, blame: o.blame, ...(o.stderr !== undefined ? { stderr: o.stderr } : {}) };
          results.push(r);
          opts.onResult?.(r);
          continue;
        }
        current = o;
      }
      const r = applyRuleBaseline(applyBaseline(await runCase(current, c, { profile, ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }) }), baseline.cases), baseline.rules);
      results.push(r);
      opts.onResult?.(r);
      if (r.status === "errored") {
        await safeDispose(current);
        current = undefined;
      }
    }
    if (!info && !openFailure) {
      const o = await tryOpen();
      if (!(o instanceof ImplFault)) current = o;
    }
  } finally {
    await safeDispose(current);
  }
  const meta = info?.implementation ?? { name: "unknown", version: "unknown", language: "unknown" };
  const rules = judgeRules(results, { profile, capabilities: info?.capabilities }, baseline.rules);
  return {
    kit: { version: KIT_VERSION, specVersion: SPEC_VERSION },
    implementation: { name: meta.name, version: meta.version, language: meta.language, driver: opts.driverLabel },
    suite: opts.suite,
    profile,
    started_at,
    summary: summarise(results, Math.round(performance.now() - t0)),
    rules,
    rule_counts: countRules(rules),
    cases: results,
  };
}
