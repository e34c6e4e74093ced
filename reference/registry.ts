// Skill discovery and loading from the filesystem (§5.1, §5.2, §10, R6). Scans each configured root one
// level deep, never above it; keeps broken and fenced-off skills aside by directory name so activating
// them returns their error; resolves shadowing by root order. Never throws: problems become warnings.
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readSync, realpathSync } from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import type { Dirent } from "node:fs";
import { basename, join } from "node:path";
import { LIMITS } from "../schemas/index.ts";
import { message } from "../schemas/messages.ts";
import { byCodePoint } from "./order.ts";
import type { CatalogEntry, ErrorCode, SkillFrontmatter } from "../schemas/index.ts";
import { isInside, realOrNull } from "./fence.ts";
import { parseSkillMd } from "./frontmatter.ts";
import { listResources, type ResourceListing } from "./resources.ts";
import { mapLimit } from "./pool.ts";

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
}

type Found = { ok: true; entry: SkillEntry } | { ok: false; broken: BrokenSkill };

const CONCURRENCY = LIMITS.discovery_concurrency;


type TextRead = { ok: true; text: string } | { ok: false; failure: SkillFailure; errno?: string };
/** Open without following a final symlink, where the platform can: a symlinked SKILL.md then fails with ELOOP and is fenced explicitly. */
const NOFOLLOW: number | undefined = fsConstants.O_NOFOLLOW;

/** Bytes to text: strict UTF-8, no NUL (a binary file is not a SKILL.md). */
function decode(bytes: Buffer, path: string): TextRead {
  if (!isUtf8(bytes)) return { ok: false, failure: { code: "INVALID_FRONTMATTER", kind: "field", path, reason: message("read.not_utf8") } };
  const text = bytes.toString("utf8");
  if (text.includes("\0")) return { ok: false, failure: { code: "INVALID_FRONTMATTER", kind: "field", path, reason: message("read.nul") } };
  return { ok: true, text };
}
const tooBig = (path: string, size: number): TextRead => ({
  ok: false,
  failure: { code: "IO_ERROR", kind: "io", path, reason: message("read.too_large", { size, limit: LIMITS.skill_md_max_bytes }) },
});
const notFile = (path: string): TextRead => ({ ok: false, failure: { code: "IO_ERROR", kind: "io", path, reason: message("read.not_file") } });
const ioFailure = (path: string, err: unknown): TextRead => ({
  ok: false,
  errno: (err as NodeJS.ErrnoException).code,
  failure: { code: "IO_ERROR", kind: "io", path, reason: message("read.unreadable", { errno: (err as NodeJS.ErrnoException).code ?? "unknown" }) },
});

/** Read SKILL.md with the size cap applied before and during the read (D11): a file that grows is still capped. */
async function readSkillFile(path: string, flags = 0): Promise<TextRead> {
  let handle;
  try {
    handle = await open(path, fsConstants.O_RDONLY | flags);
    const info = await handle.stat();
    if (!info.isFile()) return notFile(path);
    if (info.size > LIMITS.skill_md_max_bytes) return tooBig(path, info.size);
    const buf = Buffer.allocUnsafe(info.size + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      got += bytesRead;
      if (got === buf.length) return tooBig(path, got); // it grew past its stat size and the cap
      if (bytesRead === 0 || got >= info.size) break;
    }
    return decode(buf.subarray(0, got), path);
  } catch (err) {
    return ioFailure(path, err);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The same read, synchronous: the activation path is a handful of small syscalls, and each async round trip costs more than the work. */
function readSkillFileSync(path: string): TextRead {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const info = fstatSync(fd);
    if (!info.isFile()) return notFile(path);
    if (info.size > LIMITS.skill_md_max_bytes) return tooBig(path, info.size);
    const buf = Buffer.allocUnsafe(info.size + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      got += n;
      if (got === buf.length) return tooBig(path, got);
      if (n === 0 || got >= info.size) break;
    }
    return decode(buf.subarray(0, got), path);
  } catch (err) {
    return ioFailure(path, err);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

type Parsed = { ok: true; entry: SkillEntry; body: string; realDir: string } | { ok: false; failure: SkillFailure };

function parseRead(read: TextRead, dir: string, rootIndex: number, realDir: string, mdPath: string): Parsed {
  if (!read.ok) return { ok: false, failure: { ...read.failure, path: mdPath } };
  const parsed = parseSkillMd(read.text, basename(dir));
  if (!parsed.ok) {
    return { ok: false, failure: { code: parsed.code, kind: parsed.kind, path: mdPath, reason: parsed.reason, ...(parsed.line !== undefined ? { line: parsed.line } : {}) } };
  }
  const fm = parsed.frontmatter;
  return { ok: true, entry: { name: fm.name, description: fm.description, dir, root_index: rootIndex, frontmatter: fm }, body: parsed.body, realDir };
}

const outside = (path: string, what: "read.dir_outside" | "read.md_outside", real: string): { ok: false; failure: SkillFailure } => ({
  ok: false,
  // The target is not named: nothing about what lies outside the roots reaches the model (R6).
  failure: { code: "OUTSIDE_WORKSPACE", kind: "outside", path, reason: message(what) },
});

/**
 * Activation: resolve the skill dir and its SKILL.md by real path now (the tree may have changed since
 * discovery), fence both (§5.3, R6), then read and parse.
 */
export function readSkillSync(dir: string, rootIndex: number, realRoots: readonly (string | null)[]): Parsed {
  const roots = realRoots.filter((r): r is string => r !== null);
  const mdPath = join(dir, "SKILL.md");
  let realDir: string;
  try {
    realDir = realpathSync(dir);
  } catch {
    return { ok: false, failure: { code: "IO_ERROR", kind: "io", path: dir, reason: message("read.dir_unresolved") } };
  }
  if (!isInside(realDir, roots)) return outside(dir, "read.dir_outside", realDir);
  let realMd = join(realDir, "SKILL.md");
  try {
    if (lstatSync(realMd).isSymbolicLink()) realMd = realpathSync(realMd);
  } catch {
    return { ok: false, failure: { code: "IO_ERROR", kind: "io", path: mdPath, reason: message("read.md_unresolved") } };
  }
  if (!isInside(realMd, roots)) return outside(mdPath, "read.md_outside", realMd);
  return parseRead(readSkillFileSync(realMd), dir, rootIndex, realDir, mdPath);
}

/**
 * Discovery of one root entry. A plain subdirectory of a real root is its own real path, so only
 * symlinks cost a realpath. Returns null for anything that is not a skill (no SKILL.md): omitted silently
 * (§5.2 step 2, case 29).
 */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function scanEntry(
  root: string,
  realRoot: string,
  entry: Dirent,
  rootIndex: number,
  roots: readonly string[],
): Promise<{ found: Found; warning?: string } | null> {
  const dir = join(root, entry.name);
  const mdPath = join(dir, "SKILL.md");
  let realDir = join(realRoot, entry.name);
  if (entry.isSymbolicLink()) {
    try {
      realDir = await realpath(realDir);
      if (!(await stat(realDir)).isDirectory()) return null;
    } catch {
      return null; // dangling link or a loop: not a skill dir
    }
  } else if (!entry.isDirectory()) {
    if (entry.isFile() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return null;
    try {
      if (!(await stat(realDir)).isDirectory()) return null; // a filesystem that reports no entry types
    } catch {
      return null;
    }
  }
  const broken = (failure: SkillFailure): { found: Found; warning: string } => ({
    found: { ok: false, broken: { name: entry.name, dir, root_index: rootIndex, failure } },
    warning: message("warning.skill_skipped", { dir, code: failure.code, reason: failure.reason }),
  });
  let realMd = join(realDir, "SKILL.md");
  // Never read outside the roots: a fenced-off skill is kept aside unread (R6).
  if (!isInside(realDir, roots)) {
    if (!(await exists(realMd))) return null;
    return broken(outside(dir, "read.dir_outside", realDir).failure);
  }
  let read: TextRead | null = null;
  let symlinked: boolean;
  if (NOFOLLOW !== undefined) {
    read = await readSkillFile(realMd, NOFOLLOW);
    if (!read.ok && (read.errno === "ENOENT" || read.errno === "ENOTDIR")) return null;
    symlinked = !read.ok && (read.errno === "ELOOP" || read.errno === "EMLINK");
  } else {
    try {
      symlinked = (await lstat(realMd)).isSymbolicLink();
    } catch {
      return null;
    }
  }
  if (symlinked) {
    try {
      realMd = await realpath(realMd);
    } catch {
      return broken({ code: "IO_ERROR", kind: "io", path: mdPath, reason: message("read.md_unresolved") });
    }
    if (!isInside(realMd, roots)) return broken(outside(mdPath, "read.md_outside", realMd).failure);
    read = null;
  }
  const parsed = parseRead(read ?? (await readSkillFile(realMd)), dir, rootIndex, realDir, mdPath);
  if (!parsed.ok) return broken(parsed.failure);
  // A copy, so the catalog holds flat strings rather than slices pinning every SKILL.md's full text.
  const frontmatter = structuredClone(parsed.entry.frontmatter);
  return { found: { ok: true, entry: { ...parsed.entry, name: frontmatter.name, description: frontmatter.description, frontmatter } } };
}

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
    const read = readSkillSync(entry.dir, entry.root_index, discovery.realRoots);
    if (!read.ok) return null;
    const listing = listResources(read.realDir, discovery.realRoots);
    return { ...read.entry, body: read.body, resources: listing.resources, listing };
  }

  private async scanOnce(): Promise<Discovery> {
    const warnings: string[] = [];
    const realRoots = await Promise.all(this.roots.map((r) => realOrNull(r)));
    const fence = realRoots.filter((r): r is string => r !== null);
    const found: Found[] = [];
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
      let dirents: Dirent[];
      try {
        if (!(await stat(realRoot)).isDirectory()) throw new Error("not a directory");
        dirents = (await readdir(realRoot, { withFileTypes: true })).filter((d) => !d.name.startsWith("."));
      } catch {
        warnings.push(message("warning.root_unlistable", { root }));
        continue;
      }
      dirents.sort((a, b) => byCodePoint(a.name, b.name));
      const results = await mapLimit(dirents, CONCURRENCY, (d) => scanEntry(root, realRoot, d, rootIndex, fence));
      for (const r of results) {
        if (!r) continue;
        found.push(r.found);
        if (r.warning) warnings.push(r.warning); // in listing order, whatever order the reads finished in
      }
    }
    const winners = new Map<string, { entry?: CatalogEntry; broken?: BrokenSkill; shadowed: string[] }>();
    for (const f of found) {
      const name = f.ok ? f.entry.name : f.broken.name;
      const dir = f.ok ? f.entry.dir : f.broken.dir;
      const winner = winners.get(name);
      if (winner) {
        winner.shadowed.push(dir);
        warnings.push(message("warning.shadowed", { name, dir, winner: winner.entry?.dir ?? winner.broken?.dir ?? "" }));
        continue;
      }
      if (f.ok) {
        const shadowed: string[] = [];
        winners.set(name, { entry: { ...f.entry, frontmatter: f.entry.frontmatter as SkillFrontmatter, meta: { shadowed } }, shadowed });
      } else winners.set(name, { broken: f.broken, shadowed: [] });
    }
    const entries: CatalogEntry[] = [];
    const broken = new Map<string, BrokenSkill>();
    for (const [name, w] of winners) {
      if (w.entry) entries.push(w.entry);
      else if (w.broken) broken.set(name, w.broken);
    }
    entries.sort((a, b) => byCodePoint(a.name, b.name));
    return { entries, byName: new Map(entries.map((e) => [e.name, e])), broken, warnings, realRoots };
  }
}
