// Running trials: scenario × model × n, each trial through the fixed loop, its transcript saved as JSONL and judged
// by the scenario's checker; per-provider concurrency (a local Ollama serves one or two at a time, Bedrock more);
// `resume` reuses complete transcripts of the same trial and versions; an interrupted run stops taking trials and
// says which were cut off (never scored). Also re-scoring saved transcripts offline, saying when the checker or
// fixture changed since a transcript was made. Owns: runAll, runTrials, rescore, rescoreDir, transcriptPath (judging is judge.ts).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Implementation } from "../schemas/implementation.ts";
import { runTrial, type TrialWatch } from "./loop.ts";
import { settingsReaching } from "./providers/index.ts";
import type { ServedModel } from "./providers/registry.ts";
import type { ModelProvider } from "./providers/types.ts";
import { judge } from "./judge.ts";
import { implementationText, reusableTranscript } from "./resume.ts";
import type { Scenario } from "./scenario.ts";
import { pickShard, type Shard } from "./shard.ts";
import type { TrialResult } from "./score.ts";
import { parseTranscript, serialiseTranscript, type RunSettings, type Trial } from "./transcript.ts";
import { trialUsage, type TrialUsage } from "./usage.ts";
import { describeChange, versionsFor, type Versions } from "./versions.ts";

export interface RunOptions {
  scenarios: readonly Scenario[];
  providers: readonly ModelProvider[];
  implementation: Implementation;
  n: number;
  /** Trials in flight at once per provider (ollama, bedrock, scripted), unless concurrencyByProvider says otherwise. */
  concurrency: number;
  concurrencyByProvider?: Partial<Record<string, number>>;
  temperature: number;
  seed?: number;
  maxTokens?: number;
  maxSteps?: number;
  /** Request settings recorded with every trial (and compared on resume). */
  settings?: RunSettings;
  /** Where transcripts go (one JSONL per trial); none → not saved. */
  transcriptsDir?: string;
  /** Skip trials whose complete transcript already exists for the same versions and settings. */
  resume?: boolean;
  /** Run only this shard's share of the plan (shard.ts). */
  shard?: Shard;
  keepWorkspaces?: boolean;
  signal?: AbortSignal;
  onStart?: (total: number, jobs: readonly Job[]) => void;
  onResult?: (r: RunResult, done: number, total: number) => void;
  /** A watcher per trial, to show in-flight model calls. */
  watch?: (job: Job) => TrialWatch;
}

export interface Job {
  scenario: Scenario;
  provider: ModelProvider;
  trial: number;
}

/** A trial's verdict plus what it cost and what it was measured with. */
export interface RunResult extends TrialResult {
  usage?: TrialUsage;
  versions?: Versions;
  /** Taken from an existing transcript by --resume, not run again. */
  resumed?: boolean;
  /** What served the model for this trial (the transcript's meta), and the sampling settings its first call carried. */
  served?: ServedModel;
  sent?: Record<string, unknown>;
}

export interface RunSummary {
  results: RunResult[];
  /** The run was stopped (Ctrl-C) before every trial finished. */
  interrupted: boolean;
  /** Trials cut off mid-way or never started because of the interruption; none of them is scored. */
  unfinished: { scenario: string; model: string; trial: number; started: boolean }[];
  /** How many results came from existing transcripts (--resume). */
  resumed: number;
}

/** Judging lives in judge.ts; re-exported here for the existing callers. */
export { judge } from "./judge.ts";

export function transcriptPath(dir: string, model: string, scenario: string, trial: number): string {
  return join(dir, model.replace(/[^A-Za-z0-9._-]+/g, "_"), `${scenario}-${String(trial).padStart(3, "0")}.jsonl`);
}

/** Every scenario × trial a provider has something to play, in provider, scenario, trial order. */
export function planJobs(opts: Pick<RunOptions, "providers" | "scenarios" | "n">): Job[] {
  const jobs: Job[] = [];
  for (const provider of opts.providers) {
    for (const scenario of opts.scenarios) {
      if (provider.appliesTo && !provider.appliesTo(scenario.id)) continue;
      for (let trial = 1; trial <= opts.n; trial++) jobs.push({ scenario, provider, trial });
    }
  }
  return jobs;
}

export function providerName(p: ModelProvider): string {
  return p.id.slice(0, p.id.indexOf(":"));
}

export async function runTrials(opts: RunOptions): Promise<RunResult[]> {
  return (await runAll(opts)).results;
}

/** Runs every job, each provider's jobs with its own concurrency, and reports what finished and what did not. */
export async function runAll(opts: RunOptions): Promise<RunSummary> {
  const jobs = pickShard(planJobs(opts), opts.shard).map((x) => x.job);
  opts.onStart?.(jobs.length, jobs);
  const results: (RunResult | undefined)[] = new Array(jobs.length);
  const started = new Set<number>();
  let done = 0;
  const worker = async (queue: number[]): Promise<void> => {
    for (let i = queue.shift(); i !== undefined && !opts.signal?.aborted; i = queue.shift()) {
      started.add(i);
      const r = await runJob(jobs[i]!, opts);
      if (r === "interrupted") continue;
      results[i] = r;
      opts.onResult?.(r, ++done, jobs.length);
    }
  };
  const pools = new Map<string, number[]>();
  jobs.forEach((j, i) => pools.set(providerName(j.provider), [...(pools.get(providerName(j.provider)) ?? []), i]));
  await Promise.all(
    [...pools.entries()].flatMap(([name, queue]) => {
      const limit = Math.max(1, Math.min(opts.concurrencyByProvider?.[name] ?? opts.concurrency, queue.length));
      return Array.from({ length: limit }, () => worker(queue));
    }),
  );
  const unfinished = jobs.flatMap((j, i) =>
    results[i] ? [] : [{ scenario: j.scenario.id, model: j.provider.id, trial: j.trial, started: started.has(i) }],
  );
  const finished = results.filter((r): r is RunResult => r !== undefined);
  return {
    results: finished,
    interrupted: unfinished.length > 0,
    unfinished,
    resumed: finished.filter((r) => r.resumed).length,
  };
}

/** One job: reuse its transcript (--resume) or run it, save the transcript, judge it. */
async function runJob(job: Job, opts: RunOptions): Promise<RunResult | "interrupted"> {
  const versions = versionsFor(job.scenario);
  const seed = opts.seed !== undefined ? opts.seed + job.trial - 1 : undefined;
  const file = opts.transcriptsDir
    ? transcriptPath(opts.transcriptsDir, job.provider.id, job.scenario.id, job.trial)
    : undefined;
  // Only what reaches this model is its trial's (recorded, and compared on --resume).
  const settings = opts.settings ? settingsReaching(job.provider.id, opts.settings) : undefined;
  if (opts.resume && file) {
    const key = {
      model: job.provider.id,
      scenario: job.scenario.id,
      trial: job.trial,
      versions,
      temperature: opts.temperature,
      ...(seed !== undefined ? { seed } : {}),
      ...(settings ? { settings } : {}),
      implementation: implementationText(opts.implementation.info.implementation),
    };
    const saved = reusableTranscript(file, key);
    if ("trial" in saved) return { ...resultOf(saved.trial, job.scenario, file), resumed: true };
  }
  const events = await runTrial({
    scenario: job.scenario,
    provider: job.provider,
    implementation: opts.implementation,
    trial: job.trial,
    temperature: opts.temperature,
    versions,
    ...(seed !== undefined ? { seed } : {}),
    ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
    ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}),
    ...(settings ? { settings } : {}),
    ...(opts.keepWorkspaces ? { keepWorkspace: true } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.watch ? { watch: opts.watch(job) } : {}),
  });
  const text = serialiseTranscript(events);
  if (file) {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, text);
  }
  const trial = parseTranscript(text);
  if (trial.end?.outcome === "interrupted") return "interrupted";
  return resultOf(trial, job.scenario, file);
}

/** A finished transcript → its result: the verdict, the transcript's path, what it cost, what it was measured with. */
function resultOf(trial: Trial, scenario: Scenario | undefined, file: string | undefined): RunResult {
  return {
    scenario: trial.meta.scenario,
    model: trial.meta.model,
    modelKind: trial.meta.modelKind,
    trial: trial.meta.trial,
    ...judge(trial, scenario),
    ...(file ? { transcript: file } : {}),
    ...(trial.end ? { durationMs: trial.end.durationMs } : {}),
    usage: trialUsage(trial.events),
    ...(trial.meta.versions ? { versions: trial.meta.versions } : {}),
    ...(trial.meta.served ? { served: trial.meta.served } : {}),
    ...sentOf(trial),
  };
}

/** The sampling settings the trial's first model call carried (the same on every call of a run). */
function sentOf(trial: Trial): { sent?: Record<string, unknown> } {
  const first = trial.assistantTurns().find((a) => a.sent);
  return first?.sent ? { sent: first.sent } : {};
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

export interface RescoreSummary {
  results: RunResult[];
  /** Transcripts whose scenario's checker, fixture or kit changed since they were made, with what changed. */
  changed: { transcript: string; scenario: string; model: string; trial: number; changes: string[] }[];
  /** Whether the changed ones were scored under the current checker (asked for) or left out (the default). */
  scoredUnderCurrent: boolean;
  /** Transcripts never scored: cut off or interrupted (not a model result). */
  skipped: { transcript: string; why: string }[];
}

/**
 * Re-judges saved transcripts with the current checkers. No model, implementation or workspace is touched. A
 * transcript made under another checker or fixture is named with what changed and left out unless `current` asks
 * to score it under the current one anyway (decision R65); a cut-off or interrupted transcript is never scored.
 */
export function rescore(dir: string, scenarios: readonly Scenario[], o: { current?: boolean } = {}): RescoreSummary {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const out: RescoreSummary = { results: [], changed: [], scoredUnderCurrent: o.current === true, skipped: [] };
  for (const file of findTranscripts(dir)) {
    let trial: Trial;
    try {
      trial = parseTranscript(readFileSync(file, "utf8"));
    } catch (err) {
      out.results.push({
        scenario: "?",
        model: relative(dir, file),
        modelKind: "real",
        trial: 0,
        outcome: "error",
        reason: `unreadable transcript: ${(err as Error).message}`,
        errorKind: "harness",
        transcript: file,
      });
      continue;
    }
    if (!trial.end || trial.end.outcome === "interrupted") {
      out.skipped.push({
        transcript: file,
        why: trial.end ? "the run was interrupted during this trial" : "the transcript has no end (cut off)",
      });
      continue;
    }
    const scenario = byId.get(trial.meta.scenario);
    const changes = scenario ? describeChange(trial.meta.versions, versionsFor(scenario)) : [];
    if (changes.length) {
      out.changed.push({
        transcript: file,
        scenario: trial.meta.scenario,
        model: trial.meta.model,
        trial: trial.meta.trial,
        changes,
      });
      if (!o.current) continue;
    }
    out.results.push(resultOf(trial, scenario, file));
  }
  return out;
}

/** rescore(), results only. */
export function rescoreDir(dir: string, scenarios: readonly Scenario[], o: { current?: boolean } = {}): RunResult[] {
  return rescore(dir, scenarios, o).results;
}
