// Owns turning one conformance JSON report (one implementation, one profile, every suite) into the
// compatibility page's cells: one per suite, with its case counts and the rules that fail in it. Pure.
// It reads the report's `rules: [{id, source, level, status, cases}]` when the kit writes them (issue 19
// item 3); a report without them falls back to its failed and errored cases, marked by: "case".
import type { Cell, FailingRule } from "./types.ts";

/** The parts of report.schema.json this module reads (older and newer kits both fit). */
export interface ReportLike {
  implementation?: { name?: string; version?: string; language?: string };
  cases: { id: string; status: string; title?: string }[];
  rules?: { id: string; source?: string; level?: string; status: string; cases?: string[] }[];
}

/** Rule statuses that make a cell fail. Anything else (passed, not scored, n/a, skipped) does not. */
const FAILING = new Set(["failed", "errored", "fail", "error"]);

/** Cells of one report, in the order of `suites`; `suiteOf` maps a case id to its suite. */
export function cellsFromReport(report: ReportLike, profile: string, suites: readonly string[], suiteOf: ReadonlyMap<string, string>): Cell[] {
  return suites.map((suite) => cellOf(report, profile, suite, suiteOf));
}

function cellOf(report: ReportLike, profile: string, suite: string, suiteOf: ReadonlyMap<string, string>): Cell {
  const cases = report.cases.filter((c) => suiteOf.get(c.id) === suite);
  const count = (...s: string[]) => cases.filter((c) => s.includes(c.status)).length;
  const failed = count("failed");
  const errored = count("errored");
  const by = Array.isArray(report.rules) ? "rule" : "case";
  const failing = by === "rule" ? failingRules(report.rules!, new Set(cases.map((c) => c.id))) : failingCases(cases);
  return {
    profile,
    suite,
    total: cases.length,
    passed: count("passed"),
    failed,
    errored,
    skipped: count("skipped"),
    status: failed + errored > 0 || failing.length > 0 ? "fail" : "pass",
    by,
    failing,
  };
}

/** The report's failing rules that show in this suite's cases, each once, sorted by source then id. */
export function failingRules(rules: NonNullable<ReportLike["rules"]>, inSuite: ReadonlySet<string>): FailingRule[] {
  const out: FailingRule[] = [];
  for (const r of rules) {
    if (!FAILING.has(r.status)) continue;
    const cases = (r.cases ?? []).filter((c) => inSuite.has(c));
    if (!cases.length) continue;
    out.push({ id: r.id, source: r.source ?? "unknown", ...(r.level ? { level: r.level } : {}), cases });
  }
  return out.sort((a, b) => SOURCE_ORDER(a.source) - SOURCE_ORDER(b.source) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function failingCases(cases: ReportLike["cases"]): FailingRule[] {
  return cases.filter((c) => c.status === "failed" || c.status === "errored").map((c) => ({ id: c.id, source: "case", cases: [c.id], ...(c.title ? { title: c.title } : {}) }));
}

const SOURCE_ORDER = (s: string): number => ({ spec: 0, decision: 1, rendering: 2 })[s] ?? 3;

/** A cell for a run that gave no report (the CLI could not run, or wrote nothing). */
export function errorCells(profile: string, suites: readonly string[], reason: string): Cell[] {
  return suites.map((suite) => ({ profile, suite, total: 0, passed: 0, failed: 0, errored: 0, skipped: 0, status: "error", by: "case", failing: [], reason }));
}
