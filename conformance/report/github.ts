// GitHub Actions renderer: from a run's JSON report, the step's outputs (counts and report paths), one `::error`
// annotation per failing rule when the report has rules[] (the rule issue's reports), else per failing case, and
// the job summary. Pure: scripts/action-report.ts reads the files and writes GITHUB_OUTPUT / GITHUB_STEP_SUMMARY.
// Workflow commands: https://docs.github.com/actions/reference/workflow-commands-for-github-actions
import type { CaseResult, RunReport } from "../runner/types.ts";
import { located } from "./junit.ts";
import { renderMarkdown } from "./markdown.ts";
import { scoreOf } from "./rules.ts";

/** A workflow command's message: %, CR and LF are the characters the runner decodes. */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A workflow command's property value (title=…): also : and , which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

const errorCommand = (title: string, message: string) =>
  `::error title=${escapeProperty(title)}::${escapeData(message)}`;

/** Why a case fails the run, in a few lines: the first mismatch (expected / actual), or the reason; the spec. */
function caseMessage(c: CaseResult): string {
  const lines: string[] = [];
  if (c.baseline === "stale") lines.push(`${c.id} passed but is listed in the expected-failures file: remove it`);
  const m = c.mismatches?.[0];
  if (m) lines.push(located(m), `expected: ${JSON.stringify(m.expected)}`, `actual:   ${JSON.stringify(m.actual)}`);
  if ((c.mismatches?.length ?? 0) > 1) lines.push(`(+${c.mismatches!.length - 1} more mismatches in the report)`);
  if (c.reason) lines.push(`reason: ${c.reason}`);
  if (c.spec.length) lines.push(`spec: ${c.spec.join(", ")}`);
  return lines.join("\n");
}

/** Does this case fail the run (as conformance/baseline.ts decided)? */
export function failsRun(c: CaseResult): boolean {
  return (
    c.status === "failed" ||
    c.status === "errored" ||
    c.baseline === "stale" ||
    (c.status === "skipped" && c.baseline !== "accepted_skip")
  );
}

interface RuleEntry {
  id: string;
  status?: string;
  title?: string;
  statement?: string;
  cases?: unknown[];
}

/** rules[] of a report that has one (the rule issue's): each failing rule once, with the cases that fail it. */
function failingRules(report: RunReport): RuleEntry[] | undefined {
  const rules = (report as { rules?: unknown }).rules;
  if (!Array.isArray(rules)) return undefined;
  return (rules as RuleEntry[]).filter(
    (r) => typeof r?.id === "string" && /^(fail|failed|errored|error)$/.test(String(r.status)),
  );
}

/** One `::error` line per failing rule (when the report has rules[]) or per failing case. */
export function annotations(report: RunReport): string[] {
  const impl = `${report.implementation.name} ${report.implementation.version}`;
  const rules = failingRules(report);
  const out: string[] = [];
  if (rules) {
    for (const r of rules) {
      const cases = (r.cases ?? [])
        .map((c) => (typeof c === "string" ? c : String((c as { id?: unknown })?.id ?? "")))
        .filter(Boolean);
      const text = [r.title ?? r.statement, cases.length ? `cases: ${cases.join(", ")}` : ""]
        .filter(Boolean)
        .join("\n");
      out.push(errorCommand(`skill-tool conformance: ${impl} breaks rule ${r.id}`, text || `rule ${r.id} ${r.status}`));
    }
  }
  // Cases the rules do not account for (errors, stale baselines, unaccepted skips) are still named, each once.
  for (const c of report.cases.filter(failsRun)) {
    if (rules && c.status === "failed") continue;
    out.push(
      errorCommand(
        `skill-tool conformance: ${impl}: ${c.id} ${c.baseline === "stale" ? "stale expected failure" : c.status} (${c.title})`,
        caseMessage(c),
      ),
    );
  }
  return out;
}

export interface ReportPaths {
  json?: string | undefined;
  junit?: string | undefined;
  markdown?: string | undefined;
  badge?: string | undefined;
}

/** The step's outputs, as GITHUB_OUTPUT lines (name=value; no value here holds a newline). */
export function outputs(report: RunReport | undefined, paths: ReportPaths, exitCode: number): string[] {
  const s = report?.summary;
  const score = report ? scoreOf(report) : undefined;
  const lines = [
    `exit-code=${exitCode}`,
    `profile=${score?.profile ?? ""}`,
    `rules-passed=${score?.rules.passed ?? ""}`,
    `rules-failed=${score ? score.rules.failed + score.rules.errored : ""}`,
    `rules-not-checkable=${score?.rules.not_checkable ?? ""}`,
    `total=${s?.total ?? ""}`,
    // Cases the profile scores: a not-scored case is neither passed nor failed.
    `scored=${score?.cases.scored ?? ""}`,
    `not-scored=${s ? (s.not_scored ?? 0) : ""}`,
    `passed=${s?.passed ?? ""}`,
    `failed=${s?.failed ?? ""}`,
    `errored=${s?.errored ?? ""}`,
    `skipped=${s?.skipped ?? ""}`,
    `expected-failures=${s?.expected_failures ?? ""}`,
  ];
  for (const [k, v] of Object.entries(paths)) lines.push(`${k}=${(v ?? "").replace(/[\r\n]/g, "")}`);
  return lines;
}

/**
 * The spec's own rules the run shows failing, first thing in the job summary (issue 28 deliver 5): what a maintainer
 * opening a red job wants is which sentence of the spec the implementation breaks, then the details.
 */
export function failingSpecRules(report: RunReport): string[] {
  const failing = (report.rules ?? []).filter((r) => r.source === "spec" && r.status === "failed");
  if (!failing.length) return [];
  const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
  return [
    `## Failing spec rules (${failing.length})`,
    "",
    "| Rule | Level | The spec says | Cases |",
    "| --- | --- | --- | --- |",
    ...failing.map((r) => `| ${r.id} | ${r.level} | ${cell(r.statement)} | ${r.cases.join(", ")} |`),
    "",
  ];
}

/** The job summary: the failing spec rules, then the Markdown report; or, when the run ended before a report, why. */
export function summary(report: RunReport | undefined, exitCode: number, stderrTail: string): string {
  if (report) {
    const lead = failingSpecRules(report);
    const md = renderMarkdown(report);
    if (!lead.length) return md;
    // Under the report's title and one-line summary, before anything else.
    const lines = md.split("\n");
    return [...lines.slice(0, 4), ...lead, ...lines.slice(4)].join("\n");
  }
  const why = stderrTail.trim() || "(nothing on stderr)";
  return `# skill-tool conformance: no report\n\n\`skill-conformance\` exited ${exitCode} before running any case:\n\n\`\`\`\n${why}\n\`\`\`\n`;
}
