// Parity: run two implementations on the same cases and compare what they returned (each case's status,
// its `observed` results, the catalog and the hook requests), after normalising the per-run temp paths. Differences are listed per case
// with the JSON path where the two sides part.
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import type { Implementation } from "../schemas/implementation.ts";
import { runSuite, type LoadedCase } from "./runner/index.ts";
import type { CaseResult, RunReport } from "./runner/types.ts";

export interface Difference {
  /** JSON-ish path inside the case: "status", "observed[1].kind", … */
  path: string;
  a: unknown;
  b: unknown;
}

export interface CaseParity {
  id: string;
  title: string;
  statusA: CaseResult["status"];
  statusB: CaseResult["status"];
  differences: Difference[];
}

export interface ParityReport {
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

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

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
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [normalise(k, patterns) as string, normalise(v, patterns)]));
  }
  return value;
}

/** Structural differences between two JSON values, each with its path. */
export function diff(a: unknown, b: unknown, path = "", out: Difference[] = []): Difference[] {
  if (out.length >= MAX_DIFFS_PER_CASE) return out;
  if (Object.is(a, b)) return out;
  const bothArrays = Array.isArray(a) && Array.isArray(b);
  const bothObjects = !!a && !!b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b);
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
    for (const k of [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort()) {
      diff(ao[k], bo[k], /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`, out);
    }
    return out;
  }
  out.push({ path: path.replace(/^\./, "") || "(root)", a, b });
  return out;
}

export function compareCase(a: CaseResult, b: CaseResult | undefined, patterns = tempPatterns()): CaseParity {
  const differences: Difference[] = [];
  if (!b) {
    differences.push({ path: "(case)", a: a.status, b: "(not run)" });
    return { id: a.id, title: a.title, statusA: a.status, statusB: "skipped", differences };
  }
  if (a.status !== b.status) differences.push({ path: "status", a: a.status, b: b.status });
  // Why a side could not answer matters more than the absent results that follow from it.
  if (a.status === "errored" || b.status === "errored") {
    const why = (r: CaseResult) => (r.status === "errored" ? `${r.reason ?? "errored"}${r.stderr ? `; stderr: ${r.stderr.trim().slice(-300)}` : ""}` : "(answered)");
    differences.push({ path: "errored because", a: why(a), b: why(b) });
  }
  diff(normalise(a.observed ?? [], patterns), normalise(b.observed ?? [], patterns), "observed", differences);
  diff(normalise(a.catalog, patterns), normalise(b.catalog, patterns), "catalog", differences);
  diff(normalise(a.hook_requests ?? [], patterns), normalise(b.hook_requests ?? [], patterns), "hook_requests", differences);
  return { id: a.id, title: a.title, statusA: a.status, statusB: b.status, differences };
}

/** Run both sides over `cases` (each through runSuite, so a driver fault only errors its case) and compare. */
export async function runParity(
  sideA: ParitySide,
  sideB: ParitySide,
  cases: LoadedCase[],
  opts: { suite: string; timeoutMs?: number; onCase?: (c: CaseParity) => void },
): Promise<ParityReport> {
  const common = { suite: opts.suite, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}) };
  const a = await runSuite(sideA.open, cases, { ...common, driverLabel: sideA.label });
  const b = await runSuite(sideB.open, cases, { ...common, driverLabel: sideB.label });
  const byId = new Map(b.cases.map((r) => [r.id, r]));
  const patterns = tempPatterns();
  const results = a.cases.map((r) => compareCase(r, byId.get(r.id), patterns));
  for (const c of results) opts.onCase?.(c);
  return { a, b, cases: results, differing: results.filter((c) => c.differences.length > 0).length };
}

function show(v: unknown): string {
  const s = v === undefined ? "(absent)" : JSON.stringify(v);
  return s.length > 240 ? s.slice(0, 240) + "…" : s;
}

export function formatCaseParity(c: CaseParity, labels: [string, string] = ["A", "B"]): string {
  if (!c.differences.length) return `SAME  ${c.id.padEnd(6)} ${c.title}  (${c.statusA})`;
  const lines = [`DIFF  ${c.id.padEnd(6)} ${c.title}  (${labels[0]}: ${c.statusA}, ${labels[1]}: ${c.statusB})`];
  for (const d of c.differences) {
    lines.push(`        at ${d.path}:`, `          ${labels[0]}: ${show(d.a)}`, `          ${labels[1]}: ${show(d.b)}`);
  }
  return lines.join("\n");
}

export function formatParitySummary(r: ParityReport): string {
  return `parity: ${r.cases.length - r.differing}/${r.cases.length} cases identical, ${r.differing} differ ` +
    `(A: ${r.a.implementation.name} via ${r.a.implementation.driver}; B: ${r.b.implementation.name} via ${r.b.implementation.driver})`;
}
