// Console renderer: one line per case (id, title, status, time), the expected-vs-actual lines and spec
// sections under a failure (with the params of the call that failed), the reason (and stderr tail) under
// an error, and the summary line.
import type { CaseResult, RunReport, Summary } from "../runner/types.ts";

const LABEL: Record<CaseResult["status"], string> = {
  passed: "PASS ",
  failed: "FAIL ",
  errored: "ERROR",
  skipped: "SKIP ",
  expected_failure: "XFAIL",
};

export function ms(n: number): string {
  return `${Math.round(n)} ms`;
}

export function show(value: unknown): string {
  if (value === undefined) return "(nothing)";
  const s = JSON.stringify(value);
  return s.length > 300 ? s.slice(0, 300) + "…" : s;
}

function indent(text: string, prefix: string): string {
  return text.replace(/\n$/, "").split("\n").map((l) => prefix + l).join("\n");
}

/** The line for one case, plus detail lines for anything that is not a pass. */
export function formatCase(r: CaseResult): string {
  const lines = [`${LABEL[r.status]} ${r.id.padEnd(6)} ${r.title}  (${ms(r.duration_ms)})`];
  const spec = r.spec.length ? `        spec: ${r.spec.join(", ")}` : "";
  if (r.status === "failed" || (r.status === "expected_failure" && r.mismatches?.length)) {
    let lastCall: string | undefined;
    for (const m of r.mismatches ?? []) {
      // The call once per run of mismatches of the same call: what was asked, beside what came back.
      const call = m.call === undefined ? undefined : show(m.call);
      if (call !== undefined && call !== lastCall) lines.push(`        call ${/^calls\[\d+\]/.exec(m.at)?.[0] ?? ""}: ${call}`);
      lastCall = call;
      lines.push(`        ${m.message.startsWith(m.at) ? m.message : `at ${m.at}: ${m.message}`}`);
      lines.push(`          expected: ${show(m.expected)}`);
      lines.push(`          actual:   ${show(m.actual)}`);
    }
    if (spec) lines.push(spec);
  }
  if (r.reason && r.status !== "passed") lines.push(`        reason: ${r.reason}${r.blame ? ` (blame: ${r.blame})` : ""}`);
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

/** `30/30 passed (0 failed, 0 errored, 0 skipped) in 412 ms`, with expected failures when there are any. */
export function formatSummary(s: Summary): string {
  const xfail = s.expected_failures ? `, ${s.expected_failures} expected failure${s.expected_failures === 1 ? "" : "s"}` : "";
  return `${s.passed}/${s.total} passed (${s.failed} failed, ${s.errored} errored, ${s.skipped} skipped${xfail}) in ${ms(s.duration_ms)}`;
}

export function formatHeader(report: Pick<RunReport, "implementation" | "suite" | "kit">): string {
  const i = report.implementation;
  return `skill-tool conformance ${report.kit.version} (spec ${report.kit.specVersion}), suite "${report.suite}"\n` +
    `implementation: ${i.name} ${i.version} (${i.language}) via ${i.driver}`;
}

export function renderConsole(report: RunReport): string {
  return [formatHeader(report), "", ...report.cases.map(formatCase), "", formatSummary(report.summary)].join("\n") + "\n";
}
