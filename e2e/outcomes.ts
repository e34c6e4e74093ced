// Per-trial outcomes as data for a spreadsheet, pandas or jq: one row per trial (scenario, model, the weights that
// served it, trial index, the judge's outcome and reason line, what it cost, what it was measured with, where its
// transcript is), written as CSV (RFC 4180) or JSONL with the same columns. A reason line can quote model or skill
// text, so a CSV text cell that a spreadsheet would run as a formula (starts with = + - @ or a tab / carriage return)
// gets a leading apostrophe; the JSONL keeps every value as it is. Owns: OUTCOME_COLUMNS, outcomeRows, renderCsv,
// renderJsonl.
import type { Report } from "./report.ts";

export const OUTCOME_COLUMNS = [
  "scenario",
  "model",
  "model_kind",
  "provider",
  "served_id",
  "trial",
  "outcome",
  "error_kind",
  "exercised",
  "reason",
  "input_tokens",
  "output_tokens",
  "steps",
  "retries",
  "latency_ms",
  "duration_ms",
  "kit",
  "checker",
  "fixture",
  "transcript",
] as const;

export type OutcomeColumn = (typeof OUTCOME_COLUMNS)[number];
export type OutcomeRow = Record<OutcomeColumn, string | number | boolean | null>;

/** One row per trial, in the report's order (model, scenario, trial for a run). */
export function outcomeRows(r: Report): OutcomeRow[] {
  const providerOf = new Map(r.models.map((m) => [m.id, m.provider]));
  return r.trials.map((t) => ({
    scenario: t.scenario,
    model: t.model,
    model_kind: t.modelKind,
    provider: providerOf.get(t.model) ?? t.model.slice(0, Math.max(0, t.model.indexOf(":"))),
    // Which weights served the trial (Ollama digest, Bedrock ARN or id, an OpenAI-compatible server's root): a tag moves.
    served_id: t.served?.digest ?? t.served?.modelArn ?? t.served?.root ?? t.served?.modelId ?? null,
    trial: t.trial,
    outcome: t.outcome,
    error_kind: t.errorKind ?? null,
    exercised: t.outcome === "error" ? null : (t.exercised ?? null),
    reason: t.reason,
    input_tokens: t.usage?.inputTokens ?? null,
    output_tokens: t.usage?.outputTokens ?? null,
    steps: t.usage?.steps ?? null,
    retries: t.usage?.retries ?? null,
    // Wall time of every model call of the trial, retries included (the cells' p50/p95 are over the same calls).
    latency_ms: t.usage ? t.usage.latenciesMs.reduce((a, b) => a + b, 0) : null,
    duration_ms: t.durationMs ?? null,
    kit: t.versions?.kit ?? null,
    checker: t.versions?.checker ?? null,
    fixture: t.versions?.fixture ?? null,
    transcript: t.transcript ?? null,
  }));
}

/** A cell a spreadsheet would evaluate: =, +, -, @ first, or a tab / carriage return (OWASP's CSV injection list). */
const FORMULA = /^[=+\-@\t\r]/;

function csvField(v: string | number | boolean | null): string {
  if (v === null) return "";
  if (typeof v !== "string") return String(v);
  const safe = FORMULA.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180: a header line, CRLF line ends, fields with a comma, quote or line break quoted. */
export function renderCsv(r: Report): string {
  const lines = [OUTCOME_COLUMNS.join(",")];
  for (const row of outcomeRows(r)) lines.push(OUTCOME_COLUMNS.map((c) => csvField(row[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}

/** One JSON object per line, the same columns, absent values as null. */
export function renderJsonl(r: Report): string {
  return (
    outcomeRows(r)
      .map((row) => JSON.stringify(row))
      .join("\n") + (r.trials.length ? "\n" : "")
  );
}
