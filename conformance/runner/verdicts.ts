// Owns the verdict per rule over a run: for every row of schemas/rules.json, from the cases' mismatches (each
// already attributed to its rules, with its effect) and which cases checked it: failed (scored, and some check of
// it did not hold), passed, not_scored (outside the profile: still shown, with whether it held), n/a (a capability
// the implementation declares false), errored (scored, held where checked, but a case that checks it ended before
// checking it: never passed then), not_run (no case of this run checks it: another suite does), not_checkable
// (no check can, through the driver protocol: the table says why), not_observable (needs a value the harness does
// not produce, or every case checked it only partly: K124). What a baseline makes of them is the gate's
// (conformance/baseline.ts), not this module's.
import { rules as rulesTable } from "../../schemas/index.ts";
import { PROFILES, SCORED, isNa, isNotObservable, isScored, ruleIndex, type Judge, type Profile } from "./rules.ts";
import type {
  CaseResult,
  Mismatch,
  RuleCounts,
  RuleResult,
  RuleStatus,
  RunReport,
  RunScore,
  Summary,
} from "./types.ts";

const ORDER: Record<RuleStatus, number> = {
  failed: 0,
  errored: 1,
  expected_failure: 2,
  passed: 3,
  not_scored: 4,
  "n/a": 5,
  not_observable: 6,
  not_run: 7,
  not_checkable: 8,
};
const SOURCE_ORDER = { spec: 0, decision: 1, rendering: 2 } as const;

/** A case whose checks ran (wholly or in part): its checked rules count as checked. */
const ran = (c: CaseResult) => c.status !== "skipped" && !(c.status === "errored" && c.observed === undefined);

/** The mismatches that show a rule not holding: n/a never; a cascade the profile does not score never, for a scored rule. */
function failingMismatches(c: CaseResult, id: string, j?: Judge): Mismatch[] {
  return (c.mismatches ?? []).filter(
    (m) =>
      m.rules.includes(id) &&
      m.effect !== "n/a" &&
      m.effect !== "not_observable" &&
      !(j && m.effect === "not_scored" && m.after !== undefined && isScored(id, j)),
  );
}

/** Cascades under a scored rule left unscored because the call they follow went wrong under a rule outside the profile. */
function unscoredCascades(cases: readonly CaseResult[], id: string, j: Judge): string[] {
  return cases
    .filter((c) =>
      (c.mismatches ?? []).some(
        (m) => m.rules.includes(id) && m.effect === "not_scored" && m.after !== undefined && isScored(id, j),
      ),
    )
    .map((c) => c.id);
}

/** Every rule's verdict, failing rules first (spec, then decision, then rendering), then by id. */
export function judgeRules(
  cases: readonly CaseResult[],
  j: Judge,
  expectedRules: ReadonlySet<string> = new Set(),
): RuleResult[] {
  const out = rulesTable().map((rule): RuleResult => {
    const base = {
      id: rule.id,
      source: rule.source,
      level: rule.level,
      statement: rule.statement,
      cites: [...rule.cites],
    };
    const checkedIn = cases.filter((c) => ran(c) && c.checked_rules.includes(rule.id)).map((c) => c.id);
    const showing = cases.filter((c) => failingMismatches(c, rule.id, j).length > 0);
    const first = showing[0];
    const m = first ? failingMismatches(first, rule.id, j)[0] : undefined;
    const example =
      first && m
        ? {
            example: {
              case: first.id,
              at: m.at,
              key: m.key,
              expected: m.expected,
              actual: m.actual,
              ...(m.call !== undefined ? { call: m.call } : {}),
              what: m.what,
            },
          }
        : {};
    const ids = showing.map((c) => c.id);
    // Cases that ended early before checking it: it is not shown to hold there.
    const unverified = cases
      .filter(
        (c) =>
          (c.status === "errored" || c.unchecked_rules !== undefined) &&
          (c.unchecked_rules ?? (c.observed === undefined ? c.checked_rules : [])).includes(rule.id),
      )
      .map((c) => c.id);
    // Every mismatch that shows it came after an earlier call of its case went wrong: say so (a cascade).
    const cascade =
      showing.length > 0 && showing.every((c) => failingMismatches(c, rule.id, j).every((m) => m.after !== undefined));
    const cascadeNote = cascade
      ? {
          note: `shown only after an earlier call of the same case went wrong (${showing.map((c) => `${c.id} ${failingMismatches(c, rule.id, j)[0]!.after}`).join(", ")}): may follow from that`,
        }
      : {};
    const quiet = unscoredCascades(cases, rule.id, j);
    if (rule.checked === false)
      return {
        ...base,
        status: "not_checkable",
        cases: [],
        checked_in: [],
        note: rule.reason ?? "not checkable through the driver protocol",
      };
    if (isNa(rule.id, j))
      return {
        ...base,
        status: "n/a",
        cases: [],
        checked_in: checkedIn,
        note: `the implementation declares capability ${rule.capability} false`,
      };
    if (isNotObservable(rule.id, j))
      return {
        ...base,
        status: "not_observable",
        cases: [],
        checked_in: checkedIn,
        note: "not observable here: it needs a value the harness does not produce (the driver's unobserved list, schemas/observations.json)",
      };
    // Checked only at calls the harness could not be given (K120): not observable here, never not_run or passed.
    const onlyUnobserved = cases.filter((c) => c.unobserved_rules?.includes(rule.id)).map((c) => c.id);
    // Cases where a check of it was at a value the harness does not produce: no evidence that it holds (K124).
    const partlyIn = cases.filter((c) => c.partly_observed_rules?.includes(rule.id)).map((c) => c.id);
    if (!checkedIn.length && !ids.length && onlyUnobserved.length)
      return {
        ...base,
        status: "not_observable",
        cases: [],
        checked_in: [],
        note: `not observable here: checked only at calls the harness cannot be given (${onlyUnobserved.join(", ")}; the driver answered them unobserved)`,
      };
    if (!checkedIn.length && !ids.length && unverified.length)
      return {
        ...base,
        status: isScored(rule.id, j) ? "errored" : "not_scored",
        cases: [],
        checked_in: [],
        note: `not verified: ${unverified.join(", ")} ended before checking it`,
      };
    if (!checkedIn.length && !ids.length && !onlyUnobserved.length && partlyIn.length)
      return {
        ...base,
        status: "not_observable",
        cases: [],
        checked_in: [],
        note: `not observable here: ${partlyIn.join(", ")} checked it partly (some of its checks are at values the harness does not produce) and were skipped`,
      };
    if (!checkedIn.length && !ids.length)
      return {
        ...base,
        status: "not_run",
        cases: [],
        checked_in: [],
        note: "no case of this run checks it (another suite does, or its cases were filtered out or skipped)",
      };
    if (!isScored(rule.id, j))
      return {
        ...base,
        status: "not_scored",
        cases: ids,
        checked_in: checkedIn,
        note: ids.length
          ? `outside profile ${j.profile}; did not hold`
          : unverified.length
            ? `outside profile ${j.profile}; not verified in ${unverified.join(", ")} (ended early)`
            : `outside profile ${j.profile}; held`,
        ...example,
      };
    // Accepted when listed by rule, or when every case that shows it is itself an accepted (listed) failure.
    const accepted = expectedRules.has(rule.id) || showing.every((c) => c.status === "expected_failure");
    if (ids.length)
      return {
        ...base,
        status: accepted ? "expected_failure" : "failed",
        cases: ids,
        checked_in: checkedIn,
        ...cascadeNote,
        ...example,
      };
    // Never passed while a case that checks it ended before checking it.
    if (unverified.length)
      return {
        ...base,
        status: "errored",
        cases: [],
        checked_in: checkedIn,
        note: `not verified: ${unverified.join(", ")} ended before checking it (held in ${checkedIn.filter((id) => !unverified.includes(id)).join(", ") || "no other case"})`,
      };
    // Passed only where some case saw every check of it (K124).
    if (checkedIn.every((id) => partlyIn.includes(id)))
      return {
        ...base,
        status: "not_observable",
        cases: [],
        checked_in: checkedIn,
        note: `not observable here: every case that checks it (${checkedIn.join(", ")}) has a check of it at a value the harness does not produce; what could be seen held`,
      };
    return {
      ...base,
      status: "passed",
      cases: [],
      checked_in: checkedIn,
      ...(quiet.length
        ? {
            note: `held where judged; not judged in ${quiet.join(", ")}, after an earlier call went wrong under a rule outside profile ${j.profile} (a cascade, not scored)`,
          }
        : {}),
    };
  });
  return out.sort(
    (a, b) =>
      ORDER[a.status] - ORDER[b.status] || SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || a.id.localeCompare(b.id),
  );
}

const zero = (): RuleCounts => ({
  passed: 0,
  failed: 0,
  expected_failure: 0,
  errored: 0,
  not_scored: 0,
  "n/a": 0,
  not_observable: 0,
  not_run: 0,
  not_checkable: 0,
});

/**
 * The run's one score: the rules the profile scores by status (the headline), and the cases, where a not-scored
 * case is neither passed nor failed. When the profile scores none of the cases that ran, scored_by names the
 * smallest profile that scores one of them (the contract suite under spec: decisions).
 */
export function scoreRun(
  rules: readonly RuleResult[],
  cases: readonly CaseResult[],
  summary: Summary,
  profile: Profile,
): RunScore {
  const sources = [...SCORED[profile]];
  const counts = zero();
  for (const r of rules) if ((sources as string[]).includes(r.source)) counts[r.status]++;
  const notScored = summary.not_scored ?? 0;
  const scored = summary.total - notScored;
  const score: RunScore = {
    profile,
    sources,
    rules: counts,
    cases: { scored, passed: summary.passed, not_scored: notScored },
  };
  if (scored === 0 && notScored > 0) {
    const own = new Set(
      cases
        .filter((c) => c.status === "not_scored")
        .flatMap((c) => c.rules)
        .map((id) => ruleIndex().get(id)?.source),
    );
    const by = PROFILES.find((p) => p !== profile && SCORED[p].some((src) => own.has(src)));
    if (by) score.scored_by = by;
  }
  return score;
}

export function countRules(rules: readonly RuleResult[]): RunReport["rule_counts"] {
  const counts = { spec: zero(), decision: zero(), rendering: zero() };
  for (const r of rules) counts[r.source][r.status]++;
  return counts;
}
