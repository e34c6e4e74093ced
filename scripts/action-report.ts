#!/usr/bin/env node
// The GitHub Action's last step (action.yml), after skill-conformance ran: reads the run's JSON report and writes the
// step's outputs (GITHUB_OUTPUT), one `::error` annotation per failing rule or case (stdout), and the job summary
// (GITHUB_STEP_SUMMARY), pass or fail, with or without a `markdown` input. The rendering is conformance/report/github.ts.
//   node dist/scripts/action-report.js --exit-code N --report <json> [--stderr <file>] [--json|--junit|--markdown|--badge <path>]
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { annotations, escapeData, outputs, summary } from "../conformance/report/github.ts";
import type { RunReport } from "../conformance/runner/types.ts";

const { values } = parseArgs({
  options: {
    "exit-code": { type: "string" },
    report: { type: "string" },
    stderr: { type: "string" },
    json: { type: "string" },
    junit: { type: "string" },
    markdown: { type: "string" },
    badge: { type: "string" },
  },
});
const exitCode = Number(values["exit-code"] ?? 1);
const read = (f: string | undefined) => (f && existsSync(f) ? readFileSync(f, "utf8") : "");
let report: RunReport | undefined;
try {
  const text = read(values.report);
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  // A suite run's report; --parity, --fuzz or --smoke (given in `args`) write reports of their own shape to --json.
  const isRun = (r: unknown): r is RunReport =>
    typeof r === "object" &&
    r !== null &&
    "implementation" in r &&
    "summary" in r &&
    Array.isArray((r as { cases?: unknown }).cases);
  report = isRun(parsed) ? parsed : undefined;
} catch {
  report = undefined; // a half-written report is no report
}
const stderrTail = read(values.stderr).trim().split("\n").slice(-20).join("\n");

for (const line of report ? annotations(report) : []) console.log(line);
if (!report && exitCode !== 0) {
  console.log(
    `::error title=skill-tool conformance: no report (exit ${exitCode})::${escapeData(stderrTail.split("\n").at(-1) || "see the step's log")}`,
  );
}
// An output names a file only when the file is there: after a usage error no report was written (issue 28 item 3).
const written = (f: string | undefined) => (f && existsSync(f) ? f : undefined);
const paths = {
  json: written(values.json),
  junit: written(values.junit),
  markdown: written(values.markdown),
  badge: written(values.badge),
};
const out = process.env["GITHUB_OUTPUT"];
if (out) appendFileSync(out, outputs(report, paths, exitCode).join("\n") + "\n");
const stepSummary = process.env["GITHUB_STEP_SUMMARY"];
if (stepSummary) appendFileSync(stepSummary, summary(report, exitCode, stderrTail));
