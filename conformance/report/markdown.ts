// Markdown renderer: a summary, the failing rules (each once, with the cases that show it and one example), the
// counts by rule source, a table of every case, and a details section per failure or error, for a CI job summary
// ($GITHUB_STEP_SUMMARY) or a PR comment.
import type { CaseResult, RunReport } from "../runner/types.ts";
import { formatSummary, ms, show } from "./console.ts";
import {
  effectNote,
  failingRules,
  formatExample,
  formatHeadline,
  formatRuleCounts,
  scoreOf,
  unscoredFailing,
} from "./rules.ts";

const ICON: Record<CaseResult["status"], string> = {
  passed: "✅ passed",
  failed: "❌ failed",
  errored: "💥 errored",
  skipped: "⏭️ skipped",
  expected_failure: "⚠️ expected failure",
  not_scored: "➖ not scored",
};

/** Escape text for a table cell (outside code spans: HTML would be rendered, so < is escaped). */
function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ").replace(/</g, "&lt;");
}

/** The failing rules, each once, then those outside the profile that did not hold, then the counts by source. */
function ruleSection(report: RunReport): string[] {
  const out: string[] = [];
  const bad = failingRules(report);
  if (bad.length) {
    out.push(
      "",
      `## Failing rules (${bad.length})`,
      "",
      "| Rule | Source | Level | Status | Cases | Example | Statement |",
      "| --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const r of bad) {
      // The statement last: escaped prose after the last code span of the row.
      out.push(
        `| ${code(r.id)} | ${r.source} | ${r.level} | ${r.status === "failed" ? "❌ failed" : r.status === "errored" ? "💥 errored (not verified)" : "⚠️ expected failure"} | ${cell(r.cases.join(", ") || r.note || "—")} | ${r.example ? code(formatExample(r.example)) : "—"} | ${cell(r.statement)} (${cell(r.cites.join(", "))}) |`,
      );
    }
  }
  const unscored = unscoredFailing(report);
  if (unscored.length) {
    out.push(
      "",
      `Not scored under profile ${code(report.profile ?? "spec")}, did not hold: ${unscored.map((r) => `${code(r.id)} (${r.source}; ${cell(r.cases.join(", "))})`).join(", ")}.`,
    );
  }
  out.push("", cell(formatRuleCounts(report)));
  return out;
}

/**
 * Text as an inline code span, inside a table cell or not. A code span shows its text literally (an entity such as
 * &lt; would show as itself, hence no HTML escaping); only the table's | is escaped (GFM splits cells first), and a
 * text holding backticks gets a longer fence.
 */
export function code(text: string): string {
  const body = text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const f = "`".repeat(longest + 1);
  const pad = longest > 0 || body.startsWith(" ") || body.endsWith(" ") ? " " : "";
  return `${f}${pad}${body}${pad}${f}`;
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = "`".repeat(longest + 1);
  return `${f}\n${text.replace(/\n$/, "")}\n${f}`;
}

export function renderMarkdown(report: RunReport): string {
  const i = report.implementation;
  const out: string[] = [
    `# skill-tool conformance: ${i.name} ${i.version}`,
    "",
    `**Score: ${cell(formatHeadline(scoreOf(report)))}**`,
    "",
    `Cases: ${cell(formatSummary(report.summary, scoreOf(report)))}`,
    "",
    `Implementation: ${i.name} ${i.version} (${i.language}), driver ${code(i.driver)}. Kit ${report.kit.version}, spec ${report.kit.specVersion}, suite ${code(report.suite)}, profile ${code(report.profile ?? "—")}, started ${report.started_at}.`,
    ...ruleSection(report),
    "",
    ...(report.aborted
      ? [
          `**The run ended at ${cell(report.aborted.at)}**: ${cell(report.aborted.reason)} (after ${ms(report.aborted.after_ms)}); ${report.aborted.not_run} case(s) not run.`,
          "",
        ]
      : []),
    "## Cases",
    "",
    "| Case | Title | Rules | Status | Time |",
    "| --- | --- | --- | --- | ---: |",
    ...report.cases.map(
      (r) =>
        `| ${cell(r.id)} | ${cell(r.title)} | ${cell((r.rules?.length ? r.rules : r.spec).join(", "))} | ${ICON[r.status]} | ${ms(r.duration_ms)} |`,
    ),
  ];
  const bad = report.cases.filter(
    (r) =>
      r.status === "failed" ||
      r.status === "errored" ||
      (r.status === "expected_failure" && (r.mismatches?.length || r.reason)),
  );
  if (bad.length) {
    out.push("", "## Details");
    for (const r of bad) {
      out.push(
        "",
        `### ${cell(r.id)}: ${cell(r.title)} (${r.status.replace("_", " ")})`,
        "",
        `Rules: ${(r.rules ?? []).join(", ") || "—"}. Spec: ${r.spec.join(", ") || "—"}`,
      );
      if (r.mismatches?.length) {
        out.push("", "| At | Call | Expected | Actual | What | Rules |", "| --- | --- | --- | --- | --- | --- |");
        for (const m of r.mismatches) {
          const call = m.call === undefined ? "—" : code(show(m.call));
          out.push(
            `| ${code(m.at)} | ${call} | ${code(show(m.expected))} | ${code(show(m.actual))} | ${cell(m.what ?? m.message)} | ${cell(m.rules ? effectNote(m) : "—")} |`,
          );
        }
      }
      if (r.reason) out.push("", `Reason: ${cell(r.reason)}${r.blame ? ` (blame: ${r.blame})` : ""}`);
      if (r.stack) out.push("", "stack (top):", "", fence(r.stack));
      if (r.stderr?.trim()) out.push("", "stderr (tail):", "", fence(r.stderr));
      if (r.rerun) out.push("", `Rerun it alone (case file ${r.file ? code(r.file) : "—"}):`, "", fence(r.rerun));
    }
  }
  return out.join("\n") + "\n";
}
