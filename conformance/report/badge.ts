// Badge renderer: a shields.io endpoint JSON (https://shields.io/badges/endpoint-badge) for the run.
// Green when every case passed, yellow when the only non-passes are expected failures, red otherwise.
import type { RunReport } from "../runner/types.ts";

export interface ShieldsEndpoint {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
}

export function badge(report: RunReport, label = "skill-tool conformance"): ShieldsEndpoint {
  const s = report.summary;
  const clean = s.failed === 0 && s.errored === 0;
  const color = !clean ? "red" : s.expected_failures > 0 || s.skipped > 0 ? "yellow" : "brightgreen";
  const extra = s.expected_failures ? ` (${s.expected_failures} xfail)` : "";
  return { schemaVersion: 1, label, message: `${s.passed}/${s.total} passed${extra}`, color };
}

export function renderBadge(report: RunReport, label?: string): string {
  return JSON.stringify(badge(report, label)) + "\n";
}
