// Rule lines shared by the renderers: the failing rules, each once, with the cases that show it and one example;
// the counts by source; how a mismatch names its rules. Wording lives here, not in the runner's data.
import type { Mismatch, RuleResult, RunReport, RunScore } from "../runner/types.ts";
import { scoreRun } from "../runner/verdicts.ts";

export function show(value: unknown): string {
  if (value === undefined) return "(nothing)";
  const s = JSON.stringify(value);
  return s.length > 300 ? s.slice(0, 300) + "…" : s;
}

/** The rules a reader must act on: failed first, then errored (not verified), then expected failures. */
export function failingRules(report: Pick<RunReport, "rules">): RuleResult[] {
  return (report.rules ?? []).filter(
    (r) => r.status === "failed" || r.status === "errored" || r.status === "expected_failure",
  );
}

/** Rules outside the profile that did not hold: shown, not scored. */
export function unscoredFailing(report: Pick<RunReport, "rules">): RuleResult[] {
  return (report.rules ?? []).filter((r) => r.status === "not_scored" && r.cases.length > 0);
}

/** `spec 40 passed, 1 failed; decision 30 passed, 2 not scored; …` */
export function formatRuleCounts(report: Pick<RunReport, "rule_counts" | "profile">): string {
  // A report read back from an older kit has no rule counts: nothing to say.
  if (!report.rule_counts) return `rules: none judged (a report without rules[])`;
  const parts = (Object.entries(report.rule_counts) as Array<[string, Record<string, number>]>).map(([source, c]) => {
    const bits = Object.entries(c)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s.replace("_", " ")}`);
    return `${source}: ${bits.join(", ") || "none"}`;
  });
  return `rules (profile ${report.profile}): ${parts.join("; ")}`;
}

/** One example line: where, what, expected vs actual. */
export function formatExample(e: NonNullable<RuleResult["example"]>): string {
  return `${e.case} ${e.at}: ${e.what}: expected ${show(e.expected)}, got ${show(e.actual)}${e.call !== undefined ? ` (call ${show(e.call)})` : ""}`;
}

/** `body.verbatim (spec MUST, §4.5 rule 6, §12)` */
export function ruleLabel(r: Pick<RuleResult, "id" | "source" | "level" | "cites">): string {
  return `${r.id} (${r.source} ${r.level}, ${r.cites.join(", ")})`;
}

/** What a mismatch did, for a case's detail lines. */
export function effectNote(m: Pick<Mismatch, "effect" | "rules">): string {
  const rules = m.rules.length ? m.rules.join(", ") : "no rule named";
  switch (m.effect) {
    case "fails_case":
      return rules;
    case "incidental":
      return `${rules}; reported under the rule, not against this case`;
    case "not_scored":
      return `${rules}; outside the profile, not scored`;
    case "n/a":
      return `${rules}; n/a: a capability the implementation declares false`;
    case "not_observable":
      return `${rules}; not observable here: a value the harness does not produce`;
  }
}

/** A report's score; a report written by an older kit (no score) gets one derived from what it has. */
export function scoreOf(
  report: Pick<RunReport, "rules" | "cases" | "summary" | "profile"> & { score?: RunScore },
): RunScore {
  return report.score ?? scoreRun(report.rules ?? [], report.cases, report.summary, report.profile ?? "spec");
}

const SOURCE_WORDS: Record<string, string> = { spec: "spec", decision: "decision", rendering: "rendering" };

/**
 * The run's headline: the rules the profile scores, by status (`spec rules: 59 passed, 0 failed, 5 not checkable`).
 * Errored, expected failures, n/a, not observable and not run are named only when there are some.
 */
export function formatHeadline(score: RunScore): string {
  const c = score.rules;
  const bits = [`${c.passed} passed`, `${c.failed} failed`];
  if (c.errored) bits.push(`${c.errored} errored (a case that checks them ended early)`);
  if (c.expected_failure) bits.push(`${c.expected_failure} expected failure${c.expected_failure === 1 ? "" : "s"}`);
  if (c["n/a"]) bits.push(`${c["n/a"]} n/a`);
  if (c.not_observable) bits.push(`${c.not_observable} not observable here (a value the harness does not produce)`);
  if (c.not_run) bits.push(`${c.not_run} not run by this suite`);
  bits.push(`${c.not_checkable} not checkable`);
  return `${score.sources.map((s) => SOURCE_WORDS[s]).join(" + ")} rules (profile ${score.profile}): ${bits.join(", ")}`;
}

/** What a run whose cases the profile scores none of says instead of "0/8 passed": which profile scores them. */
export function formatNothingScored(score: RunScore): string {
  const n = score.cases.not_scored;
  return `profile ${score.profile} scores none of this run's ${n} case${n === 1 ? "" : "s"}${score.scored_by ? `: run --profile ${score.scored_by} to score them` : ""}`;
}
