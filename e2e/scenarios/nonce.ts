// Per-trial ground truth: values only a model that followed the skill can know (the version, the changelog entries,
// the commit subjects, the TODO lines, sign-off tokens in skill bodies, canaries in a skill's files, a script's
// secret). Every value is derived from a per-trial secret, itself derived from the trial's workspace path (a fresh
// temp dir), so the set-up can write them into the workspace and the checker can recompute them from the transcript's
// meta line alone: re-scoring stays offline. Owns: trialSecret, TrialValues, fillTemplates.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const KEY = "skill-e2e-judge/v1";

/** Words distinctive enough to be checked in a summary, short enough to read naturally in a commit or a route. */
const WORDS = (
  "falcon maple cobalt juniper quartz saffron walrus pepper harbor lantern meadow orchid pylon quiver raven sable " +
  "tundra umber velvet willow yonder zephyr amber bramble cinder dahlia ember fennel garnet hazel indigo jasper " +
  "kestrel lilac marble nectar oyster pebble quince russet spruce thistle umbra violet wombat yarrow zinnia acorn " +
  "badger canyon dune egret fjord glacier heron iris jackal koala lotus mango nutmeg otter parsley"
).split(" ");

export function trialSecret(workspace: string): string {
  return createHash("sha256").update(`${KEY}\u0000${workspace}`).digest("hex");
}

export function sha256Hex(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

/** Deterministic values for one trial, each named by a label. */
export class TrialValues {
  readonly secret: string;
  constructor(workspace: string) {
    this.secret = trialSecret(workspace);
  }
  private bytes(label: string): Buffer {
    return createHash("sha256").update(`${this.secret}\u0000${label}`).digest();
  }
  /** A hex token, e.g. for canaries and sign-offs. */
  hex(label: string, len = 8): string {
    return this.bytes(label).toString("hex").slice(0, len);
  }
  /** An integer in [min, max]. */
  int(label: string, min: number, max: number): number {
    return min + (this.bytes(label).readUInt32BE(0) % (max - min + 1));
  }
  /** n distinct words. */
  words(label: string, n: number): string[] {
    const out: string[] = [];
    for (let i = 0; out.length < n; i++) {
      const w = WORDS[this.bytes(`${label}/${i}`).readUInt32BE(0) % WORDS.length]!;
      if (!out.includes(w)) out.push(w);
    }
    return out;
  }
  word(label: string): string {
    return this.words(label, 1)[0]!;
  }
}

/** Replaces {{KEY}} in every file under root (not .git) with values[KEY]. An unknown key is a harness fault. */
export function fillTemplates(root: string, values: Record<string, string>): void {
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== ".git") walk(p);
        continue;
      }
      const text = readFileSync(p, "utf8");
      if (!text.includes("{{")) continue;
      const filled = text.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_m, k: string) => {
        const v = values[k];
        if (v === undefined) throw new Error(`fixture ${p}: no value for {{${k}}}`);
        return v;
      });
      writeFileSync(p, filled);
    }
  };
  walk(root);
}
