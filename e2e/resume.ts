// Resuming a run: which trials already have a complete transcript for the same model, scenario, trial index,
// versions and sampling, so `--resume` can skip them (decision R67). A transcript is reusable only when it reached a
// verdict (completed or hit the step limit); an errored, interrupted, truncated or unreadable one is run again, so an
// outage or a Ctrl-C is never frozen into the results. Owns: reusableTranscript, TrialKey, implementationText.
import { existsSync, readFileSync } from "node:fs";
import type { MetaEvent, RunSettings, Trial } from "./transcript.ts";
import { parseTranscript } from "./transcript.ts";
import { sameVersions, type Versions } from "./versions.ts";

export interface TrialKey {
  model: string;
  scenario: string;
  trial: number;
  versions: Versions;
  temperature: number;
  seed?: number;
  settings?: RunSettings;
  /** The implementation under test ("name version (language)"): another's trial is never reused. */
  implementation?: string;
}

/** The saved trial at `file` when it can stand in for running `key` again; else why not. */
export function reusableTranscript(file: string, key: TrialKey): { trial: Trial } | { why: string } {
  if (!existsSync(file)) return { why: "no transcript" };
  let trial: Trial;
  try {
    trial = parseTranscript(readFileSync(file, "utf8"));
  } catch (err) {
    return { why: `unreadable transcript: ${(err as Error).message}` };
  }
  const m = trial.meta;
  const end = trial.end;
  if (!end) return { why: "transcript has no end (the trial was cut off)" };
  if (end.outcome !== "completed" && end.outcome !== "turn_limit") return { why: `the trial ended ${end.outcome}` };
  if (m.model !== key.model || m.scenario !== key.scenario || m.trial !== key.trial)
    return { why: "a different model, scenario or trial" };
  if (!sameVersions(m.versions, key.versions)) return { why: "made with another kit, checker or fixture version" };
  if (m.temperature !== key.temperature || m.seed !== key.seed || !sameSettings(m.settings, key.settings))
    return { why: "made with other sampling settings" };
  if (key.implementation !== undefined && implementationText(m.implementation) !== key.implementation)
    return { why: "made against another implementation" };
  return { trial };
}

/** "name version (language)": how an implementation under test is named and compared across transcripts. */
export function implementationText(i: MetaEvent["implementation"] | undefined): string {
  return i ? `${i.name} ${i.version} (${i.language})` : "unknown";
}

function sameSettings(a: RunSettings | undefined, b: RunSettings | undefined): boolean {
  const norm = (s: RunSettings | undefined) =>
    JSON.stringify(
      Object.entries(s ?? {})
        .filter(([, v]) => v !== undefined)
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return norm(a) === norm(b);
}
