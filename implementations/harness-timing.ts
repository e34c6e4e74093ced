// Discovery and activation time of real harnesses, measured from outside through the same driver interface
// the kit runs them by (createSession → catalog() → call()), on the same generated skill trees
// (bench/generate.ts) and beside the reference measured in the same run, so the ratios compare like with
// like on whatever machine runs it. For `npm run compat` (h-harness-b), as a function or a command:
//
//   import { measureHarnessTimings } from "./implementations/harness-timing.ts";
//   const report = await measureHarnessTimings({ drivers: [...], sizes: [1000, 10000] });
//
//   npx tsx implementations/harness-timing.ts [--sizes 1000,10000] [--reps 3] [--calls 5] [--out out/harness-timing.json]
//        [driver.mjs ...]        (default: implementations/gemini-cli/driver.mjs implementations/opencode/driver.mjs)
//
// discovery = a fresh session over the tree's one root until its catalog() answers (what a harness does
// before the model sees a tool); activation = one first-time `ok` call of a skill in a session whose
// catalog is done (distinct skills spread over the tree). Medians and minimums of `reps` sessions and of
// `calls` activations per session. Not a test: nothing here runs in `npm test`.
import { mkdirSync, writeFileSync } from "node:fs";
import { arch, cpus, platform } from "node:os";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { generateSkills, type SkillTree } from "../bench/generate.ts";
import { codePath } from "../package-root.ts";
import type { InProcessModule, SessionHandle } from "../schemas/implementation.ts";
import type { SessionConfig } from "../schemas/index.ts";

export interface TimingDriver {
  /** Module exporting createSession (and implementationInfo); "reference" for the kit's own. */
  module: string;
}

export interface Figure {
  median_ms: number;
  min_ms: number;
  samples: number;
}

export interface HarnessTiming {
  implementation: string;
  version: string;
  module: string;
  skills: number;
  catalog_entries: number | null;
  discovery: Figure | null;
  activation: Figure | null;
  /** Each figure divided by the reference's for the same tree (null for the reference or a missing figure). */
  ratio_to_reference: { discovery: number | null; activation: number | null };
  error?: string;
}

export interface TimingReport {
  started_at: string;
  node: string;
  platform: string;
  cpu: string;
  sizes: number[];
  reps: number;
  calls: number;
  method: string;
  results: HarnessTiming[];
}

const METHOD =
  "From outside, through each driver's createSession/catalog/call: discovery = createSession over the tree's " +
  "one root + catalog(); activation = one first-time call per distinct skill after the catalog. Same generated " +
  "trees (bench/generate.ts) for every implementation, reference measured in the same run.";

function figure(samples: number[]): Figure | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median_ms: round(median), min_ms: round(sorted[0]!), samples: samples.length };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

async function load(module: string): Promise<InProcessModule> {
  const url = pathToFileURL(module === "reference" ? codePath("reference/index") : resolve(module)).href;
  return (await import(url)) as InProcessModule;
}

function infoOf(mod: InProcessModule, module: string) {
  const info = typeof mod.implementationInfo === "function" ? mod.implementationInfo() : mod.implementationInfo;
  return { name: info?.implementation.name ?? module, version: info?.implementation.version ?? "" };
}

function configFor(tree: SkillTree): SessionConfig {
  return { skill_roots: [tree.root], skill_trust: { trusted_roots: [tree.root] } };
}

/** Names spread evenly over the sorted tree, so no harness is timed on its first entries only. */
function spread(names: string[], count: number): string[] {
  const step = Math.max(1, Math.floor(names.length / (count + 1)));
  return Array.from({ length: Math.min(count, names.length) }, (_, i) => names[(i + 1) * step]!);
}

async function timeOne(mod: InProcessModule, tree: SkillTree, reps: number, calls: number) {
  const discovery: number[] = [];
  const activation: number[] = [];
  let entries: number | null = null;
  for (let rep = 0; rep < reps; rep++) {
    const t0 = performance.now();
    const session: SessionHandle = await mod.createSession(configFor(tree), {});
    const catalog = await session.catalog();
    discovery.push(performance.now() - t0);
    entries = catalog.entries.length;
    // Every repetition activates other skills: each call is a first activation.
    for (const name of spread(tree.names, calls * reps).slice(rep * calls, rep * calls + calls)) {
      const t1 = performance.now();
      const result = await session.call({ name }, { invocation: "model" });
      const elapsed = performance.now() - t1;
      if (result.kind !== "ok")
        throw new Error(`activating ${name} answered ${result.kind}${"code" in result ? ` ${result.code}` : ""}`);
      activation.push(elapsed);
    }
    await session.close();
  }
  return { discovery: figure(discovery), activation: figure(activation), entries };
}

function ratio(value: Figure | null, base: Figure | null | undefined): number | null {
  if (!value || !base || base.median_ms <= 0) return null;
  return Math.round((value.median_ms / base.median_ms) * 10) / 10;
}

export async function measureHarnessTimings(opts: {
  drivers: TimingDriver[];
  sizes?: number[];
  reps?: number;
  calls?: number;
  log?: (line: string) => void;
  /** Called with the report so far after each figure (a long run keeps what it measured). */
  onRow?: (report: TimingReport) => void;
}): Promise<TimingReport> {
  const sizes = opts.sizes ?? [1000, 10000];
  const reps = opts.reps ?? 3;
  const calls = opts.calls ?? 5;
  const log = opts.log ?? (() => {});
  const modules = [{ module: "reference" }, ...opts.drivers.filter((d) => d.module !== "reference")];
  // A driver that starts a server at import (OpenCode's) would load the machine while the reference is timed.
  process.env["OPENCODE_DRIVER_LAZY"] = "1";
  const loaded = [];
  for (const d of modules) loaded.push({ ...d, mod: await load(d.module) });
  // One untimed round per implementation on a small tree: server start-up and JIT warm-up are not discovery.
  const small = await generateSkills(10);
  try {
    for (const { mod } of loaded) await timeOne(mod, small, 1, 1).catch(() => {});
  } finally {
    await small.disposeAsync();
  }
  const report: TimingReport = {
    started_at: new Date().toISOString(),
    node: process.version,
    platform: `${platform()} ${arch()}`,
    cpu: cpus()[0]?.model ?? "",
    sizes,
    reps,
    calls,
    method: METHOD,
    results: [],
  };
  for (const size of sizes) {
    const tree = await generateSkills(size);
    try {
      let reference: HarnessTiming | undefined;
      for (const { module, mod } of loaded) {
        const { name, version } = infoOf(mod, module);
        const row: HarnessTiming = {
          implementation: name,
          version,
          module,
          skills: size,
          catalog_entries: null,
          discovery: null,
          activation: null,
          ratio_to_reference: { discovery: null, activation: null },
        };
        try {
          const t = await timeOne(mod, tree, reps, calls);
          Object.assign(row, { catalog_entries: t.entries, discovery: t.discovery, activation: t.activation });
        } catch (err) {
          row.error = err instanceof Error ? err.message : String(err);
        }
        if (module === "reference") reference = row;
        else
          row.ratio_to_reference = {
            discovery: ratio(row.discovery, reference?.discovery),
            activation: ratio(row.activation, reference?.activation),
          };
        log(
          `${size} skills  ${name} ${version}: discovery ${row.discovery?.median_ms ?? "-"} ms, activation ${row.activation?.median_ms ?? "-"} ms` +
            (row.error ? `  (error: ${row.error})` : ""),
        );
        report.results.push(row);
        opts.onRow?.(report);
      }
    } finally {
      await tree.disposeAsync();
    }
  }
  return report;
}

// Run as a command (not imported by npm run compat). By name: the kit's modules never locate themselves (package-root.ts).
const isMain = /[\\/]harness-timing\.ts$/.test(process.argv[1] ?? "");
if (isMain) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      sizes: { type: "string", default: "1000,10000" },
      reps: { type: "string", default: "3" },
      calls: { type: "string", default: "5" },
      out: { type: "string", default: "out/harness-timing.json" },
    },
  });
  const out = resolve(process.env["INIT_CWD"] ?? process.cwd(), values.out!);
  mkdirSync(dirname(out), { recursive: true });
  const write = (r: TimingReport) => writeFileSync(out, JSON.stringify(r, null, 2) + "\n");
  const drivers = (
    positionals.length ? positionals : ["implementations/gemini-cli/driver.mjs", "implementations/opencode/driver.mjs"]
  ).map((module) => ({ module }));
  const report = await measureHarnessTimings({
    drivers,
    sizes: values.sizes!.split(",").map(Number),
    reps: Number(values.reps),
    calls: Number(values.calls),
    log: (line) => console.error(line),
    onRow: (partial) => write(partial),
  });
  write(report);
  console.log(`wrote ${values.out}`);
  process.exit(0);
}
