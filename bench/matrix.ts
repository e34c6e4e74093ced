// Benchmarks of the conformance matrix, and the small harness `npm run bench` runs them with: a
// Benchmark is one named, repeatable measurement with an optional baseline (another entry measured in
// the same run) and an optional target. Other figures (discovery, activation) add their own entry lists.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadModule } from "../conformance/driver/in-process.ts";
import { spawnImplementation } from "../conformance/driver/subprocess.ts";
import type { Implementation } from "../schemas/implementation.ts";
import { loadCases, runSuite, type LoadedCase } from "../conformance/runner/index.ts";

export interface Benchmark {
  /** Stable id, e.g. "matrix.stdio". */
  id: string;
  title: string;
  /** Id of the entry this one is compared to (ratio = this median / baseline median). Listed earlier. */
  baseline?: string;
  /** Budget for the median, in ms. */
  targetMs?: number;
  /** Repetitions (default: the run's --reps). */
  reps?: number;
  setup?(): Promise<void>;
  /** One repetition. May return a note for the table (e.g. "30/30 passed"). */
  run(): Promise<string | void>;
  teardown?(): Promise<void>;
}

export interface BenchResult {
  id: string;
  title: string;
  reps: number;
  median_ms: number;
  min_ms: number;
  max_ms: number;
  samples_ms: number[];
  baseline?: string;
  /** median / baseline median */
  ratio?: number;
  target_ms?: number;
  within_target?: boolean;
  note?: string;
}

/** The middle of the sorted values (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function runBenchmarks(
  list: Benchmark[],
  opts: { reps: number; warmup?: number; onResult?: (r: BenchResult) => void },
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const byId = new Map<string, BenchResult>();
  for (const b of list) {
    const reps = b.reps ?? opts.reps;
    await b.setup?.();
    try {
      let note: string | undefined;
      for (let i = 0; i < (opts.warmup ?? 1); i++) await b.run();
      const samples: number[] = [];
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        note = (await b.run()) ?? note;
        samples.push(performance.now() - t0);
      }
      const r: BenchResult = {
        id: b.id,
        title: b.title,
        reps,
        median_ms: median(samples),
        min_ms: Math.min(...samples),
        max_ms: Math.max(...samples),
        samples_ms: samples.map((s) => Math.round(s * 100) / 100),
      };
      const base = b.baseline ? byId.get(b.baseline) : undefined;
      if (b.baseline) r.baseline = b.baseline;
      if (base && base.median_ms > 0) r.ratio = r.median_ms / base.median_ms;
      if (b.targetMs !== undefined) {
        r.target_ms = b.targetMs;
        r.within_target = r.median_ms <= b.targetMs;
      }
      if (note) r.note = note;
      results.push(r);
      byId.set(r.id, r);
      opts.onResult?.(r);
    } finally {
      await b.teardown?.();
    }
  }
  return results;
}

export function formatBenchTable(results: BenchResult[]): string {
  const rows = results.map((r) => [
    r.id,
    String(r.reps),
    r.median_ms.toFixed(1),
    r.min_ms.toFixed(1),
    r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}× ${r.baseline}`,
    r.target_ms === undefined ? "" : `${r.within_target ? "ok" : "OVER"} < ${r.target_ms}`,
    r.note ?? "",
  ]);
  const head = ["benchmark", "reps", "median ms", "min ms", "vs baseline", "target ms", "note"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 1 && i <= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

// ---- the matrix -------------------------------------------------------------------------------------

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The reference over stdio, started the fast way (node --import tsx; `npx tsx` adds npx start-up). */
export const REFERENCE_DRIVER_COMMAND = `"${process.execPath}" --import tsx "${join(REPO, "scripts/reference-driver.ts")}"`;
/** The Rust implementation's driver (implementations/rust/build.sh builds it); its entry is left out when it is not built. */
export const RUST_DRIVER = join(REPO, "implementations/rust/target/release/skill-driver");

async function suiteNote(open: () => Promise<Implementation>, cases: LoadedCase[], label: string): Promise<string> {
  const r = await runSuite(open, cases, { driverLabel: label, suite: "spec" });
  return `${r.summary.passed}/${r.summary.total} passed`;
}

export function matrixBenchmarks(opts: { suite?: string; filter?: string } = {}): Benchmark[] {
  let cases: LoadedCase[] = [];
  let emptyRoot = "";
  const openReference = () => loadModule(join(REPO, "reference/index.ts"));
  return [
    {
      id: "session.empty.in-process",
      title: "one empty session per case (create, catalog, close), in-process: the fixed cost the matrix adds work to",
      async setup() {
        cases = loadCases(opts.suite ?? "spec", opts.filter);
        emptyRoot = realpathSync(mkdtempSync(join(tmpdir(), "skill-bench-empty-")));
      },
      async run() {
        const impl = await openReference();
        for (let i = 0; i < cases.length; i++) {
          const s = await impl.createSession({ skill_roots: [emptyRoot] }, {});
          await s.catalog();
          await s.close();
        }
        await impl.dispose();
        return `${cases.length} sessions`;
      },
      async teardown() {
        rmSync(emptyRoot, { recursive: true, force: true });
      },
    },
    {
      id: "matrix.in-process",
      title: "the whole matrix, reference in-process",
      baseline: "session.empty.in-process",
      targetMs: 2000,
      async setup() {
        cases = loadCases(opts.suite ?? "spec", opts.filter);
      },
      run: () => suiteNote(openReference, cases, "reference/index.ts"),
    },
    {
      id: "process.node-startup",
      title: "spawn `node -e ''` and wait for it: the floor under any subprocess driver written in Node",
      async run() {
        await new Promise<void>((resolveRun, reject) => {
          const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
          child.once("error", reject);
          child.once("exit", () => resolveRun());
        });
      },
    },
    {
      id: "stdio.handshake",
      title: "spawn the reference driver, initialize, shutdown (process start-up included)",
      baseline: "process.node-startup",
      async run() {
        const impl = await spawnImplementation(REFERENCE_DRIVER_COMMAND, { cwd: REPO });
        await impl.dispose();
      },
    },
    {
      id: "matrix.stdio",
      title: "the whole matrix, reference over stdio (one spawn, included)",
      baseline: "matrix.in-process",
      targetMs: 3000,
      async setup() {
        cases = loadCases(opts.suite ?? "spec", opts.filter);
      },
      run: () =>
        suiteNote(
          () => spawnImplementation(REFERENCE_DRIVER_COMMAND, { cwd: REPO }),
          cases,
          "scripts/reference-driver.ts",
        ),
    },
    ...(existsSync(RUST_DRIVER)
      ? [
          {
            id: "matrix.stdio.rust",
            title: "the whole matrix, the Rust implementation over stdio (one spawn, included)",
            baseline: "matrix.stdio",
            targetMs: 3000,
            async setup() {
              cases = loadCases(opts.suite ?? "spec", opts.filter);
            },
            run: () =>
              suiteNote(() => spawnImplementation(`"${RUST_DRIVER}"`, { cwd: REPO }), cases, "implementations/rust"),
          },
        ]
      : []),
  ];
}
