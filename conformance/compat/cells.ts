// Owns turning one conformance JSON report (one implementation, one profile, every suite) into the
// compatibility page's cells: one per suite, with its case counts and the rules that fail in it. Pure.
// It reads the report's `rules: [{id, source, level, status, cases}]` and each case's `rules` (the rules it
// exists to test) when the kit writes them (issue 19 item 3); a report without them falls back to its
// failed and errored cases, marked by: "case".
import type { Cell, FailingRule } from "./types.ts";

/** The parts of report.schema.json this module reads (older and newer kits both fit). */
export interface ReportLike {
  implementation?: { name?: string; version?: string; language?: string };
  cases: { id: string; status: string; title?: string; rules?: string[]; reason?: string }[];
  rules?: { id: string; source?: string; level?: string; status: string; cases?: string[] }[];
}

type Case = ReportLike["cases"][number];
type Rule = NonNullable<ReportLike["rules"]>[number];

/** Rule statuses that are a failure. Anything else (passed, expected failure, not scored, n/a, unchecked) is not. */
const FAILING = new Set(["failed", "errored"]);
const BAD_CASE = new Set(["failed", "errored"]);

/** Cells of one report, in the order of `suites`; `suiteOf` maps a case id to its suite. */
export function cellsFromReport(
  report: ReportLike,
  profile: string,
  suites: readonly string[],
  suiteOf: ReadonlyMap<string, string>,
): Cell[] {
  return suites.map((suite) => cellOf(report, profile, suite, suiteOf));
}

function cellOf(report: ReportLike, profile: string, suite: string, suiteOf: ReadonlyMap<string, string>): Cell {
  const cases = report.cases.filter((c) => suiteOf.get(c.id) === suite);
  const count = (s: string) => cases.filter((c) => c.status === s).length;
  const failed = count("failed");
  const errored = count("errored");
  // A skip is either a missing feature (a capability declared false) or not observable here (K40): runner/case.ts's reasons.
  const notObservable = cases.filter(
    (c) => c.status === "skipped" && /^not observable here/.test(c.reason ?? ""),
  ).length;
  const skipped = count("skipped");
  const notScored = count("not_scored");
  const passed = count("passed");
  const byRule = Array.isArray(report.rules);
  const { failing, incidental } = byRule
    ? rulesOf(report.rules!, cases)
    : { failing: casesAsEntries(cases.filter((c) => BAD_CASE.has(c.status))), incidental: [] };
  return {
    profile,
    suite,
    total: cases.length,
    passed,
    failed,
    errored,
    skipped,
    missing: skipped - notObservable,
    not_observable: notObservable,
    not_scored: notScored,
    status: failed + errored > 0 ? "fail" : cases.length - notScored === 0 ? "none" : skipped > 0 ? "partial" : "pass",
    by: byRule ? "rule" : "case",
    failing,
    incidental,
  };
}

/**
 * A failed rule is *failing* in a suite when one of the suite's failed or errored cases exists to test it
 * (case.rules; a kit that does not say which rules a case tests counts every case of the rule), and
 * *incidental* when it shows only in the suite's other cases. A bad case no failed rule accounts for (a
 * driver that crashed) is listed as itself, so a failing cell never links to an empty list.
 */
export function rulesOf(
  rules: readonly Rule[],
  cases: readonly Case[],
): { failing: FailingRule[]; incidental: FailingRule[] } {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const failing: FailingRule[] = [];
  const incidental: FailingRule[] = [];
  const accounted = new Set<string>();
  for (const r of rules) {
    if (!FAILING.has(r.status)) continue;
    const here = (r.cases ?? []).filter((id) => byId.has(id));
    if (!here.length) continue;
    const own = here.filter((id) => {
      const c = byId.get(id)!;
      return BAD_CASE.has(c.status) && (c.rules === undefined || c.rules.includes(r.id));
    });
    const entry = (ids: string[]): FailingRule => ({
      id: r.id,
      source: r.source ?? "unknown",
      ...(r.level ? { level: r.level } : {}),
      cases: ids,
    });
    if (own.length) {
      failing.push(entry(own));
      for (const id of own) accounted.add(id);
    } else incidental.push(entry(here));
  }
  const orphans = cases.filter((c) => BAD_CASE.has(c.status) && !accounted.has(c.id));
  return { failing: [...sortRules(failing), ...casesAsEntries(orphans)], incidental: sortRules(incidental) };
}

function casesAsEntries(cases: readonly Case[]): FailingRule[] {
  return cases.map((c) => ({ id: c.id, source: "case", cases: [c.id], ...(c.title ? { title: c.title } : {}) }));
}

const SOURCE_ORDER = (s: string): number => ({ spec: 0, decision: 1, rendering: 2 })[s] ?? 3;

/** Spec rules first, then decisions, then rendering; by id inside each. */
export function sortRules(rules: FailingRule[]): FailingRule[] {
  return rules.sort(
    (a, b) => SOURCE_ORDER(a.source) - SOURCE_ORDER(b.source) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** Every failed rule of one implementation and profile, each once, with all its cases (the grid repeats a
 *  rule in every suite it shows in; this is the list a maintainer fixes from). */
export function rulesOnce(cells: readonly Cell[]): FailingRule[] {
  const merged = new Map<string, FailingRule>();
  for (const c of cells)
    for (const f of [...c.failing, ...c.incidental]) {
      if (f.source === "case") continue;
      const m = merged.get(f.id);
      if (m) m.cases = [...new Set([...m.cases, ...f.cases])];
      else merged.set(f.id, { ...f, cases: [...f.cases] });
    }
  return sortRules([...merged.values()]);
}

/** A cell for a run that gave no report (the CLI could not run, or wrote nothing). */
export function errorCells(profile: string, suites: readonly string[], reason: string): Cell[] {
  return suites.map((suite) => ({
    profile,
    suite,
    total: 0,
    passed: 0,
    failed: 0,
    errored: 0,
    skipped: 0,
    missing: 0,
    not_observable: 0,
    not_scored: 0,
    status: "error",
    by: "case",
    failing: [],
    incidental: [],
    reason,
  }));
}
