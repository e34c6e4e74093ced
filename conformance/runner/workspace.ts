// Owns a case's filesystem: a fresh temp dir per case, the fixture tree copied in, the case's setup
// steps (symlink, hard link, write — literal or generated —, mkdir, chmod, remove, mkfifo, rename to a byte name,
// and loops of those) applied
// inside it, before the session or right before a call, ${tmp} / ${i} templating, and cleanup.
// Every fault here is the kit's (a missing fixture, a step escaping the temp dir), never the implementation's.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  lstatSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { PACKAGE_ROOT } from "../../package-root.ts";
import type { BasicSetupStep, RepeatChunk, SetupStep } from "../../schemas/index.ts";

export const REPO_ROOT = PACKAGE_ROOT;
export const FIXTURE_ROOT = join(REPO_ROOT, "fixtures", "conformance");
/** The most bytes one generated write step may produce. */
export const MAX_GENERATED_BYTES = 64 * 1024 * 1024;

/** The placeholder cases write, and the marker observed results carry instead of the temp dir. */
export const TMP_VAR = "${tmp}";
export const TMP_MARK = "<tmp>";
/** The index placeholder of loop steps and concurrent calls. */
export const INDEX_VAR = "${i}";

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

/** fixtures/<suite>/<name> for a suite other than spec when that directory exists, else fixtures/conformance/<name>. */
export function fixtureDir(name: string, suite = "spec"): string {
  if (suite !== "spec" && /^[a-z0-9][a-z0-9-]*$/.test(suite)) {
    const own = join(REPO_ROOT, "fixtures", suite, name);
    if (existsSync(own) && statSync(own).isDirectory()) return own;
  }
  return join(FIXTURE_ROOT, name);
}

/** Replace ${i} in every string of a JSON-like value (loop steps, concurrent calls). */
export function withIndex<T>(value: T, i: number): T {
  if (typeof value === "string") return value.split(INDEX_VAR).join(String(i)) as T;
  if (Array.isArray(value)) return value.map((v) => withIndex(v, i)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIndex(v, i)])) as T;
  }
  return value;
}

/** The bytes of a generated write: head, then each chunk's text repeated, then tail; refused over MAX_GENERATED_BYTES. */
export function generatedContent(
  head: string | undefined,
  repeat: RepeatChunk | readonly RepeatChunk[],
  tail: string | undefined,
): Buffer {
  const chunks = (Array.isArray(repeat) ? repeat : [repeat]) as readonly RepeatChunk[];
  const h = Buffer.from(head ?? "", "utf8");
  const tl = Buffer.from(tail ?? "", "utf8");
  const parts = chunks.map((c) => ({ text: Buffer.from(c.text, "utf8"), times: c.times }));
  const total = h.length + tl.length + parts.reduce((n, p) => n + p.text.length * p.times, 0);
  if (total > MAX_GENERATED_BYTES)
    throw new KitError(`a generated write of ${total} bytes exceeds the kit's ${MAX_GENERATED_BYTES}-byte bound`);
  const out = Buffer.allocUnsafe(total);
  let at = h.copy(out, 0);
  for (const p of parts) {
    const len = p.text.length * p.times;
    out.fill(p.text, at, at + len);
    at += len;
  }
  tl.copy(out, at);
  return out;
}

/** root/rel, refused (KitError) when rel holds ${tmp} or leaves root. */
export function inside(root: string, rel: string): string {
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

function applyStep(dir: string, step: BasicSetupStep): void {
  const at = inside(dir, step.path);
  switch (step.op) {
    case "symlink":
      mkdirSync(dirname(at), { recursive: true });
      symlinkSync(template(step.target, dir), at);
      break;
    case "write":
      mkdirSync(dirname(at), { recursive: true });
      if ("repeat" in step) writeFileSync(at, generatedContent(step.head, step.repeat, step.tail));
      else writeFileSync(at, "utf8" in step ? Buffer.from(step.utf8, "utf8") : Buffer.from(step.base64, "base64"));
      break;
    case "link":
      mkdirSync(dirname(at), { recursive: true });
      linkSync(inside(dir, step.target), at);
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
    case "mkfifo":
      mkdirSync(dirname(at), { recursive: true });
      execFileSync("mkfifo", [at]);
      break;
    case "rename": {
      const name = Buffer.from(step.name_hex, "hex");
      if (name.includes(0x2f) || name.includes(0) || name.equals(Buffer.from(".")) || name.equals(Buffer.from("..")))
        throw new KitError(`rename to ${step.name_hex}: not one path component`);
      // Bytes, never a string: the name need not be UTF-8.
      renameSync(at, Buffer.concat([Buffer.from(`${dirname(at)}${sep}`), name]));
      break;
    }
  }
}

/** Run setup steps inside dir, in order; any failure is a KitError naming the step (`label[i]`). */
export function applySteps(dir: string, steps: readonly SetupStep[], label: string): void {
  for (const [i, step] of steps.entries()) {
    if (step.op === "loop") {
      for (let k = 0; k < step.count; k++) {
        for (const [j, inner] of step.steps.entries()) {
          const s = withIndex(inner, k);
          try {
            applyStep(dir, s);
          } catch (e) {
            if (e instanceof KitError)
              throw new KitError(`${label}[${i}] (loop ${k}, step ${j}: ${s.op} ${s.path}): ${e.message}`);
            throw new KitError(
              `${label}[${i}] (loop ${k}, step ${j}: ${s.op} ${s.path}) failed: ${(e as Error).message}`,
            );
          }
        }
      }
      continue;
    }
    try {
      applyStep(dir, step);
    } catch (e) {
      if (e instanceof KitError) throw new KitError(`${label}[${i}] (${step.op} ${step.path}): ${e.message}`);
      throw new KitError(`${label}[${i}] (${step.op} ${step.path}) failed: ${(e as Error).message}`);
    }
  }
}

export function prepareWorkspace(
  caseId: string,
  fixture: string,
  setup: readonly SetupStep[] = [],
  suite = "spec",
): Workspace {
  const src = fixtureDir(fixture, suite);
  if (!existsSync(src) || !statSync(src).isDirectory())
    throw new KitError(
      `case ${caseId}: fixture ${fixture} is not a directory under fixtures/${suite === "spec" ? "" : `${suite}/ or fixtures/`}conformance/`,
    );
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
    applySteps(dir, setup, `case ${caseId}: setup`);
  } catch (e) {
    cleanup();
    throw e instanceof KitError
      ? e
      : new KitError(`case ${caseId}: preparing the temp dir failed: ${(e as Error).message}`);
  }
  const spellings = created === dir ? [dir] : [dir, created];
  return { dir, spellings, cleanup };
}
