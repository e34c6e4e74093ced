// The compact terminal tables of an e2e report: one row per scenario × model, grouped under each scenario's title,
// with narrow numeric columns, so the spec's five models with `-k 1,5` fit 120 columns (the old one-cell-per-model
// matrix was 352). The model column takes the room the numbers leave; a longer id is shortened in the middle
// and the report's header names every model in full. Also word-wrapping for the prose lines around the tables. Owns: verdictTable, costTable,
// wrapLine, fmtCount, fmtMs, TABLE_WIDTH, and cellFigures: the one place a cell's verdict numbers are worked out and
// formatted, so the terminal, the Markdown and the HTML report say the same numbers (issue 28 deliver 6).
import type { Report, ReportCell } from "./report.ts";

/** What the terminal report is laid out for. */
export const TABLE_WIDTH = 120;
/** The model column never shrinks below this, even when the table then passes TABLE_WIDTH (many k's). */
const MIN_MODEL_COLUMN = 24;
const GAP = "  ";
/** Model rows sit under their scenario's title. */
const INDENT = "  ";

/** Display width: code points (every character the report prints is one column wide). */
const width = (s: string) => [...s].length;

const num = (v: number | null | undefined) => (v === null || v === undefined ? "n/a" : v.toFixed(2));
/** Zero is "·" so the non-zero counts (inconclusive, errors) stand out. */
const count = (v: number) => (v === 0 ? "·" : String(v));

/** A cell's verdict numbers as every report prints them. */
export interface CellFigures {
  /** passed/n over conclusive trials. */
  passN: string;
  /** pass@1 (passed/n, the estimator for k = 1, whether or not -k asked for 1). */
  pass1: string;
  /** pass@1's 95% Wilson interval, [low, high], or null with no verdict. */
  ci: [string, string] | null;
  /** pass@k and pass^k of every other requested k. */
  ks: { k: number; at: string; hat: string }[];
  /** exercised x/y: y the non-error trials. */
  exercised: string;
  inconclusive: number;
  errors: number;
}

export function cellFigures(c: ReportCell, ks: readonly number[]): CellFigures {
  return {
    passN: `${c.passed}/${c.n}`,
    pass1: num(c.passAtK[1] ?? (c.n ? c.passed / c.n : null)),
    ci: c.pass1Interval95 ? [c.pass1Interval95.low.toFixed(2), c.pass1Interval95.high.toFixed(2)] : null,
    ks: ks.filter((k) => k !== 1).map((k) => ({ k, at: num(c.passAtK[k]), hat: num(c.passHatK[k]) })),
    exercised: `${c.exercised}/${c.trials - c.errors}`,
    inconclusive: c.inconclusive,
    errors: c.errors,
  };
}

/** `ollama:very-long…name`: keeps the provider prefix and the tail, where tags and versions are. */
export function shorten(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = Math.ceil((max - 1) / 2);
  return chars.slice(0, head).join("") + "…" + chars.slice(chars.length - (max - 1 - head)).join("");
}

function modelLabel(m: { id: string; kind: string }): string {
  return m.kind === "scripted" ? `${m.id} [self-test]` : m.id;
}

type Align = "left" | "right";

/**
 * Rows under a header; `groups` start with a title line (the scenario) spanning the row. The first column holds the
 * model ids: it gets what the other columns leave of TABLE_WIDTH (at least MIN_MODEL_COLUMN), and an id longer than
 * that is shortened in the middle.
 */
function layout(header: string[], align: Align[], groups: { title: string; rows: string[][] }[]): string[] {
  const all = groups.flatMap((g) => g.rows);
  const widths = header.map((h, i) => Math.max(width(h), ...all.map((row) => width(row[i] ?? ""))));
  const rest = widths.slice(1).reduce((a, w) => a + w + GAP.length, 0);
  const room = Math.max(MIN_MODEL_COLUMN, Math.min(widths[0]!, TABLE_WIDTH - rest));
  widths[0] = Math.max(width(header[0]!), room);
  const fit = (row: string[]) => [
    INDENT + shorten(row[0]!.slice(INDENT.length), room - INDENT.length),
    ...row.slice(1),
  ];
  const pad = (c: string, i: number) => {
    const fill = " ".repeat(Math.max(0, (widths[i] ?? 0) - width(c)));
    return align[i] === "right" ? fill + c : c + fill;
  };
  const line = (cols: string[]) => cols.map(pad).join(GAP).trimEnd();
  const out = [line(header), widths.map((w) => "-".repeat(w)).join(GAP)];
  for (const g of groups) out.push(g.title, ...g.rows.map((row) => line(fit(row))));
  return out;
}

function cellsByScenario(r: Report): { title: string; cells: { label: string; cell: ReportCell }[] }[] {
  return r.scenarios
    .map((s) => ({
      title: `${s.id} ${s.title}`,
      cells: r.models.flatMap((m) => {
        const cell = r.cells.find((c) => c.scenario === s.id && c.model === m.id);
        return cell ? [{ label: INDENT + modelLabel(m), cell }] : [];
      }),
    }))
    .filter((g) => g.cells.length > 0);
}

/**
 * The verdicts: passed/n over conclusive trials, pass@1 with its 95% Wilson interval, pass@k and pass^k for every
 * other requested k (pass^1 is pass@1), exercised x/y, inconclusive and errors apart.
 */
export function verdictTable(r: Report): string[] {
  const ks = r.ks.filter((k) => k !== 1);
  const header = [
    "scenario / model",
    "pass/n",
    "pass@1",
    "95% CI",
    ...ks.flatMap((k) => [`pass@${k}`, `pass^${k}`]),
    "exercised",
    "inc",
    "err",
  ];
  const align: Align[] = [
    "left",
    "right",
    "right",
    "left",
    ...ks.flatMap((): Align[] => ["right", "right"]),
    "right",
    "right",
    "right",
  ];
  const groups = cellsByScenario(r).map((g) => ({
    title: g.title,
    rows: g.cells.map(({ label, cell: c }) => {
      const f = cellFigures(c, r.ks);
      const ci = f.ci ? `${f.ci[0]}–${f.ci[1]}` : "n/a";
      return [
        label,
        f.passN,
        f.pass1,
        ci,
        ...f.ks.flatMap((x) => [x.at, x.hat]),
        f.exercised,
        count(f.inconclusive),
        count(f.errors),
      ];
    }),
  }));
  return layout(header, align, groups);
}

/** 1234 → "1234", 12345 → "12.3k": token counts stay readable in a table. */
export function fmtCount(x: number): string {
  return x >= 10_000 ? `${(x / 1000).toFixed(1)}k` : String(Math.round(x));
}

/** 850 → "850ms", 1234 → "1.2s"; null (no call timed) → "n/a". */
export function fmtMs(v: number | null): string {
  if (v === null) return "n/a";
  return v >= 1000 ? `${(v / 1000).toFixed(1)}s` : `${Math.round(v)}ms`;
}

/** What each cell cost: tokens in and out (sum over the cell, mean per trial), steps per trial, latency per call, retries. */
export function costTable(r: Report): string[] {
  const header = ["scenario / model", "in", "in/trial", "out", "out/trial", "steps", "p50", "p95", "retries"];
  const align: Align[] = ["left", "right", "right", "right", "right", "right", "right", "right", "right"];
  const groups = cellsByScenario(r).map((g) => ({
    title: g.title,
    rows: g.cells.map(({ label, cell: c }) => {
      const u = c.usage;
      return [
        label,
        fmtCount(u.inputTokens.sum),
        fmtCount(u.inputTokens.perTrial),
        fmtCount(u.outputTokens.sum),
        fmtCount(u.outputTokens.perTrial),
        String(u.steps.perTrial),
        fmtMs(u.latencyMs.p50),
        fmtMs(u.latencyMs.p95),
        String(u.retries),
      ];
    }),
  }));
  return layout(header, align, groups);
}

/** Word-wraps one line to `max` columns; continuation lines get `indent`. A word longer than a line stays whole. */
export function wrapLine(text: string, max = TABLE_WIDTH, indent = "  "): string[] {
  const out: string[] = [];
  const lead = /^ */.exec(text)![0];
  let line = lead;
  for (const word of text.slice(lead.length).split(" ")) {
    const candidate = line.trim() === "" ? line + word : `${line} ${word}`;
    if (width(candidate) <= max || line.trim() === "") line = candidate;
    else {
      out.push(line);
      line = indent + word;
    }
  }
  out.push(line);
  return out;
}
