// Parity: run two implementations on the same cases and compare what they returned (each case's status,
// its `observed` results, the catalog and the hook requests), after normalising the per-run temp paths, at
// one of two levels (R30): `exact` (byte for byte) or `semantic` (prose compared for the facts it carries,
// parity-semantic.ts). Each difference names its JSON path and the first differing position, with each
// side's text around it.
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import type { Implementation } from "../schemas/implementation.ts";
import { escapeRe, projectCatalog, projectResult } from "./parity-semantic.ts";
import { runSuite, type LoadedCase } from "./runner/index.ts";
import type { CaseResult, RunReport } from "./runner/types.ts";

/**
 * exact: results, catalog and hook requests byte for byte (temp paths normalised).
 * semantic: the same with prose compared only for the facts it carries (parity-semantic.ts).
 */
export type ParityLevel = "exact" | "semantic";
export const PARITY_LEVELS: readonly ParityLevel[] = ["exact", "semantic"];
/** R30: the kit's promise is the same answers, and the model reads the wording; exact is reachable through schemas/messages.json. */
export const DEFAULT_PARITY_LEVEL: ParityLevel = "exact";

export interface Difference {
  /** JSON path inside the case: "status", "observed[1].kind", "catalog.tool_description", … */
  path: string;
  a: unknown;
  b: unknown;
  /** Where the two values part: the character index in their text (strings as they are, anything else as JSON). */
  position: number;
  /** Each side around that position: what they share just before, then ⟦where they differ⟧. */
  context: { a: string; b: string };
}

export interface CaseParity {
  id: string;
  title: string;
  statusA: CaseResult["status"];
  statusB: CaseResult["status"];
  differences: Difference[];
  /** exact level only: every difference is wording (the case is the same at the semantic level). */
  proseOnly?: boolean;
}

export interface ParityReport {
  level: ParityLevel;
  a: RunReport;
  b: RunReport;
  cases: CaseParity[];
  /** How many cases differ. */
  differing: number;
}

export interface ParitySide {
  open: () => Promise<Implementation>;
  label: string;
}

const MAX_DIFFS_PER_CASE = 20;
/** Characters of context shown on each side of the first differing position. */
const CONTEXT = 40;

function text(v: unknown): string {
  if (v === undefined) return "(absent)";
  return typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
}

/** Line breaks and tabs as escapes, so a context stays on one line. */
const visible = (s: string): string =>
  s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");

/** The first position where two values' texts differ, and each side around it: shared lead-in, then ⟦the part that differs⟧. */
export function firstDifference(
  a: unknown,
  b: unknown,
  width = CONTEXT,
): { position: number; context: { a: string; b: string } } {
  const ta = text(a);
  const tb = text(b);
  let i = 0;
  while (i < ta.length && i < tb.length && ta[i] === tb[i]) i++;
  const from = Math.max(0, i - width);
  const side = (t: string) => {
    const lead = (from > 0 ? "…" : "") + visible(t.slice(from, i));
    const tail = i + width < t.length ? "…" : "";
    return i >= t.length ? `${lead}⟦(ends here)⟧` : `${lead}⟦${visible(t.slice(i, i + width))}${tail}⟧`;
  };
  return { position: i, context: { a: side(ta), b: side(tb) } };
}

/** Why a side failed or errored is shown whole (up to 400 characters); anything else around its first difference. */
const located = (d: RawDifference): Difference => ({
  ...d,
  ...firstDifference(d.a, d.b, d.path.endsWith(" because") ? 400 : CONTEXT),
});

/** Matchers for "<system temp dir>/<one entry>", the root every case's temp dir lives under. */
function tempPatterns(): RegExp[] {
  const roots = new Set<string>([tmpdir()]);
  try {
    roots.add(realpathSync(tmpdir()));
  } catch {
    // tmpdir does not resolve: keep the configured path only
  }
  return [...roots]
    .sort((x, y) => y.length - x.length)
    .map((r) => new RegExp(`${escapeRe(r.replace(/\/+$/, ""))}/[^/\\s"'<>]+`, "g"));
}

/** Replace every per-run temp dir in strings (values and keys) by <tmp>, recursively. */
export function normalise(value: unknown, patterns: RegExp[] = tempPatterns()): unknown {
  if (typeof value === "string") return patterns.reduce((s, re) => s.replace(re, "<tmp>"), value);
  if (Array.isArray(value)) return value.map((v) => normalise(v, patterns));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [normalise(k, patterns) as string, normalise(v, patterns)]),
    );
  }
  return value;
}

type RawDifference = Pick<Difference, "path" | "a" | "b">;

/**
 * Whether a JSON path lies inside a frontmatter: there key order is contract (R24: authored order, integer-like
 * keys first), everywhere else a result is a JSON object whose key order means nothing (parity compares values).
 */
export const inFrontmatter = (path: string): boolean => /(?:^|\.)frontmatter(?:[.[]|$)/.test(path);

/**
 * JSON text with every object's keys sorted, except inside a `frontmatter` value, whose order is kept (R24):
 * two results that differ only in key order have the same text. Keys whose value is undefined are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown, ordered = false): string {
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v, ordered)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined);
    if (!ordered) keys.sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k], ordered || k === "frontmatter")}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Structural differences between two JSON values, each with its JSON path. */
export function diff(a: unknown, b: unknown, path = "", out: RawDifference[] = []): RawDifference[] {
  if (out.length >= MAX_DIFFS_PER_CASE) return out;
  if (Object.is(a, b)) return out;
  const bothArrays = Array.isArray(a) && Array.isArray(b);
  const bothObjects =
    !!a && !!b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b);
  if (bothArrays) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) diff(a[i], b[i], `${path}[${i}]`, out);
    return out;
  }
  if (bothObjects) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    // Two different kinds of result are one difference, not one per field.
    if ("kind" in ao && "kind" in bo && ao.kind !== bo.kind) {
      out.push({ path: path.replace(/^\./, "") || "(root)", a, b });
      return out;
    }
    // Key order is compared only where it is contract: inside a frontmatter (R24).
    if (inFrontmatter(path)) {
      const shared = (x: Record<string, unknown>, y: Record<string, unknown>) =>
        Object.keys(x)
          .filter((k) => k in y)
          .join("\u0000");
      if (shared(ao, bo) !== shared(bo, ao))
        out.push({ path: `${path.replace(/^\./, "")} (key order, R24)`, a: Object.keys(ao), b: Object.keys(bo) });
    }
    for (const k of [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort()) {
      diff(ao[k], bo[k], /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`, out);
    }
    return out;
  }
  out.push({ path: path.replace(/^\./, "") || "(root)", a, b });
  return out;
}

/** The per-case values parity compares, at a level: `exact` as returned, `semantic` projected (parity-semantic.ts). */
function comparable(
  r: CaseResult,
  level: ParityLevel,
  patterns: RegExp[],
): { observed: unknown[]; catalog: unknown; hook_requests: unknown[] } {
  const observed = normalise(r.observed ?? [], patterns) as unknown[];
  const catalog = normalise(r.catalog, patterns);
  const hook_requests = normalise(r.hook_requests ?? [], patterns) as unknown[];
  if (level === "exact") return { observed, catalog, hook_requests };
  const calls = normalise(r.calls ?? [], patterns) as unknown[];
  return {
    observed: observed.map((o, i) => projectResult(o, calls[i])),
    catalog: projectCatalog(catalog),
    hook_requests,
  };
}

export function compareCase(
  a: CaseResult,
  b: CaseResult | undefined,
  level: ParityLevel = DEFAULT_PARITY_LEVEL,
  patterns = tempPatterns(),
): CaseParity {
  const differences: Difference[] = [];
  if (!b) {
    differences.push(located({ path: "(case)", a: a.status, b: "(not run)" }));
    return { id: a.id, title: a.title, statusA: a.status, statusB: "skipped", differences };
  }
  if (a.status !== b.status) differences.push(located({ path: "status", a: a.status, b: b.status }));
  // A side that failed says why: its first mismatch, so the reader need not rerun it alone.
  if (a.status !== b.status && (a.status === "failed" || b.status === "failed")) {
    const why = (r: CaseResult) => (r.status === "failed" ? (r.mismatches?.[0]?.message ?? "failed") : `(${r.status})`);
    differences.push(located({ path: "failed because", a: why(a), b: why(b) }));
  }
  // Why a side could not answer matters more than the absent results that follow from it.
  if (a.status === "errored" || b.status === "errored") {
    const why = (r: CaseResult) =>
      r.status === "errored"
        ? `${r.reason ?? "errored"}${r.stderr ? `; stderr: ${r.stderr.trim().slice(-300)}` : ""}`
        : "(answered)";
    differences.push(located({ path: "errored because", a: why(a), b: why(b) }));
  }
  const ca = comparable(a, level, patterns);
  const cb = comparable(b, level, patterns);
  const found: Difference[] = [];
  diff(ca.observed, cb.observed, "observed", found);
  diff(ca.catalog, cb.catalog, "catalog", found);
  diff(ca.hook_requests, cb.hook_requests, "hook_requests", found);
  differences.push(...found.map(located));
  const result: CaseParity = { id: a.id, title: a.title, statusA: a.status, statusB: b.status, differences };
  // At exact level, say whether a difference is wording only: the case is the same at the semantic level.
  if (level === "exact" && differences.length > 0)
    result.proseOnly = compareCase(a, b, "semantic", patterns).differences.length === 0;
  return result;
}

/** Run both sides over `cases` (each through runSuite, so a driver fault only errors its case) and compare. */
export async function runParity(
  sideA: ParitySide,
  sideB: ParitySide,
  cases: LoadedCase[],
  opts: { suite: string; level?: ParityLevel; timeoutMs?: number; onCase?: (c: CaseParity) => void },
): Promise<ParityReport> {
  const common = { suite: opts.suite, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}) };
  const a = await runSuite(sideA.open, cases, { ...common, driverLabel: sideA.label });
  const b = await runSuite(sideB.open, cases, { ...common, driverLabel: sideB.label });
  const byId = new Map(b.cases.map((r) => [r.id, r]));
  const patterns = tempPatterns();
  const level = opts.level ?? DEFAULT_PARITY_LEVEL;
  const results = a.cases.map((r) => compareCase(r, byId.get(r.id), level, patterns));
  for (const c of results) opts.onCase?.(c);
  return { level, a, b, cases: results, differing: results.filter((c) => c.differences.length > 0).length };
}

export function formatCaseParity(c: CaseParity, labels: [string, string] = ["A", "B"]): string {
  if (!c.differences.length) return `SAME  ${c.id.padEnd(6)} ${c.title}  (${c.statusA})`;
  const tag = c.proseOnly ? "  [wording only: same at --parity-level semantic]" : "";
  const lines = [`DIFF  ${c.id.padEnd(6)} ${c.title}  (${labels[0]}: ${c.statusA}, ${labels[1]}: ${c.statusB})${tag}`];
  for (const d of c.differences) {
    lines.push(
      `        at ${d.path}, first difference at character ${d.position}:`,
      `          ${labels[0]}: ${d.context.a}`,
      `          ${labels[1]}: ${d.context.b}`,
    );
  }
  return lines.join("\n");
}

export function formatParitySummary(r: ParityReport): string {
  return (
    `parity (${r.level}): ${r.cases.length - r.differing}/${r.cases.length} cases identical, ${r.differing} differ ` +
    `(A: ${r.a.implementation.name} via ${r.a.implementation.driver}; B: ${r.b.implementation.name} via ${r.b.implementation.driver})`
  );
}
