// Memory of a 10,000-skill catalog: V8 heap used after a session has built its catalog (the session and
// the Catalog it returned both kept alive) minus heap used once they are dropped, and that per skill. With a
// forced full GC before each reading the figure is retained memory; without one it is approximate
// (garbage from the scan is counted too). gc comes from `node --expose-gc`, else it is switched on at
// run time (v8.setFlagsFromString + a fresh vm context, which Node allows); the note says which.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createSession } from "../reference/index.ts";
import type { Catalog } from "../schemas/index.ts";
import type { SessionHandle } from "../schemas/implementation.ts";
import type { Benchmark } from "./matrix.ts";
import { sharedSkillTree, type SkillTree } from "./generate.ts";

export interface CatalogMemory {
  skills: number;
  /** heapUsed with the session and catalog alive − heapUsed once they are dropped, bytes. */
  heap_bytes: number;
  /** heapUsed with them alive − heapUsed before building them (approximately heap_bytes), bytes. */
  before_delta_bytes: number;
  per_skill_bytes: number;
  /** external + arrayBuffers after − before (Buffers outside the V8 heap), bytes. */
  external_bytes: number;
  /** Bytes of the catalog's tool_description string, for scale. */
  tool_description_bytes: number;
  gc: "exposed" | "enabled-at-runtime" | "none (approximate)";
}

let gcFn: (() => void) | null | undefined;
let gcKind: CatalogMemory["gc"] = "none (approximate)";

function getGc(): (() => void) | null {
  if (gcFn !== undefined) return gcFn;
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === "function") {
    gcKind = "exposed";
    return (gcFn = g);
  }
  try {
    setFlagsFromString("--expose-gc");
    const fromVm = runInNewContext("gc") as unknown;
    if (typeof fromVm === "function") {
      gcKind = "enabled-at-runtime";
      return (gcFn = fromVm as () => void);
    }
  } catch {
    // fall through: approximate
  }
  return (gcFn = null);
}

/** Let the event loop turn (objects pinned until the end of the current job get unpinned), then full GCs. */
async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  const gc = getGc();
  if (gc) for (let i = 0; i < 3; i++) gc(); // a few rounds: weak callbacks and finalisers free more
}

async function build(root: string): Promise<{ session: SessionHandle; catalog: Catalog }> {
  const session = createSession({ skill_roots: [root], skill_trust: { trusted_roots: [root] } }, {});
  return { session, catalog: await session.catalog() };
}

/**
 * Build one session's catalog over the tree and report what it keeps on the heap: heap used with the
 * session and its Catalog alive, minus heap used once both are dropped (each reading after full GCs).
 * Measured on release rather than as "after − before" so that memory other code frees meanwhile (e.g. a
 * previous benchmark's session) cannot shrink the figure; before_delta_bytes is the other reading.
 */
export async function catalogMemory(tree: SkillTree): Promise<CatalogMemory> {
  await settle();
  const before = process.memoryUsage();
  let held: { session: SessionHandle; catalog: Catalog } | null = await build(tree.root);
  await settle();
  const live = process.memoryUsage();
  const skills = held.catalog.entries.length;
  const toolDescriptionBytes = Buffer.byteLength(held.catalog.tool_description);
  if (skills !== tree.names.length) throw new Error(`catalog has ${skills} skills, expected ${tree.names.length}`);
  await held.session.close();
  held = null;
  await settle();
  const released = process.memoryUsage();
  const heap = live.heapUsed - released.heapUsed;
  return {
    skills,
    heap_bytes: heap,
    per_skill_bytes: Math.round(heap / Math.max(1, skills)),
    before_delta_bytes: live.heapUsed - before.heapUsed,
    external_bytes: live.external + live.arrayBuffers - (released.external + released.arrayBuffers),
    tool_description_bytes: toolDescriptionBytes,
    gc: gcKind,
  };
}

export function benchmarks(opts: { skills?: number; reps?: number; warmup?: number } = {}): Benchmark[] {
  const n = opts.skills ?? 10_000;
  /** The harness's warm-up runs (runBenchmarks' `warmup`, default 1): skipped here, a heap figure needs none. */
  const warmup = opts.warmup ?? 1;
  let runs = 0;
  let tree: SkillTree | null = null;
  return [
    {
      id: `memory.catalog.${n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : n}`,
      title: `heap retained by a session and its catalog of ${n} generated skills (median ms = discovery with GCs around it)`,
      reps: opts.reps ?? 1,
      async setup() {
        tree = await sharedSkillTree(n);
        runs = 0;
      },
      async run() {
        if (runs++ < warmup) return;
        const m = await catalogMemory(tree!);
        const mib = (b: number) => (b / 1024 / 1024).toFixed(1);
        return `heap ${mib(m.heap_bytes)} MiB = ${m.per_skill_bytes} B/skill (after−before ${mib(m.before_delta_bytes)} MiB; tool_description ${mib(m.tool_description_bytes)} MiB; external ${mib(m.external_bytes)} MiB); gc ${m.gc}`;
      },
    },
  ];
}
