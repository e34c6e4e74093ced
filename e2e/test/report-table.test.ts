// The terminal report fits 120 columns for the spec's five models with -k 1,5 (the one-cell-per-model matrix it
// replaces was 352 wide), and each row holds its own cell's numbers (read back from the printed text, not from the
// code that printed them). The report is built from synthetic trials: no model, no run.
import { describe, expect, it } from "vitest";
import { PRESETS } from "../providers/index.ts";
import { buildReport, renderText, type Report } from "../report.ts";
import { shorten, verdictTable, wrapLine } from "../report-table.ts";
import type { RunResult } from "../run.ts";
import { SCENARIOS } from "../scenarios/index.ts";

/** n trials per cell with a spread of outcomes per model, plus usage with big token counts and slow calls. */
function synthetic(models: string[], n: number, ks: number[]): Report {
  const results: RunResult[] = [];
  models.forEach((model, mi) => {
    SCENARIOS.forEach((s, si) => {
      for (let trial = 1; trial <= n; trial++) {
        const pick = (trial * 7 + mi * 3 + si) % 10;
        const outcome = pick < 5 + mi ? "pass" : pick === 9 ? "error" : pick === 8 ? "inconclusive" : "fail";
        results.push({
          scenario: s.id,
          model,
          modelKind: "real",
          trial,
          outcome,
          reason: outcome === "error" ? "transport error: connect ECONNREFUSED" : `${outcome}: the model did something`,
          ...(outcome === "error" ? { errorKind: "transport" as const } : { exercised: pick % 2 === 0 }),
          usage: {
            inputTokens: 12_345 * (mi + 1),
            outputTokens: 987,
            steps: 6,
            retries: mi,
            latenciesMs: [120, 12_300 * (mi + 1)],
            callsWithoutUsage: 0,
          },
        });
      }
    });
  });
  return buildReport({
    results,
    ks,
    n,
    implementation: "skill-tool-reference 0.1.0 (typescript)",
    temperature: 0.7,
    seed: 1,
    scenarios: SCENARIOS.map((s) => ({ id: s.id, title: s.title })),
    versions: {
      kit: "0.1.0",
      scenarios: Object.fromEntries(SCENARIOS.map((s) => [s.id, { checker: "0123456789ab", fixture: "ba9876543210" }])),
    },
    models: models.map((id) => ({ id, kind: "real" as const })),
    transcripts: "/tmp/skill-e2e-2026-12-04T23-00-00-000Z",
  });
}

const columns = (line: string) => [...line].length;

describe("the terminal report", () => {
  const matrix = PRESETS["matrix"]!;

  it("fits 120 columns for the spec's five models with -k 1,5 (every line, tables and prose)", () => {
    expect(matrix).toHaveLength(5);
    const text = renderText(synthetic(matrix, 10, [1, 5]));
    const wide = text.split("\n").filter((l) => columns(l) > 120);
    expect(wide, wide.join("\n")).toEqual([]);
    // Every model and scenario is in it: nothing was dropped to make it fit.
    for (const m of matrix) expect(text).toContain(m);
    for (const s of SCENARIOS) expect(text).toContain(`${s.id} ${s.title}`);
  });

  it("each row holds its own cell's numbers: passed/n, pass@1, interval, pass@5, pass^5, exercised, inc, err", () => {
    const r = synthetic(matrix, 10, [1, 5]);
    const lines = verdictTable(r);
    let scenario = "";
    let checked = 0;
    for (const line of lines.slice(2)) {
      if (!line.startsWith("  ")) {
        scenario = line.split(" ")[0]!;
        continue;
      }
      const [model, frac, p1, ci, p5, h5, ex, inc, err] = line.trim().split(/\s{2,}/);
      const c = r.cells.find((x) => x.scenario === scenario && x.model === model)!;
      expect(c, `${scenario} × ${model}`).toBeDefined();
      expect(frac).toBe(`${c.passed}/${c.n}`);
      expect(Math.abs(Number(p1) - c.passed / c.n)).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(ci).toBe(`${c.pass1Interval95!.low.toFixed(2)}–${c.pass1Interval95!.high.toFixed(2)}`);
      expect(p5).toBe(c.passAtK[5]!.toFixed(2));
      expect(h5).toBe(c.passHatK[5]!.toFixed(2));
      expect(ex).toBe(`${c.exercised}/${c.trials - c.errors}`);
      expect(inc).toBe(c.inconclusive ? String(c.inconclusive) : "·");
      expect(err).toBe(c.errors ? String(c.errors) : "·");
      checked++;
    }
    expect(checked).toBe(matrix.length * SCENARIOS.length);
  });

  it("a model id longer than its column (a Bedrock ARN) is shortened in the middle and named in full above, also with -k 1,2,5", () => {
    const arn = "bedrock:arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abcdefghijkl";
    const text = renderText(synthetic([...matrix.slice(0, 4), arn], 10, [1, 2, 5]));
    expect(text.split("\n").filter((l) => columns(l) > 120)).toEqual([]);
    expect(text.replace(/\n\s+/g, " ")).toContain(`models: ${matrix.slice(0, 4).join(", ")}, ${arn}`);
    expect(text).toMatch(/^ {2}bedrock:arn:aws:b\S*…\S*abcdefghijkl +\d+\/\d+ /m);
    expect(shorten(arn, 40)).toBe("bedrock:arn:aws:bedr…rofile/abcdefghijkl");
    expect(columns(shorten(arn, 40))).toBe(40);
    expect(shorten("ollama:qwen3:8b", 40)).toBe("ollama:qwen3:8b");
  });

  it("wraps prose at 120 columns keeping the indent; a word longer than a line stays whole", () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
    const lines = wrapLine(`  ${words}`, 40, "      ");
    expect(lines.every((l) => columns(l) <= 40)).toBe(true);
    expect(lines[0]!.startsWith("  w0 ")).toBe(true);
    expect(lines.slice(1).every((l) => l.startsWith("      w"))).toBe(true);
    expect(lines.join(" ").split(/\s+/).filter(Boolean).join(" ")).toBe(words);
    expect(wrapLine("x".repeat(50), 40)).toEqual(["x".repeat(50)]);
  });
});
