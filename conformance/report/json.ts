// JSON report: the RunReport as written to --json <file>; it validates against schemas/report.schema.json.
import type { RunReport } from "../runner/types.ts";

export function renderJson(report: RunReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}
