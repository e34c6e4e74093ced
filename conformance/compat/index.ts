// Owns one compatibility run (`npm run compat`): for every implementation found (targets.ts), install
// its folder, run the kit's command line on every suite under every profile (run-suites.ts), turn the
// reports into cells (cells.ts), and time discovery and activation on one generated skill tree shared by
// all (timing.ts). Returns plain results (types.ts); the renderers and scripts/compat.ts do the rest.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateSkills } from "../../bench/generate.ts";
import { loadCases, suites as listSuites } from "../runner/load.ts";
import { cellsFromReport, errorCells } from "./cells.ts";
import { PROFILES } from "../runner/rules.ts";
import { ruleIndex } from "./rule-table.ts";
import { npmCi, runSuites, supportsProfiles } from "./run-suites.ts";
import { findTargets, type Target } from "./targets.ts";
import { measureTiming } from "./timing.ts";
import type { CompatResult, ImplementationResult } from "./types.ts";

export interface CompatOptions {
  root: string;
  /** Implementation ids to run (default: every one found). */
  only?: string[];
  /** npm ci in each harness folder first (default true). */
  install?: boolean;
  /** Generated skills for the time figures; 0 skips timing (default 1,000). */
  skills?: number;
  calls?: number;
  log?: (line: string) => void;
}

function gitCommit(root: string): string | undefined {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

/** Case id → suite, and each suite's case count, from the kit's own case files. */
function suiteMap(): { suites: CompatResult["suites"]; suiteOf: Map<string, string> } {
  const suiteOf = new Map<string, string>();
  const suites = listSuites().map((id) => {
    const cases = loadCases(id);
    for (const c of cases) suiteOf.set(c.id, id);
    return { id, cases: cases.length };
  });
  return { suites, suiteOf };
}

async function runTarget(root: string, t: Target, profiles: readonly (string | undefined)[], ctx: { suites: string[]; suiteOf: Map<string, string>; install: boolean; log: (l: string) => void; tmp: string }): Promise<ImplementationResult> {
  const base: ImplementationResult = { id: t.id, name: t.id, version: "", language: "", driver: t.display, ...(t.pins ? { pins: t.pins } : {}), status: "ran", cells: [] };
  if (t.missing) return { ...base, status: "not_built", reason: t.missing };
  if (t.installDir && ctx.install) {
    ctx.log(`${t.id}: npm ci`);
    const r = npmCi(t.installDir);
    if (!r.ok) return { ...base, status: "install_failed", ...(r.reason ? { reason: r.reason } : {}) };
  }
  const out = { ...base };
  for (const p of profiles) {
    const label = p ?? "default";
    ctx.log(`${t.id}: every suite, profile ${label}`);
    const run = await runSuites(root, t, p, join(ctx.tmp, `${t.id}-${label}.json`));
    if (!run.report) {
      out.cells.push(...errorCells(label, ctx.suites, run.reason ?? "no report"));
      out.status = "errored";
      out.reason = run.reason;
      continue;
    }
    const im = run.report.implementation;
    if (im) Object.assign(out, { name: im.name ?? out.name, version: im.version ?? "", language: im.language ?? "" });
    const caps = (run.report as { capabilities?: Record<string, boolean> }).capabilities;
    if (caps) out.capabilities = caps;
    out.cells.push(...cellsFromReport(run.report, label, ctx.suites, ctx.suiteOf));
  }
  return out;
}

export async function runCompat(opts: CompatOptions): Promise<CompatResult> {
  const t0 = performance.now();
  const log = opts.log ?? (() => undefined);
  const { root } = opts;
  const { suites, suiteOf } = suiteMap();
  const hasProfiles = supportsProfiles(root);
  const profiles: (string | undefined)[] = hasProfiles ? [...PROFILES] : [undefined];
  if (!hasProfiles) log("this kit's conformance command has no --profile: one verdict per suite");
  const targets = findTargets(root, opts.only);
  const tmp = mkdtempSync(join(tmpdir(), "skill-compat-"));
  const implementations: ImplementationResult[] = [];
  try {
    const ctx = { suites: suites.map((s) => s.id), suiteOf, install: opts.install ?? true, log, tmp };
    for (const t of targets) implementations.push(await runTarget(root, t, profiles, ctx));
    const n = opts.skills ?? 1000;
    if (n > 0) {
      log(`timing: generating ${n} skills`);
      const tree = await generateSkills(n);
      try {
        for (const [i, t] of targets.entries()) {
          if (implementations[i]!.status !== "ran" && implementations[i]!.status !== "errored") continue;
          log(`${t.id}: discovery and activation of ${n} skills`);
          implementations[i]!.timing = await measureTiming(root, t, tree, { ...(opts.calls ? { calls: opts.calls } : {}) });
        }
      } finally {
        await tree.disposeAsync();
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const kitVersion = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const commit = gitCommit(root);
  // Only the rules some cell fails or finds incidentally: the page explains those, the table itself is schemas/rules.json.
  const failing = new Set(implementations.flatMap((i) => i.cells.flatMap((c) => [...c.failing, ...c.incidental].map((f) => f.id))));
  const rules = Object.fromEntries(Object.entries(ruleIndex()).filter(([id]) => failing.has(id)));
  return {
    generated_at: new Date().toISOString(),
    kit: { version: kitVersion, ...(commit ? { commit } : {}) },
    node: process.version,
    profiles: profiles.map((p) => p ?? "default"),
    suites,
    implementations,
    rules,
    duration_ms: Math.round(performance.now() - t0),
  };
}
