// Reports: the scenario × model matrix (terminal text and Markdown), the JSON report, and the CI gate. Scripted
// cells are always labelled harness self-tests, never model results. Owns: Report, buildReport, renderText,
// renderMarkdown, gate.
import type { Cell, TrialResult } from "./score.ts";
import { summarise } from "./score.ts";

export interface Report {
  kind: "skill-tool-e2e";
  createdAt: string;
  implementation: string;
  n: number;
  ks: number[];
  temperature: number;
  seed?: number;
  scenarios: { id: string; title: string }[];
  models: { id: string; kind: "real" | "scripted"; note: string }[];
  cells: Cell[];
  trials: TrialResult[];
  transcripts?: string;
}

const SELF_TEST = "harness self-test (scripted policy), not a model result";

export function buildReport(a: {
  results: TrialResult[];
  ks: number[];
  n: number;
  implementation: string;
  temperature: number;
  seed?: number;
  scenarios: { id: string; title: string }[];
  models?: { id: string; kind: "real" | "scripted" }[];
  transcripts?: string;
}): Report {
  const models = a.models ?? uniq(a.results.map((r) => ({ id: r.model, kind: r.modelKind })), (m) => m.id);
  return {
    kind: "skill-tool-e2e",
    createdAt: new Date().toISOString(),
    implementation: a.implementation,
    n: a.n,
    ks: a.ks,
    temperature: a.temperature,
    ...(a.seed !== undefined ? { seed: a.seed } : {}),
    scenarios: a.scenarios.filter((s) => a.results.some((r) => r.scenario === s.id)),
    models: models.map((m) => ({ ...m, note: m.kind === "scripted" ? SELF_TEST : "model result" })),
    cells: summarise(a.results, a.ks),
    trials: a.results,
    ...(a.transcripts ? { transcripts: a.transcripts } : {}),
  };
}

function uniq<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? "n/a" : v.toFixed(2));

function cellText(c: Cell | undefined, ks: number[]): string {
  if (!c) return "—";
  const parts = [`${c.passed}/${c.n}`];
  for (const k of ks) parts.push(`@${k} ${fmt(c.passAtK[k])}`, `^${k} ${fmt(c.passHatK[k])}`);
  parts.push(`exercised ${c.exercised}/${c.trials - c.errors}`);
  if (c.inconclusive) parts.push(`inc ${c.inconclusive}`);
  if (c.errors) parts.push(`err ${c.errors}`);
  return parts.join(" ");
}

function modelHeader(m: { id: string; kind: string }): string {
  return m.kind === "scripted" ? `${m.id} [self-test]` : m.id;
}

export function renderText(r: Report): string {
  const lines: string[] = [];
  lines.push(`Skill tool e2e: implementation ${r.implementation}; n=${r.n} per cell; k=${r.ks.join(",")}; temperature ${r.temperature}${r.seed !== undefined ? `; seed ${r.seed}` : ""}`);
  const scripted = r.models.filter((m) => m.kind === "scripted");
  if (scripted.length) lines.push(`NOTE: ${scripted.map((m) => m.id).join(", ")}: ${SELF_TEST}.`);
  lines.push(`cells: passed/n over conclusive trials, @k = pass@k, ^k = pass^k (n/a when n < k), exercised x/y = trials where the tested situation arose, inc = inconclusive, err = errors (both left out of n)`);
  lines.push("");
  const rows = r.scenarios.map((s) => [`${s.id} ${s.title}`, ...r.models.map((m) => cellText(r.cells.find((c) => c.scenario === s.id && c.model === m.id), r.ks))]);
  const header = ["scenario", ...r.models.map(modelHeader)];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cols: string[]) => cols.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  lines.push(line(header));
  lines.push(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) lines.push(line(row));
  const notes = r.cells.flatMap((c) =>
    c.reasons.filter((x) => x.outcome !== "pass").map((x) => `  ${c.scenario} × ${c.model}: ${x.count}× ${x.outcome === "error" ? "ERROR" : x.outcome}: ${x.reason}`),
  );
  if (notes.length) {
    lines.push("", "failures and errors:", ...notes);
  }
  if (r.transcripts) lines.push("", `transcripts: ${r.transcripts} (re-score with --rescore ${r.transcripts})`);
  return lines.join("\n");
}

export function renderMarkdown(r: Report): string {
  const out: string[] = [];
  out.push(`# Skill tool e2e (SK1–SK8)`, "");
  out.push(`Implementation **${r.implementation}**, n = ${r.n} trials per cell, k = ${r.ks.join(", ")}, temperature ${r.temperature}${r.seed !== undefined ? `, seed ${r.seed}` : ""}.`);
  out.push(`Each cell: passed/n · pass@k · pass^k over conclusive trials (pass or fail); "exercised x/y": in x of the y non-error trials the tested situation arose; inconclusive trials (situation never arose, correct answer) and errored trials (transport, malformed model response, harness, implementation) are counted apart and left out of n; n/a when n < k.`, "");
  for (const m of r.models.filter((x) => x.kind === "scripted")) out.push(`> **${m.id}** is a ${SELF_TEST}.`, "");
  out.push(`| scenario | ${r.models.map((m) => (m.kind === "scripted" ? `${m.id} (self-test)` : m.id)).join(" | ")} |`);
  out.push(`|---|${r.models.map(() => "---").join("|")}|`);
  for (const s of r.scenarios) {
    const cells = r.models.map((m) => {
      const c = r.cells.find((x) => x.scenario === s.id && x.model === m.id);
      if (!c) return "—";
      const ks = r.ks.map((k) => `pass@${k} ${fmt(c.passAtK[k])} · pass^${k} ${fmt(c.passHatK[k])}`).join(" · ");
      return `${c.passed}/${c.n} · ${ks} · exercised ${c.exercised}/${c.trials - c.errors}${c.inconclusive ? ` · ${c.inconclusive} inconclusive` : ""}${c.errors ? ` · **${c.errors} errors**` : ""}`;
    });
    out.push(`| ${s.id} ${s.title} | ${cells.join(" | ")} |`);
  }
  const notes = r.cells.flatMap((c) =>
    c.reasons.filter((x) => x.outcome !== "pass").map((x) => `- ${c.scenario} × \`${c.model}\`: ${x.count}× ${x.outcome}: ${x.reason.replace(/\|/g, "\\|")}`),
  );
  if (notes.length) out.push("", "## Failures and errors", "", ...notes);
  return out.join("\n") + "\n";
}

/** Cells below the threshold on pass@k for any requested k (undefined counts as below). */
export function gate(r: Report, threshold: number): { cell: Cell; k: number; value: number | null }[] {
  const below: { cell: Cell; k: number; value: number | null }[] = [];
  for (const cell of r.cells) {
    for (const k of r.ks) {
      const v = cell.passAtK[k] ?? null;
      if (v === null || v < threshold) {
        below.push({ cell, k, value: v });
        break;
      }
    }
  }
  return below;
}
