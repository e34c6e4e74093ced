// Owns the compatibility page's time figures: discovery and activation of the same generated skills
// (bench/generate.ts) for every implementation, measured from outside through its driver over stdio, so
// every implementation pays the same protocol round trip. The JS drivers are served by
// scripts/reference-driver.ts <module>, the reference included; exec targets are spawned as they are.
import { performance } from "node:perf_hooks";
import { join } from "node:path";
import { spawnImplementation } from "../driver/subprocess.ts";
import { stdioCommand } from "./targets.ts";
import type { SessionConfig } from "../../schemas/index.ts";
import type { Target } from "./targets.ts";
import type { Timing } from "./types.ts";

export interface TimingOptions {
  /** Fresh sessions whose create + first catalog are timed (default 3). */
  reps?: number;
  /** First activations timed, of distinct skills spread over the tree (default 200). */
  calls?: number;
  /** Per-request deadline: a 10,000-skill discovery may take seconds (default 120 s). */
  requestTimeoutMs?: number;
  /** Untimed activations on an untimed session first (default 20): lazy module loads and JIT out of the figures. */
  warmupCalls?: number;
  /** Wall-clock budget of the timed activations (default 30 s): a harness whose every call is an agent turn of
   *  seconds gets fewer calls, counted in `calls`, instead of holding the whole run (the timing runs alone). */
  budgetMs?: number;
  /** Wall-clock budget of the untimed warm-up activations (default 10 s). */
  warmupBudgetMs?: number;
}

/** The budgets of an implementation's timed activations and of its warm-up: six agent CLIs at 60 s each were a
 *  quarter of a whole compat run; 30 s still times dozens of their turns (the page shows how many). */
export const TIMED_BUDGET_MS = 30_000;
export const WARMUP_BUDGET_MS = 10_000;

/** Nearest-rank percentile of samples (any unit). */
export function percentile(samples: readonly number[], q: number): number {
  if (!samples.length) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

export const median = (xs: readonly number[]): number => percentile(xs, 0.5);

/** `count` names spread evenly over the list (deterministic), so no implementation gets a cache-friendly run. */
export function spread(names: readonly string[], count: number): string[] {
  const n = Math.min(count, names.length);
  return Array.from({ length: n }, (_, i) => names[Math.floor((i * names.length) / n)]!);
}

export async function measureTiming(
  root: string,
  t: Target,
  tree: { root: string; names: readonly string[] },
  opts: TimingOptions = {},
): Promise<Timing> {
  const reps = opts.reps ?? 3;
  const config: SessionConfig = {
    skill_roots: [tree.root],
    skill_trust: { trusted_roots: [tree.root] },
    permission: { hook: false, unsafeAllowSkillWithoutHook: true },
  };
  const impl = await spawnImplementation(stdioCommand(root, t), {
    cwd: root,
    label: t.id,
    requestTimeoutMs: opts.requestTimeoutMs ?? 120_000,
  });
  const base = {
    skills: tree.names.length,
    discovery_ms: NaN,
    discovery_runs_ms: [] as number[],
    listed: 0,
    activation_p50_us: NaN,
    activation_p99_us: NaN,
    calls: 0,
    ok: 0,
  };
  try {
    const names = spread(tree.names, opts.calls ?? 200);
    // Warm-up, untimed: a session of its own, activating names the timed run does not use.
    const warm = await impl.createSession(config, {});
    await warm.catalog();
    const budget = opts.budgetMs ?? TIMED_BUDGET_MS;
    const warmBudget = opts.warmupBudgetMs ?? WARMUP_BUDGET_MS;
    const w0 = performance.now();
    for (const name of spread(
      tree.names.filter((n) => !names.includes(n)),
      opts.warmupCalls ?? 20,
    )) {
      if (performance.now() - w0 > warmBudget) break;
      await warm.call({ name }, { invocation: "model" });
    }
    await warm.close();
    const runs: number[] = [];
    let listed = 0;
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      const s = await impl.createSession(config, {});
      listed = (await s.catalog()).entries.length;
      runs.push(performance.now() - t0);
      await s.close();
    }
    const s = await impl.createSession(config, {});
    await s.catalog();
    const samples: number[] = [];
    let ok = 0;
    let stopped: string | undefined;
    const a0 = performance.now();
    for (const name of names) {
      if (samples.length > 0 && performance.now() - a0 > budget) break;
      const t0 = performance.now();
      let r;
      try {
        r = await s.call({ name }, { invocation: "model" });
      } catch (e) {
        // A harness that stops answering part-way (Copilot CLI after 180 calls in one conversation) keeps the figures
        // of the calls it answered, and the page says where it stopped; with none, the timing is not measured.
        if (!samples.length) throw e;
        stopped = `call ${samples.length + 1} (${name}): ${(e as Error).message.split("\n")[0]!.slice(0, 300)}`;
        break;
      }
      samples.push((performance.now() - t0) * 1000);
      if (r.kind === "ok") ok++;
    }
    await s.close().catch(() => {});
    return {
      ...base,
      discovery_ms: median(runs),
      discovery_runs_ms: runs.map((x) => Math.round(x * 10) / 10),
      listed,
      activation_p50_us: percentile(samples, 0.5),
      activation_p99_us: percentile(samples, 0.99),
      calls: samples.length,
      ok,
      ...(stopped ? { stopped } : {}),
    };
  } catch (e) {
    return {
      ...base,
      error: `${(e as Error).message}${impl.stderrTail?.() ? ` (stderr: ${impl.stderrTail().slice(-300)})` : ""}`,
    };
  } finally {
    await impl.dispose();
  }
}
