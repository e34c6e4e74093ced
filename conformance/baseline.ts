// Owns the gate: the expected-failures baseline (read and checked before anything runs) and the verdict of a run
// against it. The runner reports what it observed; only this module decides what a listed case means:
//   listed and failed      → status expected_failure (the observed status was failed), the run may pass
//   listed and passed      → status stays passed, marked baseline "stale": the run fails (remove the id)
//   listed and skipped     → status stays skipped, marked baseline "accepted_skip": the run may pass
//   listed and errored     → status stays errored: the run fails (an error is never expected)
// A file may list ids of every suite (one file shared by `--suite spec` and `--suite security` runs): ids of cases
// that did not run are not stale. An id that is no case of any suite, nor a known rule (`rule:<id>`), is a usage
// error before the run, so a typo or a garbage file never costs a run.
import { summarise } from "./runner/index.ts";
import { countRules, scoreRun } from "./runner/verdicts.ts";
import { DEFAULT_PROFILE } from "./runner/rules.ts";
import type { CaseResult, RuleResult, RunReport } from "./runner/types.ts";

/** The prefix a baseline line uses for a rule: `rule:body.verbatim`. */
export const RULE_PREFIX = "rule:";

export interface Baseline {
  /** The file as given on the command line (for messages). */
  readonly file: string;
  /** Case ids listed. */
  readonly cases: ReadonlySet<string>;
  /** Rule ids listed as `rule:<id>`: a failed case whose every failing rule is listed is an expected failure. */
  readonly rules: ReadonlySet<string>;
}

export const EMPTY_BASELINE: Baseline = { file: "", cases: new Set(), rules: new Set() };

export class BaselineError extends Error {}

/** What ids may appear: every case id of every suite, and the rule ids the kit knows (empty before rules exist). */
export interface KnownIds {
  cases: ReadonlySet<string>;
  rules: ReadonlySet<string>;
}

/** One entry per line; `#` starts a comment; blank lines ignored. Returns [line number, entry] pairs. */
export function baselineEntries(text: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*/, "").trim();
    if (line) out.push([i + 1, line]);
  }
  return out;
}

/** Parse and check a baseline file's text; any unknown entry is a BaselineError naming every bad line (one line). */
export function parseBaseline(text: string, file: string, known: KnownIds): Baseline {
  if (text.includes("\u0000"))
    throw new BaselineError(`--expected-failures ${file}: not a text file (one case id per line, # comments)`);
  const cases = new Set<string>();
  const rules = new Set<string>();
  const bad: string[] = [];
  for (const [line, entry] of baselineEntries(text)) {
    if (entry.startsWith(RULE_PREFIX)) {
      const id = entry.slice(RULE_PREFIX.length).trim();
      if (known.rules.has(id)) rules.add(id);
      else bad.push(`line ${line} "${clip(entry)}" (no such rule)`);
    } else if (known.cases.has(entry)) cases.add(entry);
    else bad.push(`line ${line} "${clip(entry)}"`);
  }
  if (bad.length) {
    const shown = bad.slice(0, 3).join(", ") + (bad.length > 3 ? `, and ${bad.length - 3} more` : "");
    throw new BaselineError(
      `--expected-failures ${file}: ${bad.length === 1 ? "an entry that is" : `${bad.length} entries that are`} no case of any suite${known.rules.size ? " nor rule:<id> of a known rule" : ""}: ${shown}`,
    );
  }
  return { file, cases, rules };
}

function clip(s: string): string {
  // eslint-disable-next-line no-control-regex
  const printable = s.replace(/[\u0000-\u001f\u007f]/g, "?");
  return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
}

/** The rule ids a failed case failed on: those of the mismatches that fail it (effect fails_case; h-rules). */
function failingRules(r: CaseResult): string[] {
  return (r.mismatches ?? [])
    .filter((m) => m.effect === undefined || m.effect === "fails_case")
    .flatMap((m) => {
      const { rule, rules } = m as { rule?: unknown; rules?: unknown };
      return [rule, ...(Array.isArray(rules) ? rules : [])].filter((x): x is string => typeof x === "string");
    });
}

function listed(r: CaseResult, b: Baseline): boolean {
  if (b.cases.has(r.id)) return true;
  const rules = failingRules(r);
  return rules.length > 0 && rules.every((id) => b.rules.has(id));
}

/** The observed result, marked with what the baseline makes of it. */
export function gateCase(r: CaseResult, b: Baseline): CaseResult {
  if (!listed(r, b)) return r;
  if (r.status === "failed") return { ...r, status: "expected_failure" };
  if (r.status === "passed" && b.cases.has(r.id)) return { ...r, baseline: "stale" };
  if (r.status === "skipped") return { ...r, baseline: "accepted_skip" };
  return r;
}

export interface Verdict {
  code: 0 | 1;
  /** One line each: stale entries, accepted skips. */
  notes: string[];
}

/**
 * A run's rule verdicts once a baseline is applied to its cases: a failed rule listed as rule:<id>, or whose every
 * showing case is now an expected failure, is an expected failure.
 */
export function rebaseRules(
  rules: readonly RuleResult[],
  cases: readonly CaseResult[],
  listedRules: ReadonlySet<string>,
): RuleResult[] {
  const status = new Map(cases.map((c) => [c.id, c.status]));
  return rules.map((r) =>
    r.status === "failed" &&
    (listedRules.has(r.id) || (r.cases.length > 0 && r.cases.every((id) => status.get(id) === "expected_failure")))
      ? { ...r, status: "expected_failure" }
      : r,
  );
}

/** Apply the baseline to a run and say whether it passes: the report (statuses as above, summary recounted) and the verdict. */
export function gate(report: RunReport, b: Baseline): { report: RunReport; verdict: Verdict } {
  const cases = report.cases.map((c) => gateCase(c, b));
  const notes: string[] = [];
  let code: 0 | 1 = 0;
  // Rules: a failed rule listed as rule:<id> (or shown only by cases now expected failures) is accepted; any other
  // scored failing rule fails the run, even when every case passed (a finding under it in another case's control call).
  const rules = rebaseRules(report.rules ?? [], cases, b.rules);
  for (const r of rules) {
    if (r.status === "failed") code = 1;
    if (b.rules.has(r.id) && r.status === "passed") {
      notes.push(
        `stale expected failure: ${RULE_PREFIX}${r.id} passed; remove it from ${b.file || "the expected-failures file"}`,
      );
      code = 1;
    }
  }
  const failed = rules.filter((r) => r.status === "failed").map((r) => r.id);
  if (failed.length)
    notes.push(
      `failing rules: ${failed.join(", ")} (list one as rule:<id> in the expected-failures file to accept it)`,
    );
  for (const c of cases) {
    if (c.baseline === "stale") {
      notes.push(`stale expected failure: ${c.id} passed; remove it from ${b.file || "the expected-failures file"}`);
      code = 1;
    } else if (c.baseline === "accepted_skip") {
      notes.push(`accepted skip: ${c.id} (listed in ${b.file || "the expected-failures file"})`);
    } else if (c.status !== "passed" && c.status !== "expected_failure" && c.status !== "not_scored") {
      code = 1;
    }
  }
  const summary = summarise(cases, report.summary.duration_ms);
  const score = scoreRun(rules, cases, summary, report.profile ?? DEFAULT_PROFILE);
  return {
    report: { ...report, cases, ...(report.rules ? { rules, rule_counts: countRules(rules) } : {}), summary, score },
    verdict: { code, notes },
  };
}
