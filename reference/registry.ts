// Skill discovery and loading from the filesystem (§5.1, §5.2, §10, R6). Scans each configured root one
// level deep, never above it; keeps broken and fenced-off skills aside by directory name so activating
// them returns their error; resolves shadowing by root order. Never throws: problems become warnings.
import { lstat, open, readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { LIMITS } from "../schemas/index.ts";
import type { CatalogEntry, ErrorCode, SkillFrontmatter } from "../schemas/index.ts";
import { isInside, realOrNull } from "./fence.ts";
import { parseSkillMd } from "./frontmatter.ts";
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
  broken: Map<string, BrokenSkill>;
  warnings: string[];
  /** Real path of each configured root, null when it does not resolve. */
  realRoots: (string | null)[];
}

type Found = { ok: true; entry: SkillEntry } | { ok: false; broken: BrokenSkill };

const CONCURRENCY = LIMITS.discovery_concurrency;
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  });
  await Promise.all(workers);
  return out;
}

/** Read a file as UTF-8 text with the size cap applied before reading (D11). */
export async function readSkillFile(path: string): Promise<{ ok: true; text: string } | { ok: false; failure: SkillFailure }> {
  let handle;
  try {
    handle = await open(path, "r");
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, failure: { code: "IO_ERROR", kind: "io", path, reason: "SKILL.md is not a regular file" } };
    if (info.size > LIMITS.skill_md_max_bytes) {
      return { ok: false, failure: { code: "IO_ERROR", kind: "io", path, reason: `SKILL.md is ${info.size} bytes; the limit is ${LIMITS.skill_md_max_bytes}` } };
    }
    const bytes = await handle.readFile();
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, failure: { code: "INVALID_FRONTMATTER", kind: "field", path, reason: "SKILL.md is not valid UTF-8 text" } };
    }
    if (text.includes("\0")) {
      return { ok: false, failure: { code: "INVALID_FRONTMATTER", kind: "field", path, reason: "SKILL.md contains NUL bytes: it is not a text file" } };
    }
    return { ok: true, text };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "unknown";
    return { ok: false, failure: { code: "IO_ERROR", kind: "io", path, reason: `cannot read SKILL.md (${code})` } };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Resolve and read one skill dir, fenced: the dir and its SKILL.md must both resolve inside a root.
 * Used at discovery and again at activation (the tree may have changed in between).
 */
export async function readSkill(
  dir: string,
  rootIndex: number,
  realRoots: readonly (string | null)[],
): Promise<{ ok: true; entry: SkillEntry; body: string; realDir: string } | { ok: false; failure: SkillFailure }> {
  const roots = realRoots.filter((r): r is string => r !== null);
  const realDir = await realOrNull(dir);
  const mdPath = join(dir, "SKILL.md");
  if (realDir === null) return { ok: false, failure: { code: "IO_ERROR", kind: "io", path: dir, reason: "the skill directory no longer resolves" } };
  if (!isInside(realDir, roots)) {
    return { ok: false, failure: { code: "OUTSIDE_WORKSPACE", kind: "outside", path: dir, reason: `the skill directory resolves to ${realDir}, outside every configured skill root` } };
  }
  const realMd = await realOrNull(mdPath);
  if (realMd === null) return { ok: false, failure: { code: "IO_ERROR", kind: "io", path: mdPath, reason: "SKILL.md does not resolve" } };
  if (!isInside(realMd, roots)) {
    return { ok: false, failure: { code: "OUTSIDE_WORKSPACE", kind: "outside", path: mdPath, reason: `SKILL.md resolves to ${realMd}, outside every configured skill root` } };
  }
  const read = await readSkillFile(realMd);
  if (!read.ok) return { ok: false, failure: { ...read.failure, path: mdPath } };
  const parsed = parseSkillMd(read.text, basename(dir));
  if (!parsed.ok) {
    return { ok: false, failure: { code: parsed.code, kind: parsed.kind, path: mdPath, reason: parsed.reason, ...(parsed.line !== undefined ? { line: parsed.line } : {}) } };
  }
  const fm = parsed.frontmatter;
  return { ok: true, entry: { name: fm.name, description: fm.description, dir, root_index: rootIndex, frontmatter: fm }, body: parsed.body, realDir };
}

async function scanDir(dir: string, rootIndex: number, realRoots: readonly (string | null)[], warnings: string[]): Promise<Found | null> {
  // A subdirectory without SKILL.md is not a skill: omitted silently (§5.2 step 2, case 29).
  try {
    await lstat(join(dir, "SKILL.md"));
  } catch {
    return null;
  }
  const read = await readSkill(dir, rootIndex, realRoots);
  if (read.ok) return { ok: true, entry: read.entry };
  warnings.push(`skill ${dir} skipped: ${read.failure.code}: ${read.failure.reason}`);
  return { ok: false, broken: { name: basename(dir), dir, root_index: rootIndex, failure: read.failure } };
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
    const entry = discovery.entries.find((e) => e.name === name);
    if (!entry) return null;
    const read = await readSkill(entry.dir, entry.root_index, discovery.realRoots);
    if (!read.ok) return null;
    const listing = await listResources(read.realDir);
    return { ...read.entry, body: read.body, resources: listing.resources, listing };
  }

  private async scanOnce(): Promise<Discovery> {
    const warnings: string[] = [];
    const realRoots = await Promise.all(this.roots.map((r) => realOrNull(r)));
    const found: Found[] = [];
    for (const [rootIndex, root] of this.roots.entries()) {
      const realRoot = realRoots[rootIndex];
      if (realRoot === null || realRoot === undefined) {
        warnings.push(`skill root ${root} does not exist or cannot be resolved; skipped`);
        continue;
      }
      let names: string[];
      try {
        const info = await stat(realRoot);
        if (!info.isDirectory()) throw new Error("not a directory");
        names = (await readdir(realRoot)).filter((n) => !n.startsWith(".")).sort(byCodePoint);
      } catch {
        warnings.push(`skill root ${root} cannot be listed; skipped`);
        continue;
      }
      const results = await mapLimit(names, CONCURRENCY, (n) => scanDir(join(root, n), rootIndex, realRoots, warnings));
      for (const r of results) if (r) found.push(r);
    }
    const winners = new Map<string, { entry?: CatalogEntry; broken?: BrokenSkill; shadowed: string[] }>();
    for (const f of found) {
      const name = f.ok ? f.entry.name : f.broken.name;
      const dir = f.ok ? f.entry.dir : f.broken.dir;
      const winner = winners.get(name);
      if (winner) {
        winner.shadowed.push(dir);
        const by = winner.entry?.dir ?? winner.broken?.dir;
        warnings.push(`skill "${name}" at ${dir} is shadowed by ${by}`);
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
    return { entries, broken, warnings, realRoots };
  }
}
