// Owns one compatibility run (`npm run compat`), in four phases: install every implementation folder (one after
// another, cached by lockfile); run the kit's command line once per target (a module over stdio, so a hung harness
// is killed: targets.ts servedOverStdio) on every suite under the widest profile
// (run-suites.ts; the other profiles re-judged from that run, rescore.ts), `parallel` targets at once, each with
// `--jobs` cases at once (pool.ts, runner/schedule.ts); then, with nothing else running, rerun once each timed case
// that missed a time check or a deadline near its bound (loadDependent, K123); last, again alone, time discovery and
// activation on one generated skill tree shared by all (timing.ts). Cells come from the first runs (cells.ts).
// Returns plain results (types.ts); the renderers, merge.ts and scripts/compat.ts do the rest.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateSkills } from "../../bench/generate.ts";
import { loadCases, suites as listSuites } from "../runner/load.ts";
import { cellsFromReport, errorCells } from "./cells.ts";
import { PROFILES } from "../runner/rules.ts";
import { ruleIndex } from "./rule-table.ts";
import { npmCi, runSuites, supportsProfiles, type SuiteRun } from "./run-suites.ts";
import { findTargets, servedOverStdio, type Target } from "./targets.ts";
import { measureTiming } from "./timing.ts";
import { inPool, longestFirst } from "./pool.ts";
import { longestBoundMs } from "../runner/schedule.ts";
import type { CompatResult, Finding, ImplementationResult, Rerun } from "./types.ts";
import { rescore } from "./rescore.ts";
import { isProfile, type Profile } from "../runner/rules.ts";
import type { RunReport } from "../runner/types.ts";

export interface CompatOptions {
  root: string;
  /** Implementation ids to run (default: every one found). */
  only?: string[];
  /** npm ci in each harness folder first (default true). */
  install?: boolean;
  /** Generated skills for the time figures; 0 skips timing (default 1,000). */
  skills?: number;
  calls?: number;
  /** Targets run at once (default DEFAULT_PARALLEL). */
  parallel?: number;
  /** Cases run at once within each target's run (default DEFAULT_JOBS). */
  jobs?: number;
  log?: (line: string) => void;
  /** The work directory of an earlier run that was interrupted: each target's report (and reruns' report) found
   *  there is used instead of running it again, so a long run is never lost. Kept afterwards. */
  resume?: string;
  /** Rerun the load-dependent cases (default true); without, each is listed as not rerun on its row. */
  reruns?: boolean;
  /** An earlier run's seconds per target id (the page's compatibility.json): the longest start first (pool.ts). */
  earlierSeconds?: Readonly<Record<string, number>>;
}

function gitCommit(root: string): string | undefined {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
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

/** Defaults that fit 2 cores (figures in conformance/README.md "Compatibility page"): two targets at once, each
 *  running two cases at once; the timed cases of each run alone within its run, and their reruns alone in all. */
export const DEFAULT_PARALLEL = 2;
export const DEFAULT_JOBS = 2;

/** How far past its bound a verdict may be and still be load (decision K123): a 2-core machine running two targets
 *  of two cases each slows a CPU-bound case a few times, never by this much. */
export const LOAD_FACTOR = 5;

/** The ms figures of a max_ms miss ("an answer within 4000 ms", "66790 ms"); undefined when either is not one. */
function missMs(m: { expected: unknown; actual: unknown }): { bound: number; took: number } | undefined {
  const bound = /within (\d+) ms/.exec(String(m.expected))?.[1];
  const took = /^(\d+) ms$/.exec(String(m.actual))?.[1];
  return bound && took ? { bound: Number(bound), took: Number(took) } : undefined;
}

/** A case whose verdict depends on the machine's load: it bounds a time (max_ms: S16's 1,000 concurrent calls within
 *  4 s, …) and missed it by less than LOAD_FACTOR times (a time check), or errored within LOAD_FACTOR times its
 *  longest bound (a deadline near it). Rerun once, marked when the two runs disagree; the first run's verdict is the
 *  one scored. A case that missed by more (S24's FIFO holding a harness to the kit's 120 s deadline, S16's 1,000 calls
 *  taking 60 s) is not load, and running it again would only spend the time again (K123). `bounds`: case id → its
 *  longest bound (runner/schedule.ts longestBoundMs). */
export function loadDependent(c: RunReport["cases"][number], bounds: ReadonlyMap<string, number>): boolean {
  const bound = bounds.get(c.id) ?? 0;
  if (!bound || c.status === "passed" || c.status === "skipped") return false;
  if (c.status === "errored") return c.duration_ms < LOAD_FACTOR * bound;
  return (c.mismatches ?? []).some((m) => {
    if (m.key !== "max_ms") return false;
    const ms = missMs(m);
    // A miss the kit wrote in another form is rerun: never skipped on a reading that failed.
    return !ms || ms.took < LOAD_FACTOR * ms.bound;
  });
}

type Report = RunReport;

/** A report an earlier, interrupted run finished and left in its work directory (undefined: none, or unreadable). */
function keptReport(file: string): SuiteRun | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return { report: JSON.parse(readFileSync(file, "utf8")) as SuiteRun["report"], exit: 0 };
  } catch {
    return undefined;
  }
}

/** The widest profile the kit has: one run under it, every other profile re-judged from it (rescore.ts). */
const WIDEST: Profile = "exact";

/**
 * Reruns once, alone, a target's load-dependent cases (one run of the CLI for all of them: one start-up, one case at
 * a time). A rerun report an interrupted run left in the work directory is used as it is; with reruns off and no such
 * report, the cases are only named (`notRerun`: each row lists them as not rerun).
 */
async function rerunLoadDependent(
  root: string,
  t: Target,
  report: Report,
  ctx: Pick<Ctx, "log" | "tmp" | "bounds" | "resume" | "reruns">,
): Promise<{ reruns: Rerun[] } | { notRerun: string[] }> {
  const firsts = report.cases.filter((c) => loadDependent(c, ctx.bounds));
  const ids = firsts.map((c) => c.id);
  if (!firsts.length) return { reruns: [] };
  const file = join(ctx.tmp, `${t.id}-rerun.json`);
  const kept = ctx.resume ? keptReport(file) : undefined;
  if (!kept && !ctx.reruns) return { notRerun: ids };
  ctx.log(`${t.id}: ${ids.join(", ")} once more, one at a time (verdicts that depend on load)`);
  const again = kept ?? (await runSuites(root, servedOverStdio(root, t), WIDEST, file, t.runTimeoutMs, ids));
  return {
    reruns: firsts.map((first) => {
      const rerun =
        (again.report as Report | undefined)?.cases.find((c) => c.id === first.id)?.status ??
        `no report (${again.reason ?? "?"})`;
      return { case: first.id, first: first.status, rerun, flipped: rerun !== first.status };
    }),
  };
}

interface Ctx {
  suites: string[];
  suiteOf: Map<string, string>;
  install: boolean;
  installed: Map<string, { ok: boolean; reason?: string }>;
  log: (l: string) => void;
  tmp: string;
  /** Cases run at once within one target's run (the CLI's --jobs). */
  jobs: number;
  /** Each timed case's longest time bound in ms (runner/schedule.ts longestBoundMs). */
  bounds: ReadonlyMap<string, number>;
  /** tmp is an earlier run's work directory: reuse the reports in it. */
  resume: boolean;
  /** Rerun the load-dependent cases (--no-reruns: false). */
  reruns: boolean;
}

/** A target's row before it runs, or its finished row when it cannot run (not built, its install failed). */
function prepare(t: Target, ctx: Ctx): { row: ImplementationResult; done: boolean } {
  const row: ImplementationResult = {
    id: t.id,
    name: t.id,
    version: "",
    language: "",
    driver: t.display,
    ...(t.folder ? { folder: t.folder } : {}),
    ...(t.note ? { note: t.note } : {}),
    ...(t.pins ? { pins: t.pins } : {}),
    status: "ran",
    cells: [],
  };
  if (t.missing) return { row: { ...row, status: "not_built", reason: t.missing }, done: true };
  if (t.installDir && ctx.install) {
    // One install per folder, shared by its rows; cached across runs by its lockfile (run-suites.ts npmCi).
    let r = ctx.installed.get(t.installDir);
    if (!r) {
      r = npmCi(t.installDir);
      ctx.log(
        `${t.id}: ${"cached" in r && r.cached ? "installed from this lockfile already (npm ci skipped)" : r.ok ? "npm ci" : "npm ci failed"}`,
      );
      ctx.installed.set(t.installDir, r);
    }
    if (!r.ok)
      return { row: { ...row, status: "install_failed", ...(r.reason ? { reason: r.reason } : {}) }, done: true };
  }
  return { row, done: false };
}

interface Ran {
  row: ImplementationResult;
  report?: Report;
  widest?: string | undefined;
}

/** One run of the kit's command line on every suite, under the widest profile, `ctx.jobs` cases at once. */
async function runTarget(
  root: string,
  t: Target,
  row: ImplementationResult,
  profiles: readonly (string | undefined)[],
  ctx: Ctx,
): Promise<Ran> {
  const out = { ...row };
  const widest = profiles.includes(WIDEST) ? WIDEST : profiles[0];
  ctx.log(
    `${t.id}: every suite, profile ${widest ?? "default"}${widest === WIDEST ? " (the others re-judged from it)" : ""}, ${ctx.jobs} case(s) at once`,
  );
  const t0 = performance.now();
  const file = join(ctx.tmp, `${t.id}.json`);
  const kept = ctx.resume ? keptReport(file) : undefined;
  if (kept) ctx.log(`${t.id}: its report from the interrupted run is used (${file})`);
  const run =
    kept ?? (await runSuites(root, servedOverStdio(root, t), widest, file, t.runTimeoutMs, undefined, ctx.jobs));
  // A kept report's time was the interrupted run's and is not known here: no seconds rather than a false 0.
  if (!kept) {
    const seconds = { run: Math.round((performance.now() - t0) / 1000), jobs: ctx.jobs };
    out.seconds = seconds;
    ctx.log(`${t.id}: ran in ${seconds.run} s`);
  }
  if (!run.report) {
    for (const p of profiles) out.cells.push(...errorCells(p ?? "default", ctx.suites, run.reason ?? "no report"));
    return { row: { ...out, status: "errored", ...(run.reason ? { reason: run.reason } : {}) } };
  }
  const report = run.report as Report;
  const im = report.implementation;
  if (im) Object.assign(out, { name: im.name ?? out.name, version: im.version ?? "", language: im.language ?? "" });
  if (report.capabilities) out.capabilities = report.capabilities;
  if (report.unobserved?.length) out.unobserved = report.unobserved;
  return { row: out, report, widest };
}

/** The row's cells, rule counts and findings under every profile, from its first run. */
function judge(ran: Ran, profiles: readonly (string | undefined)[], ctx: Ctx): ImplementationResult {
  const { row: out, report, widest } = ran;
  if (!report) return out;
  out.spec_rules = {};
  for (const p of profiles) {
    const label = p ?? "default";
    const judged = p && p !== widest && isProfile(p) ? rescore(report, p) : report;
    if (judged.rule_counts) out.spec_rules[label] = { ...judged.rule_counts.spec };
    if (label === "spec") out.findings = findingsOf(judged);
    out.cells.push(...cellsFromReport(judged, label, ctx.suites, ctx.suiteOf));
  }
  return out;
}

/** The spec rules a run fails, each with its first showing mismatch (the report's example). */
function findingsOf(r: Report): Finding[] {
  return r.rules
    .filter((x) => x.source === "spec" && x.status === "failed" && x.example)
    .map((x) => ({
      rule: x.id,
      level: x.level,
      statement: x.statement,
      cites: x.cites,
      cases: x.cases,
      case: x.example!.case,
      at: x.example!.at,
      what: x.example!.what,
      expected: x.example!.expected,
      actual: x.example!.actual,
      ...(x.example!.call !== undefined ? { call: x.example!.call } : {}),
    }));
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
  const tmp = opts.resume ?? mkdtempSync(join(tmpdir(), "skill-compat-"));
  log(`work directory ${tmp}: if this run is interrupted, --resume ${tmp} reuses the reports it finished`);
  const implementations: ImplementationResult[] = [];
  try {
    const ctx: Ctx = {
      suites: suites.map((s) => s.id),
      suiteOf,
      install: opts.install ?? true,
      installed: new Map(),
      log,
      tmp,
      jobs: opts.jobs ?? DEFAULT_JOBS,
      resume: opts.resume !== undefined,
      reruns: opts.reruns !== false,
      bounds: new Map(
        listSuites().flatMap((id) =>
          loadCases(id)
            .map((c) => [c.id, longestBoundMs(c)] as const)
            .filter(([, ms]) => ms > 0),
        ),
      ),
    };
    // Installs one after another (npm's cache and the network), then the runs side by side.
    const prepared = targets.map((t) => prepare(t, ctx));
    const order = longestFirst(targets.length, (i) => opts.earlierSeconds?.[targets[i]!.id]);
    const runs = await inPool<Target, Ran>(
      targets,
      opts.parallel ?? DEFAULT_PARALLEL,
      (t, i) =>
        prepared[i]!.done
          ? Promise.resolve({ row: prepared[i]!.row })
          : runTarget(root, t, prepared[i]!.row, profiles, ctx),
      order,
    );
    // Nothing else runs now: the load-dependent reruns get the machine to themselves.
    for (const [i, ran] of runs.entries()) {
      if (!ran.report || ran.widest !== WIDEST) continue;
      const t0 = performance.now();
      const r = await rerunLoadDependent(root, targets[i]!, ran.report, ctx);
      if ("notRerun" in r) {
        if (r.notRerun.length) ran.row.not_rerun = r.notRerun;
      } else if (r.reruns.length) {
        ran.row.reruns = r.reruns;
        ran.row.seconds = { ...ran.row.seconds, reruns: Math.round((performance.now() - t0) / 1000) };
      }
    }
    implementations.push(...runs.map((ran) => judge(ran, profiles, ctx)));
    const n = opts.skills ?? 1000;
    if (n > 0) {
      log(`timing: generating ${n} skills`);
      const tree = await generateSkills(n);
      try {
        for (const [i, t] of targets.entries()) {
          if (implementations[i]!.status !== "ran" && implementations[i]!.status !== "errored") continue;
          log(`${t.id}: discovery and activation of ${n} skills`);
          const t0 = performance.now();
          const row = implementations[i]!;
          row.timing = await measureTiming(root, t, tree, {
            ...(opts.calls ? { calls: opts.calls } : {}),
          });
          row.seconds = { ...row.seconds, timing: Math.round((performance.now() - t0) / 1000) };
        }
      } finally {
        await tree.disposeAsync();
      }
    }
  } finally {
    if (!opts.resume) rmSync(tmp, { recursive: true, force: true });
  }
  const kitVersion = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const commit = gitCommit(root);
  // Only the rules some cell fails or finds incidentally: the page explains those, the table itself is schemas/rules.json.
  const failing = new Set(
    implementations.flatMap((i) => i.cells.flatMap((c) => [...c.failing, ...c.incidental].map((f) => f.id))),
  );
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
    ...(opts.resume ? { resumed: true as const } : {}),
  };
}
