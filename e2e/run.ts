// Running trials: scenario × model × n, with bounded concurrency, each trial through the fixed loop, its transcript
// saved as JSONL and judged by the scenario's checker; and re-scoring saved transcripts offline (no model needed).
// Owns: runTrials, rescoreDir, transcriptPath (judging is judge.ts).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Implementation } from "../schemas/implementation.ts";
import { runTrial } from "./loop.ts";
import type { ModelProvider } from "./providers/types.ts";
import { judge } from "./judge.ts";
import type { Scenario } from "./scenario.ts";
import type { TrialResult } from "./score.ts";
import { parseTranscript, serialiseTranscript, type Trial } from "./transcript.ts";

export interface RunOptions {
  scenarios: readonly Scenario[];
  providers: readonly ModelProvider[];
  implementation: Implementation;
  n: number;
  concurrency: number;
  temperature: number;
  seed?: number;
  maxTokens?: number;
  maxSteps?: number;
  /** Where transcripts go (one JSONL per trial); none → not saved. */
  transcriptsDir?: string;
  keepWorkspaces?: boolean;
  signal?: AbortSignal;
  onStart?: (total: number) => void;
  onResult?: (r: TrialResult, done: number, total: number) => void;
}

/** Judging lives in judge.ts; re-exported here for the existing callers. */
export { judge } from "./judge.ts";

export function transcriptPath(dir: string, model: string, scenario: string, trial: number): string {
  return join(dir, model.replace(/[^A-Za-z0-9._-]+/g, "_"), `${scenario}-${String(trial).padStart(3, "0")}.jsonl`);
}

export async function runTrials(opts: RunOptions): Promise<TrialResult[]> {
  const jobs: { scenario: Scenario; provider: ModelProvider; trial: number }[] = [];
  for (const provider of opts.providers) {
    for (const scenario of opts.scenarios) {
      if (provider.appliesTo && !provider.appliesTo(scenario.id)) continue;
      for (let trial = 1; trial <= opts.n; trial++) jobs.push({ scenario, provider, trial });
    }
  }
  opts.onStart?.(jobs.length);
  const results: TrialResult[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      const job = jobs[i];
      if (!job || opts.signal?.aborted) return;
      const events = await runTrial({
        scenario: job.scenario,
        provider: job.provider,
        implementation: opts.implementation,
        trial: job.trial,
        temperature: opts.temperature,
        ...(opts.seed !== undefined ? { seed: opts.seed + job.trial - 1 } : {}),
        ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
        ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}),
        ...(opts.keepWorkspaces ? { keepWorkspace: true } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      let file: string | undefined;
      if (opts.transcriptsDir) {
        file = transcriptPath(opts.transcriptsDir, job.provider.id, job.scenario.id, job.trial);
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, serialiseTranscript(events));
      }
      const trial = parseTranscript(serialiseTranscript(events));
      const end = trial.end;
      const r: TrialResult = {
        scenario: job.scenario.id,
        model: job.provider.id,
        modelKind: job.provider.kind,
        trial: job.trial,
        ...judge(trial, job.scenario),
        ...(file ? { transcript: file } : {}),
        ...(end ? { durationMs: end.durationMs } : {}),
      };
      results[i] = r;
      done++;
      opts.onResult?.(r, done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, jobs.length)) }, worker));
  return results.filter((r) => r !== undefined);
}

/** Every *.jsonl under dir, sorted. */
export function findTranscripts(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".jsonl")) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Re-judges saved transcripts with the current checkers. No model, implementation or workspace is touched. */
export function rescoreDir(dir: string, scenarios: readonly Scenario[]): TrialResult[] {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  return findTranscripts(dir).map((file) => {
    let trial: Trial;
    try {
      trial = parseTranscript(readFileSync(file, "utf8"));
    } catch (err) {
      return {
        scenario: "?",
        model: relative(dir, file),
        modelKind: "real" as const,
        trial: 0,
        outcome: "error" as const,
        reason: `unreadable transcript: ${(err as Error).message}`,
        errorKind: "harness" as const,
        transcript: file,
      };
    }
    return {
      scenario: trial.meta.scenario,
      model: trial.meta.model,
      modelKind: trial.meta.modelKind,
      trial: trial.meta.trial,
      ...judge(trial, byId.get(trial.meta.scenario)),
      transcript: file,
      ...(trial.end ? { durationMs: trial.end.durationMs } : {}),
    };
  });
}
