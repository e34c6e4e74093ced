// Skill discovery and loading from the filesystem (§5.1, §5.2, §10, R6). Scans each configured root one
// level deep, never above it; keeps broken and fenced-off skills aside by directory name so activating
// them returns their error; resolves shadowing by root order. Never throws: problems become warnings.
// Keeps each skill's parse as a memo for its activation (R86); activation re-reads and re-fences (R85).
import { fstatSync, lstatSync, readSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import type { Dirent } from "node:fs";
import { basename, join, normalize, sep } from "node:path";
import { LIMITS } from "../schemas/index.ts";
import { message } from "../schemas/messages.ts";
import { byCodePoint } from "./order.ts";
import type { CatalogEntry, ErrorCode, SkillFrontmatter } from "../schemas/index.ts";
import { isInside, realOrNull } from "./fence.ts";
import { below, close, NOFOLLOW, openFenced } from "./fenced.ts";
import { escapeName, usableName } from "./byte-names.ts";
import { parseSkillMd, type MemoSlot } from "./frontmatter.ts";
import { listResources, type ResourceListing } from "./resources.ts";

/** §10 SkillEntry. */
export interface SkillEntry {
  readonly name: string;
  readonly description: string;
  readonly dir: string;
  readonly root_index: number;
  readonly frontmatter: Readonly<SkillFrontmatter>;
}
/** §10 LoadedSkill, plus the per-folder listing the renderer needs. */
export interface LoadedSkill extends SkillEntry {
  readonly body: string;
  readonly resources: readonly string[];
  readonly listing: ResourceListing;
}
/** §10: the pluggable adapter boundary. */
export interface SkillRegistry {
  discover(): Promise<readonly SkillEntry[]>;
  load(name: string): Promise<LoadedSkill | null>;
}

export interface SkillFailure {
  code: Extract<ErrorCode, "INVALID_FRONTMATTER" | "NAME_MISMATCH" | "OUTSIDE_WORKSPACE" | "IO_ERROR">;
  kind: "yaml" | "field" | "fence" | "outside" | "io";
  path: string;
  reason: string;
  line?: number;
}
export interface BrokenSkill {
  name: string;
  dir: string;
  root_index: number;
  failure: SkillFailure;
}
export interface Discovery {
  entries: CatalogEntry[];
  /** entries by name, for O(1) lookup on every call. */
  byName: Map<string, CatalogEntry>;
  broken: Map<string, BrokenSkill>;
  warnings: string[];
  /** Real path of each configured root, null when it does not resolve. */
  realRoots: (string | null)[];
  /** Per skill dir, its frontmatter as last parsed (R86): activation reuses it while the YAML text is unchanged. */
  memos: Map<string, MemoSlot>;
}

/** What scanning one root entry gave: a catalog entry (and what was read leniently), or a broken skill and its warning. */
type Scanned =
  { ok: true; entry: CatalogEntry; notes?: readonly string[] } | { ok: false; broken: BrokenSkill; warning: string };
/** Kept for the shadowing pass: the scanned skills themselves, no wrapper (one less object per skill through the scan). */
type Found = CatalogEntry | BrokenSkill;
const isBroken = (f: Found): f is BrokenSkill => "failure" in f;

/** `name` under a directory path that is already normalised (a real path, or join's result): join's answer, without its parsing. */
function child(parent: string, name: string): string {
  return parent.endsWith(sep) ? `${parent}${name}` : `${parent}${sep}${name}`;
}

type TextFail = { ok: false; failure: SkillFailure; errno?: string };
type TextRead = { ok: true; text: string } | TextFail;

/** Bytes to text: strict UTF-8, no NUL (a binary file is not a SKILL.md). */
function decode(bytes: Buffer, path: string, headOnly = false): TextRead {
  if (!isUtf8(bytes))
    return {
      ok: false,
      failure: { code: "INVALID_FRONTMATTER", kind: "field", path, reason: message("read.not_utf8") },
    };
  if (bytes.indexOf(0) !== -1)
    return { ok: false, failure: { code: "INVALID_FRONTMATTER", kind: "field", path, reason: message("read.nul") } };
  // Discovery needs no body: decoding only up to the closing fence spares a string per skill (the whole file is still checked above).
  return { ok: true, text: bytes.toString("utf8", 0, headOnly ? headEnd(bytes) : bytes.length) };
}

const DASH = 0x2d;
/** Is bytes[start, end) a fence line as parseSkillMd reads it: ---, then spaces, with one CR dropped before a LF? */
function fenceLine(bytes: Uint8Array, start: number, end: number, hasLf: boolean): boolean {
  let e = hasLf && end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
  if (e - start < 3 || bytes[start] !== DASH || bytes[start + 1] !== DASH || bytes[start + 2] !== DASH) return false;
  while (e > start + 3 && bytes[e - 1] === 0x20) e--;
  return e === start + 3;
}

/** Byte offset just past the closing fence line (the first fence line after line 1), or the whole length when there is none. Exported for its test; typed Uint8Array (a Buffer is one) so the published .d.ts need no @types/node. */
export function headEnd(bytes: Uint8Array): number {
  const first = bytes.indexOf(0x0a);
  if (first === -1) return bytes.length;
  for (let pos = first + 1; pos < bytes.length;) {
    const nl = bytes.indexOf(0x0a, pos);
    const end = nl === -1 ? bytes.length : nl;
    if (fenceLine(bytes, pos, end, nl !== -1)) return nl === -1 ? bytes.length : nl + 1;
    if (nl === -1) break;
    pos = nl + 1;
  }
  return bytes.length;
}
const tooBig = (path: string, size: number): TextRead => ({
  ok: false,
  failure: {
    code: "IO_ERROR",
    kind: "io",
    path,
    reason: message("read.too_large", { size, limit: LIMITS.skill_md_max_bytes }),
  },
});
const notFile = (path: string): TextFail => ({
  ok: false,
  failure: { code: "IO_ERROR", kind: "io", path, reason: message("read.not_file") },
});
const ioFailure = (path: string, err: { code?: string } | unknown): TextFail => ({
  ok: false,
  errno: (err as NodeJS.ErrnoException).code,
  failure: {
    code: "IO_ERROR",
    kind: "io",
    path,
    reason: message("read.unreadable", { errno: (err as NodeJS.ErrnoException).code ?? "unknown" }),
  },
});

/** Read an opened regular SKILL.md with the size cap applied before and during the read (D11): a file that grows is still capped; never more than the cap + 1 bytes. Synchronous: discovery and activation are a handful of small syscalls per skill, and each async round trip costs more than the work (R23). */
function readOpened(fd: number, path: string, headOnly = false): TextRead {
  try {
    const info = fstatSync(fd);
    if (info.size > LIMITS.skill_md_max_bytes) return tooBig(path, info.size);
    const buf = Buffer.allocUnsafe(Math.min(info.size, LIMITS.skill_md_max_bytes) + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      got += n;
      if (got === buf.length)
        return got > LIMITS.skill_md_max_bytes ? tooBig(path, got) : decode(buf.subarray(0, got), path, headOnly);
      if (n === 0 || got >= info.size) break;
    }
    return decode(buf.subarray(0, got), path, headOnly);
  } catch (err) {
    return ioFailure(path, err);
  }
}

/**
 * The skill dir and its SKILL.md, opened and fenced by what was opened (R141, R142, X2): the dir once, its real path
 * from the descriptor; SKILL.md relative to that descriptor without following a symlink, so only a symlinked one is
 * followed, and then fenced by the opened file's own real path. Never blocks: a FIFO or device is refused by type,
 * unread. "none": no skill there (discovery omits it silently: no dir, or no SKILL.md).
 */
type Opening =
  | { ok: true; read: TextRead; realDir: string; realMd: string }
  | { ok: false; failure: SkillFailure }
  | { ok: "none"; dirMissing: boolean };

function openSkill(dirPath: string, dir: string, mdPath: string, roots: readonly string[], headOnly: boolean): Opening {
  const d = openFenced(dirPath, "dir");
  if (!d.ok) return { ok: "none", dirMissing: true };
  const h = d.handle;
  try {
    const realDir = h.real;
    const md = below(h, "SKILL.md");
    // Never read outside the roots: a fenced-off skill is kept aside unread (R6); one without SKILL.md is no skill.
    if (!isInside(realDir, roots))
      return exists(md) ? outside(dir, "read.dir_outside") : { ok: "none", dirMissing: false };
    let f = openFenced(md, "file", NOFOLLOW);
    if (!f.ok && (f.errno === "ELOOP" || f.errno === "EMLINK")) {
      // A symlinked SKILL.md: followed, and fenced by where the open landed.
      f = openFenced(md, "file");
      if (!f.ok && f.real === undefined) return mdUnresolved(mdPath);
    }
    if (!f.ok) {
      if (f.real !== undefined && !isInside(f.real, roots)) return outside(mdPath, "read.md_outside");
      if (f.errno === "ENOENT" || f.errno === "ENOTDIR") return { ok: "none", dirMissing: false };
      return {
        ok: false,
        failure: f.errno === "ENOTREG" ? notFile(mdPath).failure : ioFailure(mdPath, { code: f.errno }).failure,
      };
    }
    try {
      if (!isInside(f.handle.real, roots)) return outside(mdPath, "read.md_outside");
      return { ok: true, read: readOpened(f.handle.fd, mdPath, headOnly), realDir, realMd: f.handle.real };
    } finally {
      close(f.handle);
    }
  } finally {
    close(h);
  }
}

/** realMd: the real path of the SKILL.md read (R143: sensitive patterns see it too). */
type Parsed =
  | { ok: true; entry: SkillEntry; body: string; realDir: string; realMd: string; warnings: readonly string[] }
  | { ok: false; failure: SkillFailure };

function parseRead(
  read: TextRead,
  dir: string,
  rootIndex: number,
  realDir: string,
  mdPath: string,
  slot: MemoSlot | undefined,
  realMd: string,
): Parsed {
  if (!read.ok) return { ok: false, failure: { ...read.failure, path: mdPath } };
  const parsed = parseSkillMd(read.text, basename(dir), slot);
  if (!parsed.ok) {
    return {
      ok: false,
      failure: {
        code: parsed.code,
        kind: parsed.kind,
        path: mdPath,
        reason: parsed.reason,
        ...(parsed.line !== undefined ? { line: parsed.line } : {}),
      },
    };
  }
  const fm = parsed.frontmatter;
  return {
    ok: true,
    entry: { name: fm.name, description: fm.description, dir, root_index: rootIndex, frontmatter: fm },
    body: parsed.body,
    realDir,
    realMd,
    warnings: parsed.warnings,
  };
}

const outside = (path: string, what: "read.dir_outside" | "read.md_outside"): { ok: false; failure: SkillFailure } => ({
  ok: false,
  // The target is not named: nothing about what lies outside the roots reaches the model (R6).
  failure: { code: "OUTSIDE_WORKSPACE", kind: "outside", path, reason: message(what) },
});

const mdUnresolved = (mdPath: string): { ok: false; failure: SkillFailure } => ({
  ok: false,
  failure: { code: "IO_ERROR", kind: "io", path: mdPath, reason: message("read.md_unresolved") },
});

/**
 * Activation: open the skill dir and its SKILL.md now (the tree may have changed since discovery) and fence what was
 * opened (§5.3, R6, R142), then read and parse. `slot` is the skill's memo (R86).
 */
export function readSkillSync(
  dir: string,
  rootIndex: number,
  realRoots: readonly (string | null)[],
  slot?: MemoSlot,
): Parsed {
  const roots = realRoots.filter((r): r is string => r !== null);
  const mdPath = child(dir, "SKILL.md"); // dir is join's or child's result: normalised
  const o = openSkill(dir, dir, mdPath, roots, false);
  if (o.ok === "none") {
    return o.dirMissing
      ? { ok: false, failure: { code: "IO_ERROR", kind: "io", path: dir, reason: message("read.dir_unresolved") } }
      : mdUnresolved(mdPath);
  }
  if (!o.ok) return o;
  return parseRead(o.read, dir, rootIndex, o.realDir, mdPath, slot, o.realMd);
}

/** lstat succeeds: the path exists (a dangling link included). */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Discovery of one root entry, synchronously (R23: a handful of small syscalls per skill, each cheaper
 * than an async round trip; the bench's I/O floor is the same calls without parsing). A plain
 * subdirectory of a real root is its own real path, so only symlinks cost a realpath. Returns null for
 * anything that is not a skill (no SKILL.md): omitted silently (§5.2 step 2, case 29).
 */
function scanEntry(
  root: string,
  realRoot: string,
  name: string,
  entry: Dirent<Buffer>,
  rootIndex: number,
  roots: readonly string[],
  slot: MemoSlot,
  rootIsNormal: boolean,
): Scanned | null {
  // Dirent names are one component, never "." or "..": below a normalised dir, join is concatenation.
  const dir = rootIsNormal ? child(root, name) : join(root, name);
  const mdPath = child(dir, "SKILL.md");
  // A plain directory or a symlink (to be followed, then fenced by what was opened); any other type is not a skill
  // dir and is never opened (a FIFO in a root blocks nothing).
  if (
    !entry.isDirectory() &&
    !entry.isSymbolicLink() &&
    (entry.isFile() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice())
  )
    return null;
  const o = openSkill(child(realRoot, name), dir, mdPath, roots, true);
  if (o.ok === "none") return null;
  if (!o.ok) return broken(name, dir, rootIndex, o.failure);
  const parsed = parseRead(o.read, dir, rootIndex, o.realDir, mdPath, slot, o.realMd);
  if (!parsed.ok) return broken(name, dir, rootIndex, parsed.failure);
  // No copy: only the head of SKILL.md was decoded, and the memo keeps that text anyway (R86); the memo
  // holds its own copy of the frontmatter, so the catalog's can be handed out. The catalog entry is built
  // here, once: a shadowed one is dropped unseen.
  const e = parsed.entry;
  const catalogEntry: CatalogEntry = {
    name: e.name,
    description: e.description,
    dir: e.dir,
    root_index: e.root_index,
    frontmatter: e.frontmatter as SkillFrontmatter,
    meta: { shadowed: [] },
  };
  // R19/R20: what was loaded leniently is said, once per skill, as catalog warnings.
  return parsed.warnings.length > 0
    ? {
        ok: true,
        entry: catalogEntry,
        notes: parsed.warnings.map((leniency) => message("warning.skill_lenient", { dir, leniency })),
      }
    : { ok: true, entry: catalogEntry };
}

function broken(name: string, dir: string, rootIndex: number, failure: SkillFailure): Scanned {
  return {
    ok: false,
    broken: { name, dir, root_index: rootIndex, failure },
    warning: message("warning.skill_skipped", { dir, code: failure.code, reason: failure.reason }),
  };
}

/** Yield to the event loop every this many entries, so a big root does not block it for the whole scan. */
const YIELD_EVERY = 256;
const DOT = 0x2e;

export class FilesystemSkillRegistry implements SkillRegistry {
  private scanned: Promise<Discovery> | null = null;

  constructor(readonly roots: readonly string[]) {}

  /** Discovery runs once per registry (no watching, §7); later calls share the result. */
  scan(): Promise<Discovery> {
    this.scanned ??= this.scanOnce();
    return this.scanned;
  }

  async discover(): Promise<readonly SkillEntry[]> {
    return (await this.scan()).entries;
  }

  async load(name: string): Promise<LoadedSkill | null> {
    const discovery = await this.scan();
    const entry = discovery.byName.get(name);
    if (!entry) return null;
    const read = readSkillSync(entry.dir, entry.root_index, discovery.realRoots, discovery.memos.get(entry.dir));
    if (!read.ok) return null;
    const listing = listResources(read.realDir, discovery.realRoots);
    return { ...read.entry, body: read.body, resources: listing.resources, listing };
  }

  private async scanOnce(): Promise<Discovery> {
    const warnings: string[] = [];
    const realRoots = await Promise.all(this.roots.map((r) => realOrNull(r)));
    const fence = realRoots.filter((r): r is string => r !== null);
    const found: Found[] = [];
    const memos = new Map<string, MemoSlot>();
    for (const [rootIndex, root] of this.roots.entries()) {
      const realRoot = realRoots[rootIndex];
      if (realRoot === null || realRoot === undefined) {
        warnings.push(message("warning.root_missing", { root }));
        continue;
      }
      const first = realRoots.indexOf(realRoot);
      if (first < rootIndex) {
        warnings.push(message("warning.root_duplicate", { root, first }));
        continue;
      }
      let dirents: Dirent<Buffer>[];
      try {
        if (!(await stat(realRoot)).isDirectory()) throw new Error("not a directory");
        // Names as bytes (R140, X1): a name that is not UTF-8 is never made a string that could name another entry.
        dirents = (await readdir(realRoot, { withFileTypes: true, encoding: "buffer" })).filter(
          (d) => d.name[0] !== DOT,
        );
      } catch {
        warnings.push(message("warning.root_unlistable", { root }));
        continue;
      }
      // Byte order: for UTF-8 names, code-point order (as byCodePoint sorts strings).
      dirents.sort((a, b) => Buffer.compare(a.name, b.name));
      const rootIsNormal = normalize(root) === root;
      for (let i = 0; i < dirents.length; i++) {
        if (i > 0 && i % YIELD_EVERY === 0) await new Promise((done) => setImmediate(done));
        const d = dirents[i] as Dirent<Buffer>;
        if (!usableName(d.name)) {
          const shown = escapeName(d.name);
          warnings.push(
            message("warning.name_not_utf8", { dir: rootIsNormal ? child(root, shown) : join(root, shown) }),
          );
          continue;
        }
        const slot: MemoSlot = {};
        const r = scanEntry(root, realRoot, d.name.toString("utf8"), d, rootIndex, fence, slot, rootIsNormal);
        if (!r) continue;
        // Warnings in listing order, as the scan goes.
        if (r.ok) {
          memos.set(r.entry.dir, slot);
          found.push(r.entry);
          if (r.notes) warnings.push(...r.notes);
        } else {
          found.push(r.broken);
          warnings.push(r.warning);
        }
      }
    }
    // The first skill of a name wins (root order, then listing order); the others are its shadowed dirs.
    // The winners go straight into the two lookups the session keeps (no third map of them to copy from).
    const byName = new Map<string, CatalogEntry>();
    const broken = new Map<string, BrokenSkill>();
    const entries: CatalogEntry[] = [];
    for (const f of found) {
      const { name, dir } = f;
      const winner = byName.get(name) ?? broken.get(name);
      if (winner) {
        if (!isBroken(winner)) winner.meta.shadowed.push(dir);
        warnings.push(message("warning.shadowed", { name, dir, winner: winner.dir }));
        continue;
      }
      if (isBroken(f)) broken.set(name, f);
      else {
        byName.set(name, f);
        entries.push(f);
      }
    }
    entries.sort((a, b) => byCodePoint(a.name, b.name));
    return { entries, byName, broken, warnings, realRoots, memos };
  }
}
