// Owns the verdict per rule over a run: for every row of schemas/rules.json, from the cases' mismatches (each
// already attributed to its rules, with its effect) and which cases checked it: failed (scored, and some check of
// it did not hold), passed, not_scored (outside the profile: still shown, with whether it held), n/a (a capability
// the implementation declares false), not_run (no case of this run checks it: another suite does), not_checkable
// (no check can, through the driver protocol: the table says why). Also the
// expected-failures baseline by rule (`rule:<id>` lines) and what is failing, for a gate to compare with.
import { rules as rulesTable } from "../../schemas/index.ts";
import { isNa, isNotObservable, isScored, type Judge } from "./rules.ts";
import type { CaseResult, Mismatch, RuleCounts, RuleResult, RuleStatus, RunReport } from "./types.ts";

const ORDER: Record<RuleStatus, number> = { failed: 0, expected_failure: 1, passed: 2, not_scored: 3, "n/a": 4, not_observable: 5, not_run: 6, not_checkable: 7 };
const SOURCE_ORDER = { spec: 0, decision: 1, rendering: 2 } as const;

/** The prefix a baseline line uses for a rule: `rule:body.verbatim`. */
export const RULE_PREFIX = "rule:";

/** A case whose checks ran (wholly or in part): its checked rules count as checked. */
const ran = (c: CaseResult) => c.status !== "skipped" && !(c.status === "errored" && c.observed === undefined);

function failingMismatches(c: CaseResult, id: string): Mismatch[] {
  return (c.mismatches ?? []).filter((m) => m.rules.includes(id) && m.effect !== "n/a" && m.effect !== "not_observable");
}

/** Every rule's verdict, failing rules first (spec, then decision, then rendering), then by id. */
export function judgeRules(cases: readonly CaseResult[], j: Judge, expectedRules: ReadonlySet<string> = new Set()): RuleResult[] {
  const out = rulesTable().map((rule): RuleResult => {
    const base = { id: rule.id, source: rule.source, level: rule.level, statement: rule.statement, cites: [...rule.cites] };
    const checkedIn = cases.filter((c) => ran(c) && c.checked_rules.includes(rule.id)).map((c) => c.id);
    const showing = cases.filter((c) => failingMismatches(c, rule.id).length > 0);
    const first = showing[0];
    const m = first ? failingMismatches(first, rule.id)[0] : undefined;
    const example = first && m ? { example: { case: first.id, at: m.at, key: m.key, expected: m.expected, actual: m.actual, ...(m.call !== undefined ? { call: m.call } : {}), what: m.what } } : {};
    const ids = showing.map((c) => c.id);
    if (rule.checked === false) return { ...base, status: "not_checkable", cases: [], checked_in: [], note: rule.reason ?? "not checkable through the driver protocol" };
    if (isNa(rule.id, j)) return { ...base, status: "n/a", cases: [], checked_in: checkedIn, note: `the implementation declares capability ${rule.capability} false` };
    if (isNotObservable(rule.id, j)) return { ...base, status: "not_observable", cases: [], checked_in: checkedIn, note: "not observable here: it needs a value the harness does not produce (the driver's unobserved list, schemas/observations.json)" };
    if (!checkedIn.length && !ids.length) return { ...base, status: "not_run", cases: [], checked_in: [], note: "no case of this run checks it (another suite does, or its cases were filtered out or skipped)" };
    if (!isScored(rule.id, j)) return { ...base, status: "not_scored", cases: ids, checked_in: checkedIn, note: ids.length ? `outside profile ${j.profile}; did not hold` : `outside profile ${j.profile}; held`, ...example };
    // Accepted when listed by rule, or when every case that shows it is itself an accepted (listed) failure.
    const accepted = expectedRules.has(rule.id) || showing.every((c) => c.status === "expected_failure");
    if (ids.length) return { ...base, status: accepted ? "expected_failure" : "failed", cases: ids, checked_in: checkedIn, ...example };
    return { ...base, status: "passed", cases: [], checked_in: checkedIn };
  });
  return out.sort((a, b) => ORDER[a.status] - ORDER[b.status] || SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || a.id.localeCompare(b.id));
}

export function countRules(rules: readonly RuleResult[]): RunReport["rule_counts"] {
  const zero = (): RuleCounts => ({ passed: 0, failed: 0, expected_failure: 0, not_scored: 0, "n/a": 0, not_observable: 0, not_run: 0, not_checkable: 0 });
  const counts = { spec: zero(), decision: zero(), rendering: zero() };
  for (const r of rules) counts[r.source][r.status]++;
  return counts;
}

/**
 * A failed case whose failing checks all break listed rules is an expected failure too (the rule is the baseline's
 * unit); its other findings stay as they are.
 */
export function applyRuleBaseline(c: CaseResult, expectedRules: ReadonlySet<string>): CaseResult {
  if (c.status !== "failed" || !expectedRules.size) return c;
  const failing = (c.mismatches ?? []).filter((m) => m.effect === "fails_case");
  const covered = failing.length > 0 && failing.every((m) => m.rules.some((id) => expectedRules.has(id)));
  return covered ? { ...c, status: "expected_failure" } : c;
}

/** Split a baseline's entries into rule ids (`rule:<id>`) and case ids. */
export function splitBaseline(entries: Iterable<string>): { rules: Set<string>; cases: Set<string> } {
  const rules = new Set<string>();
  const cases = new Set<string>();
  for (const e of entries) (e.startsWith(RULE_PREFIX) ? rules.add(e.slice(RULE_PREFIX.length)) : cases.add(e));
  return { rules, cases };
}

/** What is failing in a run, as a baseline would list it: the scored failing rules, and the failed or errored cases. */
export function failing(report: Pick<RunReport, "rules" | "cases">): { rules: string[]; cases: string[] } {
  return {
    rules: report.rules.filter((r) => r.status === "failed" || r.status === "expected_failure").map((r) => r.id),
    cases: report.cases.filter((c) => c.status === "failed" || c.status === "errored" || c.status === "expected_failure").map((c) => c.id),
  };
}

/**
 * Baseline lines that no longer hold: a listed rule that is not a rule at all, or that passed (not judged on a
 * filtered run: the cases that show it may not have run).
 */
export function staleRuleBaseline(report: Pick<RunReport, "rules">, expectedRules: ReadonlySet<string>, filtered = false): string[] {
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const notes: string[] = [];
  for (const id of expectedRules) {
    const r = byId.get(id);
    if (!r) notes.push(`stale expected failure: ${RULE_PREFIX}${id} is not a rule of schemas/rules.json`);
    else if (r.status === "passed" && !filtered) notes.push(`stale expected failure: ${RULE_PREFIX}${id} passed; remove it from the expected-failures file`);
  }
  return notes;
}

/**
 * A run's rule verdicts once a baseline is applied to its cases (conformance/baseline.ts): a failed rule listed as
 * rule:<id>, or whose every showing case is now an expected failure, is an expected failure.
 */
export function rebaseRules(rules: readonly RuleResult[], cases: readonly CaseResult[], listedRules: ReadonlySet<string>): RuleResult[] {
  const status = new Map(cases.map((c) => [c.id, c.status]));
  return rules.map((r) =>
    r.status === "failed" && (listedRules.has(r.id) || (r.cases.length > 0 && r.cases.every((id) => status.get(id) === "expected_failure"))) ? { ...r, status: "expected_failure" } : r,
  );
}
