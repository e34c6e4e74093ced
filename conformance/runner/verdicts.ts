// Owns the verdict per rule over a run: for every row of schemas/rules.json, from the cases' mismatches (each
// already attributed to its rules, with its effect) and which cases checked it: failed (scored, and some check of
// it did not hold), passed, not_scored (outside the profile: still shown, with whether it held), n/a (a capability
// the implementation declares false), not_run (no case of this run checks it: another suite does), not_checkable
// (no check can, through the driver protocol: the table says why). What a baseline makes of them is the gate's
// (conformance/baseline.ts), not this module's.
import { rules as rulesTable } from "../../schemas/index.ts";
import { isNa, isScored, type Judge } from "./rules.ts";
import type { CaseResult, Mismatch, RuleCounts, RuleResult, RuleStatus, RunReport } from "./types.ts";

const ORDER: Record<RuleStatus, number> = { failed: 0, expected_failure: 1, passed: 2, not_scored: 3, "n/a": 4, not_run: 5, not_checkable: 6 };
const SOURCE_ORDER = { spec: 0, decision: 1, rendering: 2 } as const;

/** A case whose checks ran (wholly or in part): its checked rules count as checked. */
const ran = (c: CaseResult) => c.status !== "skipped" && !(c.status === "errored" && c.observed === undefined);

function failingMismatches(c: CaseResult, id: string): Mismatch[] {
  return (c.mismatches ?? []).filter((m) => m.rules.includes(id) && m.effect !== "n/a");
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
  const zero = (): RuleCounts => ({ passed: 0, failed: 0, expected_failure: 0, not_scored: 0, "n/a": 0, not_run: 0, not_checkable: 0 });
  const counts = { spec: zero(), decision: zero(), rendering: zero() };
  for (const r of rules) counts[r.source][r.status]++;
  return counts;
}
