// JUnit XML renderer (testsuites/testsuite/testcase with failure/error/skipped), in the dialect GitHub
// Actions test reporters and GitLab's junit artifacts read. The first testsuite is the rules (one testcase per
// rule: failed, expected failure, not scored, n/a and unchecked as skipped), so a reader meets each failing rule
// once, with its cases and an example; the second is the cases. Everything is escaped for XML 1.0.
import type { CaseResult, Mismatch, RuleResult, RunReport } from "../runner/types.ts";
import { show } from "./console.ts";
import { formatExample } from "./rules.ts";

/** Escape for attribute values and text, dropping the characters XML 1.0 cannot carry at all. */
export function xmlEscape(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
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
  if (r.rules?.length) lines.push(`rules: ${r.rules.join(", ")}`);
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
      return `${open}>\n      <failure message="${xmlEscape(first ? located(first) : (r.reason ?? "failed"))}" type="mismatch">${xmlEscape(details(r))}</failure>\n    </testcase>`;
    case "errored":
      return `${open}>\n      <error message="${xmlEscape(r.reason ?? "errored")}" type="${xmlEscape(`driver-${r.blame ?? "error"}`)}">${xmlEscape(details(r))}</error>\n    </testcase>`;
    case "skipped":
      return `${open}>\n      <skipped message="${xmlEscape(r.reason ?? "skipped")}"/>\n    </testcase>`;
    case "expected_failure":
      return `${open}>\n      <skipped message="${xmlEscape(`expected failure${r.reason ? `: ${r.reason}` : ""}`)}"/>\n    </testcase>`;
    case "not_scored":
      return `${open}>\n      <skipped message="${xmlEscape(`not scored${r.reason ? `: ${r.reason}` : ""}`)}"/>\n    </testcase>`;
  }
}

function ruleTestcase(r: RuleResult): string {
  const open = `    <testcase classname="${xmlEscape(`conformance.rules.${r.source}`)}" name="${xmlEscape(`${r.id} (${r.level})`)}" time="0.000"`;
  const body = [
    r.statement,
    `cites: ${r.cites.join(", ")}`,
    `cases: ${r.cases.join(", ") || "—"}`,
    ...(r.example ? [`e.g. ${formatExample(r.example)}`] : []),
  ].join("\n");
  if (r.status === "passed") return `${open}/>`;
  if (r.status === "failed")
    return `${open}>\n      <failure message="${xmlEscape(`${r.id}: ${r.cases.join(", ")}`)}" type="rule">${xmlEscape(body)}</failure>\n    </testcase>`;
  if (r.status === "errored")
    return `${open}>\n      <error message="${xmlEscape(`${r.id}: ${r.note ?? "not verified"}`)}" type="rule-not-verified">${xmlEscape(body)}</error>\n    </testcase>`;
  const why =
    r.status === "expected_failure"
      ? "expected failure"
      : r.status === "not_scored"
        ? `not scored${r.note ? `: ${r.note}` : ""}`
        : `${r.status}${r.note ? `: ${r.note}` : ""}`;
  return `${open}>\n      <skipped message="${xmlEscape(why)}"/>\n    </testcase>`;
}

/** A testsuite's counts: testcase elements, and how many of them hold a failure, an error, a skipped. */
interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

const attrsOf = (c: Counts, ms: number) =>
  `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(ms)}"`;

function ruleCounts(report: RunReport): Counts {
  const rules = report.rules ?? [];
  const n = (f: (r: RuleResult) => boolean) => rules.filter(f).length;
  return {
    tests: rules.length,
    failures: n((r) => r.status === "failed"),
    errors: n((r) => r.status === "errored"),
    skipped: n((r) => r.status !== "failed" && r.status !== "errored" && r.status !== "passed"),
  };
}

/** The cases' counts, as their testcase elements render: skipped, expected failures and not scored are all <skipped>. */
function caseCounts(report: RunReport): Counts {
  const s = report.summary;
  return {
    tests: report.cases.length,
    failures: s.failed,
    errors: s.errored,
    skipped: s.skipped + (s.expected_failures ?? 0) + (s.not_scored ?? 0),
  };
}

function rulesSuite(report: RunReport, c: Counts): string[] {
  if (!report.rules) return [];
  const name = xmlEscape(
    `skill-tool conformance rules: ${report.implementation.name} (${report.suite}, profile ${report.profile})`,
  );
  return [
    `  <testsuite name="${name}" ${attrsOf(c, 0)} timestamp="${xmlEscape(report.started_at)}">`,
    ...report.rules.map(ruleTestcase),
    `  </testsuite>`,
  ];
}

/**
 * The root counts are the sum of its two testsuites', so a reader that trusts the root sees what the elements hold:
 * tests = every testcase element (rules and cases), skipped = every <skipped> element (a not-scored case included).
 */
export function renderJunit(report: RunReport): string {
  const s = report.summary;
  const name = xmlEscape(`skill-tool conformance: ${report.implementation.name} (${report.suite})`);
  const rc = report.rules ? ruleCounts(report) : { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const cc = caseCounts(report);
  const root: Counts = {
    tests: rc.tests + cc.tests,
    failures: rc.failures + cc.failures,
    errors: rc.errors + cc.errors,
    skipped: rc.skipped + cc.skipped,
  };
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${name}" ${attrsOf(root, s.duration_ms)}>`,
    ...rulesSuite(report, rc),
    `  <testsuite name="${name}" ${attrsOf(cc, s.duration_ms)} timestamp="${xmlEscape(report.started_at)}">`,
    `    <properties>`,
    `      <property name="kit.version" value="${xmlEscape(report.kit.version)}"/>`,
    `      <property name="spec.version" value="${xmlEscape(report.kit.specVersion)}"/>`,
    `      <property name="implementation" value="${xmlEscape(`${report.implementation.name} ${report.implementation.version} (${report.implementation.language})`)}"/>`,
    `      <property name="driver" value="${xmlEscape(report.implementation.driver)}"/>`,
    `      <property name="profile" value="${xmlEscape(report.profile)}"/>`,
    `    </properties>`,
    ...report.cases.map((r) => testcase(r, report.suite)),
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
