// JUnit XML renderer (testsuites/testsuite/testcase with failure/error/skipped), in the dialect GitHub
// Actions test reporters and GitLab's junit artifacts read. Everything is escaped for XML 1.0.
import type { CaseResult, Mismatch, RunReport } from "../runner/types.ts";
import { show } from "./console.ts";

/** Escape for attribute values and text, dropping the characters XML 1.0 cannot carry at all. */
export function xmlEscape(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** `at: message`, once: the runner's messages usually start with their own location already. */
export function located(m: Pick<Mismatch, "at" | "message">): string {
  return m.message.startsWith(m.at) ? m.message : `${m.at}: ${m.message}`;
}

function details(r: CaseResult): string {
  const lines: string[] = [];
  for (const m of r.mismatches ?? []) {
    lines.push(located(m));
    if (m.call !== undefined) lines.push(`  call:     ${show(m.call)}`);
    lines.push(`  expected: ${show(m.expected)}`, `  actual:   ${show(m.actual)}`);
  }
  if (r.reason) lines.push(`reason: ${r.reason}${r.blame ? ` (blame: ${r.blame})` : ""}`);
  if (r.spec.length) lines.push(`spec: ${r.spec.join(", ")}`);
  if (r.stack) lines.push("stack (top):", r.stack);
  if (r.stderr) lines.push("stderr (tail):", r.stderr);
  if (r.file) lines.push(`case: ${r.file}`);
  if (r.rerun) lines.push(`rerun: ${r.rerun}`);
  return lines.join("\n");
}

function testcase(r: CaseResult, suite: string): string {
  const open = `    <testcase classname="${xmlEscape(`conformance.${suite}`)}" name="${xmlEscape(`${r.id} ${r.title}`)}" time="${seconds(r.duration_ms)}"`;
  const first = r.mismatches?.[0];
  switch (r.status) {
    case "passed":
      return `${open}/>`;
    case "failed":
      return `${open}>\n      <failure message="${xmlEscape(first ? located(first) : r.reason ?? "failed")}" type="mismatch">${xmlEscape(details(r))}</failure>\n    </testcase>`;
    case "errored":
      return `${open}>\n      <error message="${xmlEscape(r.reason ?? "errored")}" type="${xmlEscape(`driver-${r.blame ?? "error"}`)}">${xmlEscape(details(r))}</error>\n    </testcase>`;
    case "skipped":
      return `${open}>\n      <skipped message="${xmlEscape(r.reason ?? "skipped")}"/>\n    </testcase>`;
    case "expected_failure":
      return `${open}>\n      <skipped message="${xmlEscape(`expected failure${r.reason ? `: ${r.reason}` : ""}`)}"/>\n    </testcase>`;
  }
}

export function renderJunit(report: RunReport): string {
  const s = report.summary;
  const name = xmlEscape(`skill-tool conformance: ${report.implementation.name} (${report.suite})`);
  const skipped = s.skipped + s.expected_failures;
  const attrs = `tests="${s.total}" failures="${s.failed}" errors="${s.errored}" skipped="${skipped}" time="${seconds(s.duration_ms)}"`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${name}" ${attrs}>`,
    `  <testsuite name="${name}" ${attrs} timestamp="${xmlEscape(report.started_at)}">`,
    `    <properties>`,
    `      <property name="kit.version" value="${xmlEscape(report.kit.version)}"/>`,
    `      <property name="spec.version" value="${xmlEscape(report.kit.specVersion)}"/>`,
    `      <property name="implementation" value="${xmlEscape(`${report.implementation.name} ${report.implementation.version} (${report.implementation.language})`)}"/>`,
    `      <property name="driver" value="${xmlEscape(report.implementation.driver)}"/>`,
    `    </properties>`,
    ...report.cases.map((r) => testcase(r, report.suite)),
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
