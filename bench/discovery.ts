// Discovery benchmarks: a fresh session's first catalog() over 1,000 and 10,000 generated skills (the
// reference's FilesystemSkillRegistry scan: list the root, lstat, fence with two realpaths, open/fstat/read
// each SKILL.md, parse and validate the frontmatter, build the catalog text), each beside its I/O floor
// measured in the same run. Target: discovery ≤ 2× the floor at 10,000 skills (the ratio column is the
// figure; targetMs is set to 2× the floor's median measured just before, so the table shows ok/OVER).
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { LIMITS } from "../schemas/index.ts";
import { createSession } from "../reference/index.ts";
import type { Benchmark } from "./matrix.ts";
import { sharedSkillTree, type SkillTree } from "./generate.ts";
import { mapLimit } from "../reference/pool.ts";

export interface DiscoveryOptions {
  /** Skill counts to measure (default 1,000 and 10,000). */
  sizes?: number[];
  /** Repetitions of every entry (default 3, and 2 above 1,000 skills: a 10,000-skill discovery takes seconds). */
  reps?: number;
  /**
   * Warm-up runs the harness makes before the timed ones (runBenchmarks' `warmup`, default 1). For the
   * reference entries above 1,000 skills a warm-up run discovers the 1,000-skill tree instead (warms the
   * JIT at a tenth of the cost; the page cache of the big tree is already warm from its floor entry).
   */
  warmup?: number;
}

const CONCURRENCY = LIMITS.discovery_concurrency;


/**
 * The I/O floor: what any discovery must do at least. stat the root, list it (node:fs/promises readdir,
 * dot-entries dropped, sorted), then for every subdirectory open its SKILL.md, fstat it (the size cap
 * needs it), read it whole into a Buffer and close it: the same node:fs/promises FileHandle calls the
 * reference's readSkillFile makes, through the same mapLimit pool at LIMITS.discovery_concurrency (64).
 * No UTF-8 decode, no frontmatter split, no YAML, no validation, no lstat/realpath fence, no catalog text.
 * Returns the bytes read, so the work cannot be optimised away.
 */
export async function ioFloor(root: string): Promise<{ files: number; bytes: number }> {
  const info = await stat(root);
  if (!info.isDirectory()) throw new Error(`${root} is not a directory`);
  const names = (await readdir(root)).filter((n) => !n.startsWith(".")).sort();
  const sizes = await mapLimit(names, CONCURRENCY, async (n) => {
    let handle;
    try {
      handle = await open(join(root, n, "SKILL.md"), "r");
      await handle.stat();
      return (await handle.readFile()).length;
    } catch {
      return -1;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  });
  let bytes = 0;
  let files = 0;
  for (const s of sizes) if (s >= 0) (files++, (bytes += s));
  return { files, bytes };
}

/** A fresh reference session's first catalog(): discovery, validation and the catalog text. */
export async function discoverOnce(root: string): Promise<{ entries: number; warnings: number; descriptionBytes: number }> {
  const session = createSession({ skill_roots: [root], skill_trust: { trusted_roots: [root] } }, {});
  try {
    const c = await session.catalog();
    return { entries: c.entries.length, warnings: c.warnings.length, descriptionBytes: Buffer.byteLength(c.tool_description) };
  } finally {
    await session.close();
  }
}

const label = (n: number): string => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function benchmarks(opts: DiscoveryOptions = {}): Benchmark[] {
  const sizes = opts.sizes ?? [1000, 10_000];
  const out: Benchmark[] = [];
  for (const n of sizes) {
    let tree: SkillTree | null = null;
    /** The floor's own timings in this run (its run() times itself too), to set the 2× target. */
    const floorSamples: number[] = [];
    let floorMedian = 0;
    const floorId = `discovery.io-floor.${label(n)}`;
    const reps = opts.reps ?? (n > 1000 ? 2 : 3);
    const warmup = opts.warmup ?? 1;
    let runs = 0;
    out.push({
      id: floorId,
      title: `I/O floor for ${n} skills: list the root, open/fstat/read/close every SKILL.md (no parsing), concurrency ${CONCURRENCY}`,
      reps,
      async setup() {
        tree = await sharedSkillTree(n);
        floorSamples.length = 0;
      },
      async run() {
        const t0 = performance.now();
        const r = await ioFloor(tree!.root);
        floorSamples.push(performance.now() - t0);
        if (r.files !== n) throw new Error(`io floor read ${r.files} SKILL.md files, expected ${n}`);
        return `${r.files} files, ${(r.bytes / 1024 / 1024).toFixed(1)} MiB`;
      },
    });
    out.push({
      id: `discovery.reference.${label(n)}`,
      title: `a fresh session's first catalog() over ${n} generated skills (FilesystemSkillRegistry scan + catalog text)`,
      baseline: floorId,
      reps,
      async setup() {
        tree = await sharedSkillTree(n);
        runs = 0;
        if (n < 10_000) return;
        // The target (discovery ≤ 2× the I/O floor at 10,000 skills) is a ratio; the harness wants ms,
        // fixed before it measures: 2× the floor's median from this run (warm-up dropped), or, when the
        // floor entry was filtered out, from a 3-run probe here.
        const measured = floorSamples.slice(warmup);
        if (measured.length > 0) floorMedian = median(measured);
        else {
          const probe: number[] = [];
          for (let i = 0; i < 3; i++) {
            const t0 = performance.now();
            await ioFloor(tree.root);
            probe.push(performance.now() - t0);
          }
          floorMedian = median(probe);
        }
        this.targetMs = Math.round(2 * floorMedian);
      },
      async run() {
        if (runs++ < warmup && n > 1000) {
          await discoverOnce((await sharedSkillTree(1000)).root); // warm-up, untimed by the harness
          return;
        }
        const r = await discoverOnce(tree!.root);
        if (r.entries !== n || r.warnings !== 0) throw new Error(`discovery found ${r.entries} skills and ${r.warnings} warnings, expected ${n} and 0`);
        return `${r.entries} skills${n >= 10_000 ? `; target = 2× floor median ${floorMedian.toFixed(0)} ms` : ""}`;
      },
    });
  }
  return out;
}
