// Merging the shards of one run (`--merge <dir>…`): reads every shard's manifest and transcripts, checks that they
// are all the shards of one run (same command, each shard once, none missing), re-judges each transcript with the
// current checker exactly as the run did, and builds the report an unsharded run would have made: the same trials in
// the same order, the same cells and numbers. A planned trial with no finished transcript is listed as unfinished
// (the report says so, as for an interrupted run); a transcript that belongs to no shard's plan is left out and named.
// Also the manifest a shard writes before its trials. Owns: shardManifest, mergeShards.
import { realpathSync } from "node:fs";
import { sep } from "node:path";
import type { ModelProvider } from "./providers/types.ts";
import { servedDrift, servedText } from "./provenance.ts";
import type { ServedModel } from "./providers/registry.ts";
import { buildReport, type Report, type ReportModel, type ReportVersions } from "./report.ts";
import { planJobs, rescore, transcriptPath, type RunResult, type RescoreSummary } from "./run.ts";
import type { Scenario } from "./scenario.ts";
import { checkShards, findManifests, pickShard, type Shard, type ShardManifest } from "./shard.ts";
import type { RunSettings } from "./transcript.ts";

/** What shard `shard` of this run will do, written before its first trial so even an interrupted shard is accounted for. */
export function shardManifest(a: {
  shard: Shard;
  providers: readonly ModelProvider[];
  scenarios: readonly Scenario[];
  n: number;
  implementation: string;
  temperature: number;
  seed?: number;
  settings?: RunSettings;
  kit: string;
}): ShardManifest {
  const plan = planJobs({ providers: a.providers, scenarios: a.scenarios, n: a.n });
  return {
    kind: "skill-tool-e2e-shard",
    version: 1,
    shard: a.shard,
    implementation: a.implementation,
    n: a.n,
    scenarios: a.scenarios.map((s) => s.id),
    models: a.providers.map((p) => ({
      id: p.id,
      kind: p.kind,
      ...(p.sampling ? { sampling: p.sampling } : {}),
      ...(p.served ? { served: p.served } : {}),
    })),
    temperature: a.temperature,
    ...(a.seed !== undefined ? { seed: a.seed } : {}),
    ...(a.settings && Object.keys(a.settings).length ? { settings: a.settings } : {}),
    kit: a.kit,
    total: plan.length,
    trials: pickShard(plan, a.shard).map(({ job, index }) => ({
      index,
      model: job.provider.id,
      scenario: job.scenario.id,
      trial: job.trial,
    })),
  };
}

const keyOf = (t: { model: string; scenario: string; trial: number }) =>
  `${t.model}\u0000${t.scenario}\u0000${t.trial}`;

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Every directory's transcripts re-judged, each file once however the directories nest. */
function rescoreAll(dirs: readonly string[], scenarios: readonly Scenario[], current: boolean): RescoreSummary {
  const all: RescoreSummary = { results: [], changed: [], scoredUnderCurrent: current, skipped: [] };
  const seen = new Set<string>();
  const fresh = (file: string) => (seen.has(real(file)) ? false : (seen.add(real(file)), true));
  for (const dir of dirs) {
    const s = rescore(dir, scenarios, { current });
    all.results.push(...s.results.filter((r) => fresh(r.transcript ?? "")));
    all.changed.push(...s.changed.filter((c) => fresh(c.transcript)));
    all.skipped.push(...s.skipped.filter((c) => fresh(c.transcript)));
  }
  return all;
}

/**
 * A model as the unsharded run's report names it: what the probe found served it (the first shard's record when the
 * shards' machines differ; the notes and, for other weights, the report say so) and the sampling its requests carried.
 */
function modelOf(
  m: ShardManifest["models"][number],
  results: readonly RunResult[],
  served: readonly ServedModel[] | undefined,
): ReportModel {
  const sent = results.find((r) => r.model === m.id && r.sent)?.sent;
  const { served: _own, ...rest } = m;
  return { ...rest, ...(served?.[0] ? { served: served[0] } : {}), ...(sent ? { sent } : {}) };
}

export interface MergeResult {
  report: Report;
  /** Things the user should know that are not part of the report (transcripts outside every shard's plan). */
  notes: string[];
}

/** The report of the run whose shards' transcript directories are `dirs` (throws when they are not one run's shards). */
export function mergeShards(
  dirs: readonly string[],
  o: { ks: number[]; scenarios: readonly Scenario[]; versions: ReportVersions; current?: boolean },
): MergeResult {
  const seenManifest = new Set<string>();
  const found = dirs
    .flatMap(findManifests)
    .filter((f) => (seenManifest.has(real(f.file)) ? false : (seenManifest.add(real(f.file)), true)));
  const { plan, trials, served } = checkShards(found);
  const planned = new Map(trials.map((t) => [keyOf(t), t]));
  const summary = rescoreAll(dirs, o.scenarios, o.current === true);
  const notes: string[] = [];
  const byKey = new Map<string, RunResult>();
  for (const r of summary.results) {
    if (!planned.has(keyOf(r))) {
      notes.push(
        `left out ${r.transcript ?? r.model}: not a trial of the shards' plan (${r.scenario} × ${r.model} #${r.trial})`,
      );
      continue;
    }
    const twice = byKey.get(keyOf(r));
    if (twice)
      throw new Error(
        `${r.scenario} × ${r.model} #${r.trial} has two transcripts: ${twice.transcript} and ${r.transcript}`,
      );
    byKey.set(keyOf(r), r);
  }
  // A planned trial whose transcript is there but cut off (the shard was interrupted) was started.
  const cutOff = summary.skipped.map((s) => s.transcript);
  const changed = new Set(summary.changed.filter(() => !summary.scoredUnderCurrent).map((c) => keyOf(c)));
  const unfinished = trials
    .filter((t) => !byKey.has(keyOf(t)) && !changed.has(keyOf(t)))
    .map((t) => ({
      scenario: t.scenario,
      model: t.model,
      trial: t.trial,
      started: cutOff.some((f) => f.endsWith(sep + transcriptPath("", t.model, t.scenario, t.trial))),
    }));
  const results = trials.flatMap((t) => byKey.get(keyOf(t)) ?? []);
  const drift = servedDrift(results);
  for (const [model, records] of served)
    if (records.length > 1)
      notes.push(`${model} was served differently by the shards' machines: ${records.map(servedText).join(" | ")}`);
  const report = buildReport({
    results,
    ks: o.ks,
    n: plan.n,
    implementation: plan.implementation,
    temperature: plan.temperature,
    ...(plan.seed !== undefined ? { seed: plan.seed } : {}),
    ...(plan.settings ? { settings: plan.settings } : {}),
    scenarios: o.scenarios.map((s) => ({ id: s.id, title: s.title })),
    versions: o.versions,
    models: plan.models.map((m) => modelOf(m, results, served.get(m.id))),
    interrupted: { unfinished },
    ...(summary.changed.length || drift.length
      ? {
          rescore: {
            changed: summary.changed,
            scoredUnderCurrent: summary.scoredUnderCurrent,
            skipped: [],
            ...(drift.length ? { served: drift } : {}),
          },
        }
      : {}),
    merged: { shards: found[0]!.manifest.shard.count, from: [...dirs] },
  });
  if (plan.kit !== o.versions.kit)
    notes.push(
      `the shards ran kit ${plan.kit}; this is kit ${o.versions.kit} (each transcript's checker and fixture are compared as in --rescore)`,
    );
  return { report, notes };
}
