// Per-trial outcomes as CSV and JSONL: read back with an independent RFC 4180 parser (quotes, commas, line breaks in
// a reason line), the same rows in both, and a reason that a spreadsheet would run as a formula is defused in the CSV
// only. The report is built from synthetic trials.
import { describe, expect, it } from "vitest";
import { OUTCOME_COLUMNS, renderCsv, renderJsonl } from "../outcomes.ts";
import { buildReport } from "../report.ts";
import type { RunResult } from "../run.ts";

/** RFC 4180 by hand: quoted fields may hold "", commas and CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") (row.push(field), (field = ""));
    else if (ch === "\r" && text[i + 1] === "\n") (row.push(field), rows.push(row), (row = []), (field = ""), i++);
    else field += ch;
  }
  expect(field).toBe("");
  return rows;
}

const usage = {
  inputTokens: 1200,
  outputTokens: 80,
  steps: 3,
  retries: 1,
  latenciesMs: [100, 250, 40],
  callsWithoutUsage: 0,
};
const trials: RunResult[] = [
  {
    scenario: "SK1",
    model: "ollama:qwen3:8b",
    modelKind: "real",
    trial: 1,
    outcome: "pass",
    reason: 'activated "release-notes", answered',
    exercised: true,
    usage,
    durationMs: 900,
    served: { provider: "ollama", model: "qwen3:8b", digest: "500a1f067a9f", quantization: "Q4_K_M" },
    transcript: "/t/ollama_qwen3_8b/SK1-001.jsonl",
    versions: { kit: "0.1.0", checker: "aaa", fixture: "bbb" },
  },
  {
    scenario: "SK1",
    model: "ollama:qwen3:8b",
    modelKind: "real",
    trial: 2,
    outcome: "fail",
    reason: 'answer was:\r\n=HYPERLINK("http://x"), then more',
    exercised: false,
    usage,
  },
  {
    scenario: "SK1",
    model: "ollama:qwen3:8b",
    modelKind: "real",
    trial: 3,
    outcome: "error",
    reason: "transport error: connect ECONNREFUSED",
    errorKind: "transport",
  },
  {
    scenario: "SK2",
    model: "scripted:good",
    modelKind: "scripted",
    trial: 1,
    outcome: "inconclusive",
    reason: "-1 findings, @ mention",
    exercised: false,
    usage,
  },
];
const report = buildReport({
  results: trials,
  ks: [1],
  n: 3,
  implementation: "ref",
  temperature: 0.7,
  scenarios: [
    { id: "SK1", title: "golden" },
    { id: "SK2", title: "wrong-name" },
  ],
  versions: { kit: "0.1.0", scenarios: {} },
  models: [
    { id: "ollama:qwen3:8b", kind: "real" },
    { id: "scripted:good", kind: "scripted" },
  ],
});

describe("per-trial outcomes", () => {
  it("CSV: a header and one row per trial, read back field for field by an RFC 4180 parser", () => {
    const rows = parseCsv(renderCsv(report));
    expect(rows[0]).toEqual([...OUTCOME_COLUMNS]);
    expect(rows).toHaveLength(1 + trials.length);
    const at = (r: number, c: string) => rows[r]![OUTCOME_COLUMNS.indexOf(c as never)];
    expect(at(1, "reason")).toBe('activated "release-notes", answered');
    expect(at(1, "provider")).toBe("ollama");
    expect(at(1, "served_id")).toBe("500a1f067a9f");
    expect(at(2, "served_id")).toBe("");
    expect(at(1, "latency_ms")).toBe("390");
    expect(at(1, "exercised")).toBe("true");
    expect(at(1, "transcript")).toBe("/t/ollama_qwen3_8b/SK1-001.jsonl");
    expect(at(1, "checker")).toBe("aaa");
    // The line break stays inside the quoted field; the formula does not start the cell.
    expect(at(2, "reason")).toBe('answer was:\r\n=HYPERLINK("http://x"), then more');
    expect(at(3, "error_kind")).toBe("transport");
    expect(at(3, "exercised")).toBe("");
    expect(at(3, "input_tokens")).toBe("");
    // Cells a spreadsheet would evaluate (=, +, -, @ first) get an apostrophe in front.
    expect(at(4, "reason")).toBe("'-1 findings, @ mention");
    expect(at(4, "model_kind")).toBe("scripted");
  });

  it("JSONL: the same rows with typed values, nothing defused", () => {
    const lines = renderJsonl(report).trimEnd().split("\n");
    expect(lines).toHaveLength(trials.length);
    const rows = lines.map((l) => JSON.parse(l));
    for (const row of rows) expect(Object.keys(row)).toEqual([...OUTCOME_COLUMNS]);
    expect(rows[0]).toMatchObject({
      scenario: "SK1",
      model: "ollama:qwen3:8b",
      trial: 1,
      outcome: "pass",
      exercised: true,
      input_tokens: 1200,
      output_tokens: 80,
      steps: 3,
      retries: 1,
      latency_ms: 390,
      duration_ms: 900,
    });
    expect(rows[1].reason).toBe(trials[1]!.reason);
    expect(rows[2]).toMatchObject({
      outcome: "error",
      error_kind: "transport",
      exercised: null,
      input_tokens: null,
      transcript: null,
    });
    expect(rows[3].reason).toBe("-1 findings, @ mention");
  });
});
