// What a result was measured with, so a published number can be reproduced and a re-score can say when the ruler
// changed: the kit's version, and per scenario a hash of its checker (the scenario's module plus the shared
// helpers and the judging modules its verdict depends on) and of its fixture (every file's path and bytes). Owns: kitVersion,
// scenarioVersion, sameVersions, describeChange (decision R65).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { dataPath } from "../package-root.ts";
import type { Scenario } from "./scenario.ts";
import { FIXTURES_DIR } from "./workspace.ts";

const E2E = dirname(fileURLToPath(import.meta.url));

export interface ScenarioVersion {
  /** sha256 (12 hex) of the scenario's module and the shared checker helpers. */
  checker: string;
  /** sha256 (12 hex) of the fixture folder: relative paths and contents, sorted. */
  fixture: string;
}

export interface Versions extends ScenarioVersion {
  /** package.json version of the kit. */
  kit: string;
}

let kit: string | undefined;
export function kitVersion(): string {
  // Through package-root.ts: compiled, this module sits in dist/e2e/, and dist/ holds no package.json.
  kit ??= String(
    (JSON.parse(readFileSync(dataPath("package.json"), "utf8")) as { version?: unknown }).version ?? "unknown",
  );
  return kit;
}

/** Modules outside scenarios/ that a verdict depends on: judging, the transcript queries, the shell parser. */
const SHARED = ["judge.ts", "scenario.ts", "transcript.ts", "shell.ts"];

/**
 * The files a scenario's verdict depends on besides the transcript: its own module, every shared helper in
 * scenarios/ (any file that is not another scenario's skN.ts) and the SHARED modules.
 */
export function checkerFiles(scenarioId: string): string[] {
  const dir = join(E2E, "scenarios");
  const helpers = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !/^sk\d+\.ts$/.test(f) && f !== "index.ts")
    .sort();
  return [
    join(dir, `${scenarioId.toLowerCase()}.ts`),
    ...helpers.map((f) => join(dir, f)),
    ...SHARED.map((f) => join(E2E, f)),
  ].filter((f) => existsSync(f));
}

const cache = new Map<string, ScenarioVersion>();

export function scenarioVersion(s: Pick<Scenario, "id" | "fixture">): ScenarioVersion {
  const key = `${s.id}\u0000${s.fixture}`;
  let v = cache.get(key);
  if (!v) {
    const checker = createHash("sha256");
    for (const f of checkerFiles(s.id))
      checker.update(relative(E2E, f)).update("\u0000").update(readFileSync(f)).update("\u0000");
    v = { checker: checker.digest("hex").slice(0, 12), fixture: hashTree(join(FIXTURES_DIR, s.fixture)) };
    cache.set(key, v);
  }
  return v;
}

/** For tests that edit a checker or fixture within one process. */
export function forgetVersions(): void {
  cache.clear();
}

export function versionsFor(s: Pick<Scenario, "id" | "fixture">): Versions {
  return { kit: kitVersion(), ...scenarioVersion(s) };
}

function hashTree(root: string): string {
  const h = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else h.update(relative(root, p)).update("\u0000").update(readFileSync(p)).update("\u0000");
    }
  };
  if (existsSync(root)) walk(root);
  return h.digest("hex").slice(0, 12);
}

/** What differs between the versions a transcript was made with and the current ones; empty when none. */
export function describeChange(recorded: Partial<Versions> | undefined, current: Versions): string[] {
  if (!recorded) return ["the transcript records no versions (made before they were recorded)"];
  const out: string[] = [];
  if (recorded.checker !== current.checker) out.push(`checker ${recorded.checker ?? "?"} → ${current.checker}`);
  if (recorded.fixture !== current.fixture) out.push(`fixture ${recorded.fixture ?? "?"} → ${current.fixture}`);
  if (recorded.kit !== current.kit) out.push(`kit ${recorded.kit ?? "?"} → ${current.kit}`);
  return out;
}

export function sameVersions(recorded: Partial<Versions> | undefined, current: Versions): boolean {
  return describeChange(recorded, current).length === 0;
}
