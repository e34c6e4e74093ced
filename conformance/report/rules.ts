// Rule lines shared by the renderers: the failing rules, each once, with the cases that show it and one example;
// the counts by source; how a mismatch names its rules. Wording lives here, not in the runner's data.
import type { Mismatch, RuleResult, RunReport } from "../runner/types.ts";

export function show(value: unknown): string {
  if (value === undefined) return "(nothing)";
  const s = JSON.stringify(value);
  return s.length > 300 ? s.slice(0, 300) + "…" : s;
}

/** The rules a reader must act on: failed first, then expected failures. */
export function failingRules(report: Pick<RunReport, "rules">): RuleResult[] {
  return (report.rules ?? []).filter((r) => r.status === "failed" || r.status === "expected_failure");
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
    const bits = Object.entries(c).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s.replace("_", " ")}`);
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
