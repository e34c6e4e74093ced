// Owns judging one run under another profile without running it again. A profile changes only which rule
// sources are scored, never what the implementation did: the compat run runs each implementation once under
// the widest profile (exact) and re-judges the recorded mismatches for spec and decisions with the runner's
// own functions (effectOf, activeOwn, judgeRules, scoreRun), so a harness costs one run, not three. Errored cases
// stay errored under every profile (a missed deadline is not told apart from a crash here). Pure.
import { activeOwn, effectOf, type Judge, type Profile } from "../runner/rules.ts";
import { unobservableRules } from "../runner/unobserved.ts";
import { noneSeenWhole, noneSeenWholeReason, unseenAt } from "../runner/partly-observed.ts";
import { countRules, judgeRules, scoreRun } from "../runner/verdicts.ts";
import type { CaseResult, Mismatch, RunReport } from "../runner/types.ts";

const callIndex = (m: Mismatch): number => Number(/^calls\[(\d+)\]/.exec(m.at)?.[1] ?? -1);

/** A case skipped because no rule it is judged on was seen whole (K120, K124): re-judged, as the profile changes which. */
const seenInPart = (c: CaseResult): boolean =>
  c.status === "skipped" && (c.unobserved_rules !== undefined || c.partly_observed_rules !== undefined);

/** A case re-judged: its mismatches' effects, then its status; errored and other skipped cases stay as they were. */
function rejudgeCase(c: CaseResult, j: Judge): CaseResult {
  if (c.status === "errored" || (c.status === "skipped" && !seenInPart(c))) return c;
  const own = (m: Mismatch): Mismatch["effect"] =>
    m.effect === "not_observable" ? m.effect : effectOf(m.rules, c.rules, j);
  // As the runner does (case.ts): a cascade after a call that went wrong under a rule the profile does not score is
  // not scored either. The first wrong call is the earliest mismatch of a kind or code.
  const first = (c.mismatches ?? [])
    .filter((m) => m.key === "kind" || m.key === "code")
    .sort((a, b) => callIndex(a) - callIndex(b))[0];
  const wentWrong = first ? own(first) : undefined;
  const mismatches = (c.mismatches ?? []).map((m) => {
    const e = own(m);
    return {
      ...m,
      effect:
        m.after !== undefined && wentWrong === "not_scored" && e !== "n/a" && e !== "not_observable" ? "not_scored" : e,
    };
  });
  const status = mismatches.some((m) => m.effect === "fails_case")
    ? "failed"
    : noneSeenWhole(c.rules, j, c.unobserved_rules ?? [], c.partly_observed_rules ?? [])
      ? "skipped"
      : c.rules.length && activeOwn(c.rules, j).length === 0
        ? "not_scored"
        : "passed";
  const { reason: _reason, ...rest } = c;
  const reason =
    status === "not_scored"
      ? { reason: `profile ${j.profile} scores none of the rules the case tests (${c.rules.join(", ")})` }
      : status === "skipped"
        ? { reason: noneSeenWholeReason(c.rules, j, c.unobserved_calls ?? [], c.unobserved_rules ?? [], partlyAt(c)) }
        : {};
  return { ...rest, ...reason, status, ...(mismatches.length ? { mismatches } : {}) };
}

/** Where each partly observed rule of a case was not seen (its first not_observable mismatch; else its case file). */
function partlyAt(c: CaseResult): Map<string, string> {
  const at = unseenAt(c.mismatches ?? []);
  return new Map((c.partly_observed_rules ?? []).map((id) => [id, at.get(id) ?? "a check of it"]));
}

/** The report of the same run judged under `profile` (the run itself was made under a profile scoring more). */
export function rescore(report: RunReport, profile: Profile): RunReport {
  const j: Judge = { profile, capabilities: report.capabilities, notObservable: unobservableRules(report.unobserved) };
  const cases = report.cases.map((c) => rejudgeCase(c, j));
  const rules = judgeRules(cases, j);
  const n = (s: string) => cases.filter((c) => c.status === s).length;
  const summary = {
    ...report.summary,
    passed: n("passed"),
    failed: n("failed"),
    errored: n("errored"),
    skipped: n("skipped"),
    not_scored: n("not_scored"),
    expected_failures: n("expected_failure"),
  };
  return {
    ...report,
    profile,
    summary,
    rules,
    rule_counts: countRules(rules),
    score: scoreRun(rules, cases, summary, profile),
    cases,
  };
}
