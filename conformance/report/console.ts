// Console renderer: the failing rules first (each once, with the cases that show it and one example), then one
// line per case (id, title, status, time) with the expected-vs-actual lines and the rules under a failure (with
// the params of the call that failed), the reason (and stderr tail) under an error, the counts by rule source
// and the summary line.
import type { CaseResult, RunReport, RunScore, Summary } from "../runner/types.ts";
import {
  effectNote,
  failingRules,
  formatExample,
  formatHeadline,
  formatNothingScored,
  formatRuleCounts,
  ruleLabel,
  scoreOf,
  show,
  unscoredFailing,
} from "./rules.ts";

export { show } from "./rules.ts";

const LABEL: Record<CaseResult["status"], string> = {
  passed: "PASS ",
  failed: "FAIL ",
  errored: "ERROR",
  skipped: "SKIP ",
  expected_failure: "XFAIL",
  not_scored: "N/S  ",
};

export function ms(n: number): string {
  return `${Math.round(n)} ms`;
}

function indent(text: string, prefix: string): string {
  return text
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");
}

/** The line for one case, plus detail lines for anything that is not a pass. */
export function formatCase(r: CaseResult): string {
  const others = (r.mismatches ?? []).filter((m) => m.effect !== "fails_case");
  const findings =
    others.length && r.status !== "failed" && r.status !== "errored"
      ? `; ${others.length} finding${others.length === 1 ? "" : "s"} under other rules: ${[...new Set(others.flatMap((m) => m.rules))].join(", ")}`
      : "";
  const lines = [`${LABEL[r.status]} ${r.id.padEnd(6)} ${r.title}  (${ms(r.duration_ms)}${findings})`];
  const spec = r.rules?.length
    ? `        rules: ${r.rules.join(", ")}`
    : r.spec.length
      ? `        spec: ${r.spec.join(", ")}`
      : "";
  if (r.status === "failed" || (r.status === "expected_failure" && r.mismatches?.length)) {
    let lastCall: string | undefined;
    // The checks that fail the case; findings under other rules are listed once, with their rule, in the rules section.
    for (const m of (r.mismatches ?? []).filter((x) => x.effect === "fails_case" || r.status === "expected_failure")) {
      // The call once per run of mismatches of the same call: what was asked, beside what came back.
      const call = m.call === undefined ? undefined : show(m.call);
      if (call !== undefined && call !== lastCall)
        lines.push(`        call ${/^calls\[\d+\]/.exec(m.at)?.[0] ?? ""}: ${call}`);
      lastCall = call;
      lines.push(
        `        ${m.at}: ${m.what ?? m.message} [${m.rules ? effectNote(m) : "no rule named"}]${m.after ? ` (after ${m.after} went wrong: may follow from it)` : ""}`,
      );
      lines.push(`          expected: ${show(m.expected)}`);
      lines.push(`          actual:   ${show(m.actual)}`);
    }
    if (spec) lines.push(spec);
  }
  if (r.reason && r.status !== "passed")
    lines.push(`        reason: ${r.reason}${r.blame ? ` (blame: ${r.blame})` : ""}`);
  if (r.status === "errored") {
    if (spec) lines.push(spec);
    if (r.stack) lines.push("        stack (top):", indent(r.stack, "          | "));
    if (r.stderr?.trim()) lines.push("        stderr (tail):", indent(r.stderr, "          | "));
  }
  // Where to read the case and how to rerun it alone.
  if (r.status === "failed" || r.status === "errored") {
    if (r.file) lines.push(`        case: ${r.file}`);
    if (r.rerun) lines.push(`        rerun: ${r.rerun}`);
  }
  return lines.join("\n");
}

/**
 * The cases line: `30/30 passed (0 failed, 0 errored, 0 skipped) in 412 ms`, counted over the cases the profile
 * scores (a not-scored case is neither passed nor failed: `46/46 passed (…, 28 not scored)`); a run the profile
 * scores no case of says so and names the profile that does.
 */
export function formatSummary(s: Summary, score?: RunScore): string {
  const xfail = s.expected_failures
    ? `, ${s.expected_failures} expected failure${s.expected_failures === 1 ? "" : "s"}`
    : "";
  const notScored = s.not_scored ?? 0;
  const ns = notScored ? `, ${notScored} not scored` : "";
  if (s.total > 0 && notScored === s.total && score)
    return `no case scored: ${formatNothingScored(score)} (0 failed, ${s.errored} errored, ${s.skipped} skipped) in ${ms(s.duration_ms)}`;
  return `${s.passed}/${s.total - notScored} passed (${s.failed} failed, ${s.errored} errored, ${s.skipped} skipped${xfail}${ns}) in ${ms(s.duration_ms)}`;
}

/** The run's last two lines: the score (the rules the profile scores), then the cases as the detail. */
export function formatScore(
  report: Pick<RunReport, "rules" | "cases" | "summary" | "profile"> & { score?: RunScore },
): string {
  const score = scoreOf(report);
  return `score: ${formatHeadline(score)}\ncases: ${formatSummary(report.summary, score)}`;
}

/**
 * The rules section: every failing rule once (the cases that show it, one example), then the rules outside the
 * profile that did not hold (not scored, still shown), then the counts by source. Empty lines only when all held.
 */
export function formatRules(report: Pick<RunReport, "rules" | "rule_counts" | "profile">): string {
  const lines: string[] = [];
  const bad = failingRules(report);
  if (bad.length) {
    lines.push(`failing rules (${bad.length}):`);
    for (const r of bad) {
      lines.push(
        `  ${r.status === "failed" ? "FAIL " : r.status === "errored" ? "ERROR" : "XFAIL"} ${ruleLabel(r)}: ${r.statement}`,
      );
      if (r.cases.length) lines.push(`        cases: ${r.cases.join(", ")}`);
      if (r.note) lines.push(`        note:  ${r.note}`);
      if (r.example) lines.push(`        e.g.   ${formatExample(r.example)}`);
    }
  }
  const unscored = unscoredFailing(report);
  if (unscored.length) {
    lines.push(
      `not scored under profile ${report.profile}, did not hold (${unscored.length}): ${unscored.map((r) => `${r.id} (${r.source}; ${r.cases.join(", ")})`).join("; ")}`,
    );
  }
  lines.push(formatRuleCounts(report));
  return lines.join("\n");
}

export function formatHeader(report: Pick<RunReport, "implementation" | "suite" | "kit" | "profile">): string {
  const i = report.implementation;
  return (
    `skill-tool conformance ${report.kit.version} (spec ${report.kit.specVersion}), suite "${report.suite}", profile ${report.profile}\n` +
    `implementation: ${i.name} ${i.version} (${i.language}) via ${i.driver}`
  );
}

export function renderConsole(report: RunReport): string {
  return (
    [formatHeader(report), "", formatRules(report), "", ...report.cases.map(formatCase), "", formatScore(report)].join(
      "\n",
    ) + "\n"
  );
}
