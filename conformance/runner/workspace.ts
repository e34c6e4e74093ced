// Owns a case's filesystem: a fresh temp dir per case, the fixture tree copied in, the case's setup
// steps (symlink, write, mkdir, chmod, remove) applied inside it, ${tmp} templating, and cleanup.
// Every fault here is the kit's (a missing fixture, a step escaping the temp dir), never the implementation's.
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { SetupStep } from "../../schemas/index.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FIXTURE_ROOT = join(REPO_ROOT, "fixtures", "conformance");

/** The placeholder cases write, and the marker observed results carry instead of the temp dir. */
export const TMP_VAR = "${tmp}";
export const TMP_MARK = "<tmp>";

export class KitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KitError";
  }
}

export interface Workspace {
  /** Real path of the temp dir: what ${tmp} becomes in config and params. */
  readonly dir: string;
  /** Every spelling of the temp dir an implementation might report (real path, path as created). */
  readonly spellings: readonly string[];
  cleanup(): void;
}

/** Replace ${tmp} in every string of a JSON-like value. */
export function template<T>(value: T, tmp: string): T {
  if (typeof value === "string") return value.split(TMP_VAR).join(tmp) as T;
  if (Array.isArray(value)) return value.map((v) => template(v, tmp)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, template(v, tmp)])) as T;
  }
  return value;
}

/** Replace every spelling of the temp dir with <tmp> in every string of a value (observed results). */
export function normalise(value: unknown, spellings: readonly string[]): unknown {
  const sorted = [...spellings].sort((a, b) => b.length - a.length);
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      let s = v;
      for (const sp of sorted) s = s.split(sp).join(TMP_MARK);
      return s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

export function fixtureDir(name: string): string {
  return join(FIXTURE_ROOT, name);
}

function inside(root: string, rel: string): string {
  if (rel.includes(TMP_VAR)) throw new KitError(`setup path ${rel} must be relative to the temp dir, without \${tmp}`);
  const abs = resolve(root, rel);
  if (abs !== root && !abs.startsWith(root + sep)) throw new KitError(`setup path ${rel} escapes the temp dir`);
  return abs;
}

function makeWritable(path: string): void {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    chmodSync(path, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const e of readdirSync(path)) makeWritable(join(path, e));
  } catch {
    // best effort
  }
}

export function prepareWorkspace(caseId: string, fixture: string, setup: readonly SetupStep[] = []): Workspace {
  const src = fixtureDir(fixture);
  if (!existsSync(src) || !statSync(src).isDirectory()) throw new KitError(`case ${caseId}: fixture ${fixture} is not a directory under fixtures/conformance/`);
  const created = mkdtempSync(join(tmpdir(), `skill-conformance-${caseId}-`));
  const dir = realpathSync(created);
  const cleanup = () => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      makeWritable(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    cpSync(src, dir, { recursive: true, verbatimSymlinks: true });
    for (const [i, step] of setup.entries()) {
      const at = inside(dir, step.path);
      try {
        switch (step.op) {
          case "symlink":
            mkdirSync(dirname(at), { recursive: true });
            symlinkSync(template(step.target, dir), at);
            break;
          case "write":
            mkdirSync(dirname(at), { recursive: true });
            writeFileSync(at, "utf8" in step ? Buffer.from(step.utf8, "utf8") : Buffer.from(step.base64, "base64"));
            break;
          case "mkdir":
            mkdirSync(at, { recursive: true });
            break;
          case "chmod":
            chmodSync(at, parseInt(step.mode, 8));
            break;
          case "remove":
            rmSync(at, { recursive: true, force: true });
            break;
        }
      } catch (e) {
        throw new KitError(`case ${caseId}: setup[${i}] (${step.op} ${step.path}) failed: ${(e as Error).message}`);
      }
    }
  } catch (e) {
    cleanup();
    throw e instanceof KitError ? e : new KitError(`case ${caseId}: preparing the temp dir failed: ${(e as Error).message}`);
  }
  const spellings = created === dir ? [dir] : [dir, created];
  return { dir, spellings, cleanup };
}
