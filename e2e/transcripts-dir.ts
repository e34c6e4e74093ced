// Never lose a run (issue 20 item 3, decision R67): before anything runs, the transcripts directory is checked against
// the run about to write into it. A fresh run refuses a directory that already holds transcripts (it would overwrite
// them or mix two runs); --resume refuses one whose transcripts were made with other settings, versions or another
// implementation under test (it would
// replace them, leaving a mix), naming what differs. --overwrite lets either go ahead. Errored, interrupted and
// cut-off transcripts are what --resume is for and never block it. Owns: transcriptsConflict, clearTranscripts.
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { settingsReaching } from "./providers/index.ts";
import { implementationText } from "./resume.ts";
import { findTranscripts } from "./run.ts";
import { parseTranscript, type MetaEvent, type RunSettings } from "./transcript.ts";
import { describeChange, type Versions } from "./versions.ts";

/** What a run writes into every transcript's meta and what --resume must find unchanged. */
export interface RunIdentity {
  temperature: number;
  /** Base seed (trial i uses seed + i − 1). */
  seed?: number;
  settings: RunSettings;
  /** The current versions of a scenario, or undefined for a scenario this kit does not know. */
  versions(scenario: string): Versions | undefined;
  /** The implementation under test: a run's trials must all be of one implementation (name, version, language). */
  implementation?: MetaEvent["implementation"];
}

function metaOf(file: string): MetaEvent | undefined {
  try {
    return parseTranscript(readFileSync(file, "utf8")).meta;
  } catch {
    return undefined;
  }
}

const shown = (v: unknown) => (v === undefined ? "unset" : JSON.stringify(v));

/** How a transcript's recorded settings differ from this run's, in words ("temperature 0.2 (this run: 0.7)"). */
export function settingsChanges(meta: MetaEvent, run: RunIdentity): string[] {
  const out: string[] = [];
  if (meta.temperature !== run.temperature) out.push(`temperature ${meta.temperature} (this run: ${run.temperature})`);
  const base = meta.seed === undefined ? undefined : meta.seed - meta.trial + 1;
  if (base !== run.seed) out.push(`seed ${shown(base)} (this run: ${shown(run.seed)})`);
  // The run's settings as they reach this transcript's model (what its trial recorded).
  const reaching = settingsReaching(meta.model, run.settings);
  const keys = new Set([...Object.keys(meta.settings ?? {}), ...Object.keys(reaching)]) as Set<keyof RunSettings>;
  for (const k of [...keys].sort()) {
    const was = meta.settings?.[k];
    const now = reaching[k];
    if (was !== now) out.push(`${k} ${shown(was)} (this run: ${shown(now)})`);
  }
  if (run.implementation && implementationText(meta.implementation) !== implementationText(run.implementation)) {
    out.push(
      `implementation ${implementationText(meta.implementation)} (this run: ${implementationText(run.implementation)})`,
    );
  }
  const current = run.versions(meta.scenario);
  if (current) for (const c of describeChange(meta.versions, current)) out.push(`${meta.scenario} ${c}`);
  return out;
}

/**
 * Why this run must not write into `dir`, in one line, or undefined when it may. `resume`: the run reuses complete
 * transcripts made the same way, so only transcripts made another way block it.
 */
export function transcriptsConflict(dir: string, run: RunIdentity, o: { resume: boolean }): string | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const files = findTranscripts(dir);
  if (files.length === 0) return undefined;
  const changes = new Set<string>();
  for (const f of files) {
    const meta = metaOf(f);
    if (meta) for (const c of settingsChanges(meta, run)) changes.add(c);
  }
  const what = [...changes];
  const list = what.length > 4 ? [...what.slice(0, 4), `${what.length - 4} more`].join(", ") : what.join(", ");
  if (o.resume) {
    if (what.length === 0) return undefined;
    return `--resume: the transcripts in ${dir} were made with ${list}; run with the same settings, or add --overwrite to run those trials again`;
  }
  const made = what.length ? `made with ${list}` : "made with the same settings";
  return `--transcripts ${dir} already holds ${files.length} transcript(s) (${made}); add --resume to finish that run, --overwrite to replace it, or choose another directory`;
}

/** --overwrite on a fresh run: removes the directory's transcripts (files with a meta line) so no two runs mix. */
export function clearTranscripts(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const f of findTranscripts(dir)) {
    if (metaOf(f) === undefined) continue;
    rmSync(f);
    n++;
  }
  return n;
}
