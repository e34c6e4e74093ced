// Owns judging one run under another profile without running it again. A profile changes only which rule
// sources are scored, never what the implementation did: the compat run runs each implementation once under
// the widest profile (exact) and re-judges the recorded mismatches for spec and decisions with the runner's
// own functions (effectOf, activeOwn, judgeRules), so a harness costs one run, not three. Pure.
import { activeOwn, effectOf, type Judge, type Profile } from "../runner/rules.ts";
import { unobservableRules } from "../runner/unobserved.ts";
import { countRules, judgeRules } from "../runner/verdicts.ts";
import type { CaseResult, RunReport } from "../runner/types.ts";

/** A case re-judged: its mismatches' effects, then its status; errored and skipped cases stay as they were. */
function rejudgeCase(c: CaseResult, j: Judge): CaseResult {
  if (c.status === "errored" || c.status === "skipped") return c;
  const mismatches = (c.mismatches ?? []).map((m) => (m.effect === "not_observable" ? m : { ...m, effect: effectOf(m.rules, c.rules, j) }));
  const status = mismatches.some((m) => m.effect === "fails_case") ? "failed" : c.rules.length && activeOwn(c.rules, j).length === 0 ? "not_scored" : "passed";
  const { reason: _reason, ...rest } = c;
  const reason = status === "not_scored" ? { reason: `profile ${j.profile} scores none of the rules the case tests (${c.rules.join(", ")})` } : {};
  return { ...rest, ...reason, status, ...(mismatches.length ? { mismatches } : {}) };
}

/** The report of the same run judged under `profile` (the run itself was made under a profile scoring more). */
export function rescore(report: RunReport, profile: Profile): RunReport {
  const j: Judge = { profile, capabilities: report.capabilities, notObservable: unobservableRules(report.unobserved) };
  const cases = report.cases.map((c) => rejudgeCase(c, j));
  const rules = judgeRules(cases, j);
  const n = (s: string) => cases.filter((c) => c.status === s).length;
  const summary = { ...report.summary, passed: n("passed"), failed: n("failed"), errored: n("errored"), skipped: n("skipped"), not_scored: n("not_scored"), expected_failures: n("expected_failure") };
  return { ...report, profile, summary, rules, rule_counts: countRules(rules), cases };
}
