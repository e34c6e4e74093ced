// Resource listing (§8, D10): file names (never contents) under scripts/, references/, assets/,
// walked recursively, hidden entries skipped, sorted by code point, at most 10 in all (folder after folder) with a
// count of the rest per folder. Fenced like the skill itself (§5.3): every directory listed is opened once and fenced
// by its own real path, read from the descriptor, and what lies below it is reached relative to it (R142, X2); a
// symlinked file that resolves outside every root, and anything that is not a regular file (a link to a dir, a
// dangling link, a loop, a FIFO), is not listed. Names are bytes (R140): one that is not UTF-8 is not listed nor
// followed, and is counted for the folder's warning instead. Synchronous: a few small readdirs, cheaper than their
// async round trips.
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { LIMITS } from "../schemas/index.ts";
import { message } from "../schemas/messages.ts";
import { byCodePoint } from "./order.ts";
import { isInside } from "./fence.ts";
import { below, close, NOFOLLOW, openFenced, type Handle } from "./fenced.ts";
import { escapeName, usableName } from "./byte-names.ts";

export interface ResourceListing {
  resources: string[];
  omitted: Record<string, number>;
  /** Per folder, the listed names then the omitted count, for rendering. */
  groups: { folder: string; names: string[]; omitted: number }[];
  /** R140: one warning per folder holding names that are not UTF-8. */
  warnings: string[];
}

const MAX_DEPTH = LIMITS.resource_walk_max_depth;
const MAX_ENTRIES = LIMITS.resource_walk_max_entries;
const DOT = 0x2e;

function list(h: Handle): Dirent<Buffer>[] {
  try {
    return readdirSync(h.base, { withFileTypes: true, encoding: "buffer" });
  } catch {
    return [];
  }
}

/** Where a symlink points, if it is a regular file or a directory inside the roots (names only are listed: no open). */
function resolveLink(path: string, roots: readonly string[]): "file" | "dir" | null {
  try {
    const real = realpathSync(path);
    if (!isInside(real, roots)) return null;
    const info = statSync(real);
    return info.isFile() ? "file" : info.isDirectory() ? "dir" : null;
  } catch {
    return null;
  }
}

/** Names that are not UTF-8 met in one folder's walk: how many, and the first by bytes of its relative path. */
interface Unusable {
  count: number;
  first: Buffer | null;
}

/** A directory opened and fenced by its own real path, or null (gone, swapped for a link, outside every root). */
function openInside(path: string, roots: readonly string[], flags: number): Handle | null {
  const o = openFenced(path, "dir", flags);
  if (!o.ok) return null;
  if (isInside(o.handle.real, roots)) return o.handle;
  close(o.handle);
  return null;
}

function walk(h: Handle, rel: string, depth: number, roots: readonly string[], out: string[], bad: Unusable): void {
  if (depth > MAX_DEPTH) return;
  for (const e of list(h)) {
    if (out.length >= MAX_ENTRIES) return;
    if (e.name[0] === DOT) continue;
    if (!usableName(e.name)) {
      const path = Buffer.concat([Buffer.from(`${rel}/`), e.name]);
      bad.count++;
      if (bad.first === null || Buffer.compare(path, bad.first) < 0) bad.first = path;
      continue;
    }
    const name = e.name.toString("utf8");
    const relPath = `${rel}/${name}`;
    if (e.isDirectory()) {
      // Not following a link that replaced the dir since it was listed; fenced by what was opened.
      const sub = openInside(below(h, name), roots, NOFOLLOW);
      if (sub === null) continue;
      try {
        walk(sub, relPath, depth + 1, roots, out, bad);
      } finally {
        close(sub);
      }
    } else if (e.isFile()) out.push(relPath);
    else if (e.isSymbolicLink() && resolveLink(below(h, name), roots) === "file") out.push(relPath);
  }
}

export function listResources(realSkillDir: string, realRoots: readonly (string | null)[]): ResourceListing {
  const roots = realRoots.filter((r): r is string => r !== null);
  const listing: ResourceListing = { resources: [], omitted: {}, groups: [], warnings: [] };
  const skill = openInside(realSkillDir, roots, 0);
  if (skill === null) return listing;
  try {
    const top = list(skill);
    for (const folder of LIMITS.resource_folders) {
      const e = top.find((d) => d.name.equals(Buffer.from(folder)));
      if (!e) continue;
      if (!e.isDirectory() && !e.isSymbolicLink()) continue;
      // A symlinked folder is followed and fenced by where it landed; a plain one is opened without following.
      const h = openInside(below(skill, folder), roots, e.isDirectory() ? NOFOLLOW : 0);
      if (h === null) continue;
      const all: string[] = [];
      const bad: Unusable = { count: 0, first: null };
      try {
        walk(h, folder, 0, roots, all, bad);
      } finally {
        close(h);
      }
      if (bad.first !== null)
        listing.warnings.push(
          message("warning.resources_not_utf8", { count: bad.count, entry: escapeName(bad.first) }),
        );
      if (all.length === 0) continue;
      all.sort(byCodePoint);
      // Up to 10 in all (D10: §3.1, §7 step 4), folder after folder, at most resources_per_folder from one.
      const room = Math.max(0, LIMITS.resources_max - listing.resources.length);
      const names = all.slice(0, Math.min(LIMITS.resources_per_folder, room));
      const omitted = all.length - names.length;
      listing.resources.push(...names);
      if (omitted > 0) listing.omitted[folder] = omitted;
      listing.groups.push({ folder, names, omitted });
    }
  } finally {
    close(skill);
  }
  return listing;
}
