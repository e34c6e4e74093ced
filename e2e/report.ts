// Reports: the scenario × model matrix (terminal text and Markdown), the JSON report, and the CI gate. Scripted
// cells are always labelled harness self-tests, never model results. Every cell carries a 95% Wilson interval beside
// pass@1 and what it cost (tokens, steps, latency per model call, retries); every report carries what it was
// measured with (kit version, each scenario's checker and fixture hash, models and providers, sampling, seed), and
// says when the run was interrupted or a re-score met changed checkers. Owns: Report, ReportCell, buildReport,
// renderText, renderMarkdown, gate.
import { wilson } from "./interval.ts";
import { servedText } from "./provenance.ts";
import type { ServedModel } from "./providers/registry.ts";
import type { SamplingApplied } from "./providers/types.ts";
import type { RunResult } from "./run.ts";
import type { Cell } from "./score.ts";
import { summarise } from "./score.ts";
import type { RunSettings } from "./transcript.ts";
import { cellFigures, costTable, fmtCount, fmtMs, verdictTable, wrapLine } from "./report-table.ts";
import { cellUsage, type CellUsage } from "./usage.ts";
import type { ScenarioVersion } from "./versions.ts";

/** A cell with its interval and its cost. */
export type ReportCell = Cell & { pass1Interval95: { low: number; high: number } | null; usage: CellUsage };

export interface ReportVersions {
  kit: string;
  /** Per scenario: the checker and fixture hashes the results were judged with. */
  scenarios: Record<string, ScenarioVersion>;
}

export interface Report {
  kind: "skill-tool-e2e";
  createdAt: string;
  implementation: string;
  n: number;
  ks: number[];
  temperature: number;
  seed?: number;
  scenarios: { id: string; title: string }[];
  /**
   * Each model with its provider, which sampling settings reach it (a Bedrock seed never does), what served it
   * (provenance.ts) and the sampling settings its requests carried, as named on the wire.
   */
  models: ({ provider: string; note: string } & ReportModel)[];
  /** Request settings the run was made with (absent keys: the provider's default). */
  settings?: RunSettings;
  versions: ReportVersions;
  cells: ReportCell[];
  trials: RunResult[];
  transcripts?: string;
  /** Present when the run was stopped before every trial finished: what did not, none of it scored. */
  interrupted?: { unfinished: { scenario: string; model: string; trial: number; started: boolean }[] };
  /** Trials taken from existing transcripts by --resume. */
  resumed?: number;
  /** Present for --rescore: transcripts whose checker or fixture changed, and whether they were scored. */
  rescore?: {
    changed: { transcript: string; scenario: string; model: string; trial: number; changes: string[] }[];
    scoredUnderCurrent: boolean;
    skipped: { transcript: string; why: string }[];
    /** Models whose transcripts were served by different weights (digest, ARN or root differ). */
    served?: { model: string; values: string[] }[];
  };
  /** A --shard run: which shard, and how many of the plan's trials it holds. */
  shard?: { index: number; count: number; trials: number; total: number };
  /** A --merge report: how many shards, from which directories. */
  merged?: { shards: number; from: string[] };
}

export interface ReportModel {
  id: string;
  kind: "real" | "scripted";
  sampling?: SamplingApplied;
  served?: ServedModel;
  sent?: Record<string, unknown>;
}

const SELF_TEST = "harness self-test (scripted policy), not a model result";

export function buildReport(a: {
  results: RunResult[];
  ks: number[];
  n: number;
  implementation: string;
  temperature: number;
  seed?: number;
  settings?: RunSettings;
  scenarios: { id: string; title: string }[];
  versions: ReportVersions;
  models?: ReportModel[];
  transcripts?: string;
  interrupted?: Report["interrupted"];
  resumed?: number;
  rescore?: Report["rescore"];
  shard?: Report["shard"];
  merged?: Report["merged"];
}): Report {
  const models =
    a.models ??
    uniq(
      a.results.map((r) => ({ id: r.model, kind: r.modelKind, ...(r.served ? { served: r.served } : {}) })),
      (m) => m.id,
    );
  const used = new Set(a.results.map((r) => r.scenario));
  return {
    kind: "skill-tool-e2e",
    createdAt: new Date().toISOString(),
    implementation: a.implementation,
    n: a.n,
    ks: a.ks,
    temperature: a.temperature,
    ...(a.seed !== undefined ? { seed: a.seed } : {}),
    ...(a.settings && Object.keys(a.settings).length ? { settings: a.settings } : {}),
    versions: {
      kit: a.versions.kit,
      scenarios: Object.fromEntries(Object.entries(a.versions.scenarios).filter(([id]) => used.has(id))),
    },
    scenarios: a.scenarios.filter((s) => used.has(s.id)),
    models: models.map((m) => ({
      ...m,
      provider: m.id.slice(0, m.id.indexOf(":")),
      note: m.kind === "scripted" ? SELF_TEST : "model result",
    })),
    cells: summarise(a.results, a.ks).map((c) => withCost(c, a.results)),
    trials: a.results,
    ...(a.transcripts ? { transcripts: a.transcripts } : {}),
    ...(a.interrupted && a.interrupted.unfinished.length ? { interrupted: a.interrupted } : {}),
    ...(a.resumed ? { resumed: a.resumed } : {}),
    ...(a.rescore ? { rescore: a.rescore } : {}),
    ...(a.shard ? { shard: a.shard } : {}),
    ...(a.merged ? { merged: a.merged } : {}),
  };
}

function withCost(c: Cell, results: readonly RunResult[]): ReportCell {
  const mine = results.filter((r) => r.scenario === c.scenario && r.model === c.model && r.usage);
  return { ...c, pass1Interval95: wilson(c.passed, c.n), usage: cellUsage(mine.map((r) => r.usage!)) };
}

function uniq<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
}

/** `[0.48, 1.00]`: the 95% Wilson interval of pass@1; n/a with no verdict. */
export function fmtInterval(i: { low: number; high: number } | null): string {
  return i ? `[${i.low.toFixed(2)}, ${i.high.toFixed(2)}]` : "[n/a]";
}

/** The cost columns of a cell, in the order the README explains them. */
export function costColumns(c: ReportCell): string[] {
  const u = c.usage;
  return [
    `${fmtCount(u.inputTokens.sum)} (${fmtCount(u.inputTokens.perTrial)}/trial)`,
    `${fmtCount(u.outputTokens.sum)} (${fmtCount(u.outputTokens.perTrial)}/trial)`,
    `${u.steps.perTrial}`,
    `${fmtMs(u.latencyMs.p50)} / ${fmtMs(u.latencyMs.p95)}`,
    `${u.retries}`,
  ];
}

export const COST_HEADER = [
  "tokens in (sum, /trial)",
  "tokens out (sum, /trial)",
  "steps/trial",
  "latency p50 / p95",
  "retries",
];

function settingsText(r: Report): string {
  const s = Object.entries(r.settings ?? {}).map(([k, v]) => `${k} ${String(v)}`);
  return [`temperature ${r.temperature}`, ...(r.seed !== undefined ? [`seed ${r.seed}`] : []), ...s].join("; ");
}

function versionsText(r: Report): string {
  return `kit ${r.versions.kit}; checker/fixture: ${Object.entries(r.versions.scenarios)
    .map(([id, v]) => `${id} ${v.checker}/${v.fixture}`)
    .join(", ")}`;
}

/** The lines every format shows before the matrix when a run was cut short or a re-score met changes. */
function warnings(r: Report): string[] {
  const out: string[] = [];
  if (r.shard)
    out.push(
      `SHARD ${r.shard.index}/${r.shard.count}: ${r.shard.trials} of the run's ${r.shard.total} trials; merge every shard's transcripts with --merge for the run's numbers.`,
    );
  if (r.merged) out.push(`merged: ${r.merged.shards} shard(s) from ${r.merged.from.join(", ")}.`);
  if (r.interrupted) {
    const started = r.interrupted.unfinished.filter((u) => u.started).length;
    out.push(
      `INTERRUPTED: ${r.interrupted.unfinished.length} trial(s) did not finish (${started} cut off, ${r.interrupted.unfinished.length - started} not started) and are not scored; ${r.merged ? "rerun the shard that holds them with --resume and its --transcripts, then merge again" : "rerun with --resume to finish them"}.`,
    );
  }
  if (r.resumed)
    out.push(
      `resumed: ${r.resumed} trial(s) taken from existing transcripts (same model, scenario, trial, versions and settings).`,
    );
  if (r.rescore?.changed.length) {
    out.push(
      r.rescore.scoredUnderCurrent
        ? `CHANGED: ${r.rescore.changed.length} transcript(s) were made under another checker/fixture and are scored under the current one (--rescore-current).`
        : `CHANGED: ${r.rescore.changed.length} transcript(s) were made under another checker/fixture and are left out; add --rescore-current to score them under the current one.`,
    );
    for (const c of r.rescore.changed) out.push(`  ${c.scenario} × ${c.model} #${c.trial}: ${c.changes.join(", ")}`);
  }
  for (const d of r.rescore?.served ?? [])
    out.push(
      `SERVED BY DIFFERENT WEIGHTS: ${d.model}'s transcripts were made by ${d.values.join(" and ")}; their numbers do not describe one model.`,
    );
  if (r.rescore?.skipped.length)
    out.push(
      `not scored: ${r.rescore.skipped.length} partial transcript(s) (${r.rescore.skipped[0]!.why}${r.rescore.skipped.length > 1 ? ", …" : ""}).`,
    );
  return out;
}

function reasonNotes(r: Report, bullet: (c: Cell, x: Cell["reasons"][number]) => string): string[] {
  return r.cells.flatMap((c) => c.reasons.filter((x) => x.outcome !== "pass").map((x) => bullet(c, x)));
}

export function renderText(r: Report): string {
  const lines: string[] = [];
  const say = (text: string) => lines.push(...wrapLine(text));
  say(`Skill tool e2e: implementation ${r.implementation}; n=${r.n} per cell; k=${r.ks.join(",")}; ${settingsText(r)}`);
  say(`versions: ${versionsText(r)}`);
  say(`models: ${r.models.map((m) => m.id).join(", ")}`);
  for (const m of r.models.filter((x) => x.served && x.kind === "real"))
    say(`served: ${m.id}: ${servedText(m.served!)}`);
  const scripted = r.models.filter((m) => m.kind === "scripted");
  if (scripted.length) say(`NOTE: ${scripted.map((m) => m.id).join(", ")}: ${SELF_TEST}.`);
  for (const w of warnings(r)) say(w);
  say(
    `pass/n over conclusive trials; pass@1 with its 95% Wilson interval (CI); pass@k, pass^k: n/a when n < k; exercised x/y: trials where the tested situation arose; inc = inconclusive, err = errors (both left out of n)`,
  );
  lines.push("", ...verdictTable(r));
  lines.push("");
  say(
    "cost and latency: tokens in / out (sum over the cell, mean per trial), steps per trial, latency per model call p50 / p95 (retries included), retries:",
  );
  lines.push(...costTable(r));
  const notes = reasonNotes(
    r,
    (c, x) => `  ${c.scenario} × ${c.model}: ${x.count}× ${x.outcome === "error" ? "ERROR" : x.outcome}: ${x.reason}`,
  );
  if (notes.length) lines.push("", "failures and errors:", ...notes.flatMap((n) => wrapLine(n, undefined, "      ")));
  if (r.transcripts)
    lines.push(
      "",
      ...wrapLine(
        `transcripts: ${r.transcripts} (re-score with --rescore ${r.transcripts}; finish an interrupted run with --resume --transcripts ${r.transcripts})`,
      ),
    );
  return lines.join("\n");
}

export function renderMarkdown(r: Report): string {
  const out: string[] = [];
  out.push(`# Skill tool e2e (SK1–SK8)`, "");
  out.push(
    `Implementation **${r.implementation}**, n = ${r.n} trials per cell, k = ${r.ks.join(", ")}, ${settingsText(r)}.`,
    "",
  );
  out.push(`Versions: ${versionsText(r)}.`, "");
  for (const m of r.models.filter((x) => x.served && x.kind === "real"))
    out.push(`Served: \`${m.id}\`: ${servedText(m.served!)}.`, "");
  out.push(
    `Each cell: passed/n · pass@k (pass@1 with its 95% Wilson interval) · pass^k over conclusive trials (pass or fail); "exercised x/y": in x of the y non-error trials the tested situation arose; inconclusive trials (situation never arose, correct answer) and errored trials (transport, malformed model response, harness, implementation) are counted apart and left out of n; n/a when n < k.`,
    "",
  );
  for (const m of r.models.filter((x) => x.kind === "scripted")) out.push(`> **${m.id}** is a ${SELF_TEST}.`, "");
  for (const w of warnings(r)) out.push(`> ${w.trim()}`, "");
  out.push(`| scenario | ${r.models.map((m) => (m.kind === "scripted" ? `${m.id} (self-test)` : m.id)).join(" | ")} |`);
  out.push(`|---|${r.models.map(() => "---").join("|")}|`);
  const find = (s: string, m: string) => r.cells.find((c) => c.scenario === s && c.model === m);
  for (const s of r.scenarios) {
    const cells = r.models.map((m) => {
      const c = find(s.id, m.id);
      if (!c) return "—";
      // The numbers the terminal and the HTML report print (cellFigures): pass@1 and its interval whatever -k says.
      const f = cellFigures(c, r.ks);
      const ks = f.ks.map((x) => ` · pass@${x.k} ${x.at} · pass^${x.k} ${x.hat}`).join("");
      return `${f.passN} · pass@1 ${f.pass1} ${f.ci ? `[${f.ci[0]}, ${f.ci[1]}]` : "[n/a]"}${ks} · exercised ${f.exercised}${f.inconclusive ? ` · ${f.inconclusive} inconclusive` : ""}${f.errors ? ` · **${f.errors} errors**` : ""}`;
    });
    out.push(`| ${s.id} ${s.title} | ${cells.join(" | ")} |`);
  }
  out.push(
    "",
    "## Cost and latency",
    "",
    `| scenario | model | ${COST_HEADER.join(" | ")} |`,
    `|---|---|${COST_HEADER.map(() => "---:").join("|")}|`,
  );
  for (const m of r.models) {
    for (const s of r.scenarios) {
      const c = find(s.id, m.id);
      if (c)
        out.push(
          `| ${s.id} | ${m.kind === "scripted" ? `${m.id} (self-test)` : m.id} | ${costColumns(c).join(" | ")} |`,
        );
    }
  }
  const notes = reasonNotes(
    r,
    (c, x) => `- ${c.scenario} × \`${c.model}\`: ${x.count}× ${x.outcome}: ${x.reason.replace(/\|/g, "\\|")}`,
  );
  if (notes.length) out.push("", "## Failures and errors", "", ...notes);
  return out.join("\n") + "\n";
}

/** Cells below the threshold on pass@k for any requested k (undefined counts as below). */
export function gate(r: Report, threshold: number): { cell: ReportCell; k: number; value: number | null }[] {
  const below: { cell: ReportCell; k: number; value: number | null }[] = [];
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
