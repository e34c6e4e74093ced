// Spreading one run over several machines: `--shard i/n` runs every n-th trial of the run's plan (the jobs in model,
// scenario, trial order, as an unsharded run would make them), starting at the i-th, so every shard gets a fair share
// of every cell and the shards together hold each trial exactly once. Each shard leaves a manifest beside its
// transcripts (`shard-<i>-of-<n>.json`: what was asked, and which trials of the plan are its own) so `--merge` can
// tell a complete set of shards from a partial or mixed one. Owns: Shard, parseShard, pickShard, ShardManifest,
// manifest reading and writing, checkShards.
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ServedModel } from "./providers/registry.ts";
import type { SamplingApplied } from "./providers/types.ts";
import type { RunSettings } from "./transcript.ts";

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** "2/4" → {index: 2, count: 4}; anything else throws a message naming the form. */
export function parseShard(s: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw new Error(`--shard needs i/n with 1 ≤ i ≤ n (e.g. 2/4), got "${s}"`);
  return { index, count };
}

/** The jobs of one shard with their index in the whole plan: every count-th job, starting at index − 1. */
export function pickShard<T>(jobs: readonly T[], shard: Shard | undefined): { job: T; index: number }[] {
  const all = jobs.map((job, index) => ({ job, index }));
  return shard ? all.filter(({ index }) => index % shard.count === shard.index - 1) : all;
}

/** A trial of the plan: its place in the unsharded order and what identifies its transcript. */
export interface PlannedTrial {
  index: number;
  model: string;
  scenario: string;
  trial: number;
}

/** What a shard was asked to do; every shard of a run must agree on all of it but `shard` and `trials`. */
export interface ShardManifest {
  kind: "skill-tool-e2e-shard";
  version: 1;
  shard: Shard;
  implementation: string;
  n: number;
  scenarios: string[];
  /** Each model as the shard's probe found it (what served it may differ between shards' machines). */
  models: { id: string; kind: "real" | "scripted"; sampling?: SamplingApplied; served?: ServedModel }[];
  temperature: number;
  seed?: number;
  settings?: RunSettings;
  kit: string;
  /** Trials in the whole plan (all shards). */
  total: number;
  /** This shard's trials. */
  trials: PlannedTrial[];
}

export function manifestName(shard: Shard): string {
  return `shard-${shard.index}-of-${shard.count}.json`;
}

export function writeManifest(dir: string, m: ShardManifest): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, manifestName(m.shard)), JSON.stringify(m, null, 2) + "\n");
}

/** Every shard manifest under dir (any depth), with its path. */
export function findManifests(dir: string): { file: string; manifest: ShardManifest }[] {
  const out: { file: string; manifest: ShardManifest }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/^shard-\d+-of-\d+\.json$/.test(name)) out.push({ file: p, manifest: readManifest(p) });
    }
  };
  walk(dir);
  return out;
}

function readManifest(file: string): ShardManifest {
  let m: ShardManifest;
  try {
    m = JSON.parse(readFileSync(file, "utf8")) as ShardManifest;
  } catch (e) {
    throw new Error(`${file}: not a shard manifest (${(e as Error).message})`);
  }
  if (m?.kind !== "skill-tool-e2e-shard" || m.version !== 1 || !Array.isArray(m.trials))
    throw new Error(
      `${file}: not a shard manifest of this kit (kind ${String(m?.kind)}, version ${String(m?.version)})`,
    );
  return m;
}

/**
 * The fields every shard of one run shares, as a comparable string per field. What served each model is left out:
 * shards on different machines reach different servers; merge.ts compares the weights themselves.
 */
function shared(m: ShardManifest): Record<string, string> {
  const { shard: _s, trials: _t, ...rest } = m;
  const models = rest.models.map(({ served: _served, ...model }) => model);
  return Object.fromEntries(Object.entries({ ...rest, models }).map(([k, v]) => [k, JSON.stringify(v)]));
}

/**
 * Checks that the manifests are one run's shards, each exactly once and all of them; returns the run's plan (the
 * shared fields) and every planned trial in the unsharded order. Throws with what is missing, doubled or different.
 */
export function checkShards(found: readonly { file: string; manifest: ShardManifest }[]): {
  plan: Omit<ShardManifest, "shard" | "trials">;
  trials: PlannedTrial[];
  served: Map<string, ServedModel[]>;
} {
  if (found.length === 0)
    throw new Error(
      "no shard manifest (shard-<i>-of-<n>.json) found: give the --transcripts directories of runs made with --shard i/n",
    );
  const first = found[0]!;
  const base = shared(first.manifest);
  for (const f of found.slice(1)) {
    const mine = shared(f.manifest);
    const differ = Object.keys({ ...base, ...mine }).filter((k) => base[k] !== mine[k]);
    if (differ.length)
      throw new Error(
        `${f.file} and ${first.file} are not shards of the same run: they differ in ${differ.join(", ")}`,
      );
  }
  const count = first.manifest.shard.count;
  const seen = new Map<number, string>();
  for (const f of found) {
    if (f.manifest.shard.count !== count)
      throw new Error(
        `${f.file} is shard ${f.manifest.shard.index}/${f.manifest.shard.count}, ${first.file} one of ${count}`,
      );
    const other = seen.get(f.manifest.shard.index);
    if (other) throw new Error(`shard ${f.manifest.shard.index}/${count} is given twice: ${other} and ${f.file}`);
    seen.set(f.manifest.shard.index, f.file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length)
    throw new Error(
      `shard(s) ${missing.map((i) => `${i}/${count}`).join(", ")} missing: give every shard's transcript directory (found ${[
        ...seen.keys(),
      ]
        .sort((a, b) => a - b)
        .map((i) => `${i}/${count}`)
        .join(", ")})`,
    );
  const trials = found.flatMap((f) => f.manifest.trials).sort((a, b) => a.index - b.index);
  if (trials.length !== first.manifest.total || trials.some((t, i) => t.index !== i))
    throw new Error(
      `the shards' trials do not make up the plan of ${first.manifest.total} trials (made by different commands?)`,
    );
  const { shard: _s, trials: _t, ...plan } = first.manifest;
  return { plan, trials, served: servedByShard(found) };
}

/** Per model, each distinct record of what served it across the shards (one when every shard reached the same). */
function servedByShard(found: readonly { manifest: ShardManifest }[]): Map<string, ServedModel[]> {
  const out = new Map<string, ServedModel[]>();
  for (const f of found) {
    for (const m of f.manifest.models) {
      if (!m.served) continue;
      const seen = out.get(m.id) ?? [];
      if (!seen.some((x) => JSON.stringify(x) === JSON.stringify(m.served))) seen.push(m.served);
      out.set(m.id, seen);
    }
  }
  return out;
}
