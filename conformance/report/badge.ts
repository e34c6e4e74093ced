// Badge renderer: a shields.io endpoint JSON (https://shields.io/badges/endpoint-badge) for the run.
// Green when every scored rule and case passed, yellow when the only non-passes are expected failures or skips,
// red otherwise. The message leads with the score (rules), then the scored cases.
import type { RunReport } from "../runner/types.ts";
import { scoreOf } from "./rules.ts";

export interface ShieldsEndpoint {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
}

export function badge(report: RunReport, label = "skill-tool conformance"): ShieldsEndpoint {
  const s = report.summary;
  const score = scoreOf(report);
  const r = score.rules;
  const clean = s.failed === 0 && s.errored === 0 && r.failed === 0 && r.errored === 0;
  const color = !clean
    ? "red"
    : s.expected_failures > 0 || s.skipped > 0 || r.expected_failure > 0
      ? "yellow"
      : "brightgreen";
  const extra = s.expected_failures ? ` (${s.expected_failures} xfail)` : "";
  // The score: the rules the profile scores that held, of those judged (not checkable and not run left out); the
  // cases counted over those the profile scores (a not-scored case is neither passed nor failed).
  const judged = r.passed + r.failed + r.errored + r.expected_failure;
  const sources = score.sources.length === 1 ? `${score.sources[0]} rules` : `rules (${score.profile})`;
  const cases =
    score.cases.scored === 0 && score.cases.not_scored > 0
      ? "no case scored"
      : `${s.passed}/${score.cases.scored} cases${extra}`;
  return { schemaVersion: 1, label, message: `${r.passed}/${judged} ${sources}, ${cases}`, color };
}

export function renderBadge(report: RunReport, label?: string): string {
  return JSON.stringify(badge(report, label)) + "\n";
}
