// Resource listing (§8, D10): file names (never contents) under scripts/, references/, assets/,
// walked recursively, hidden entries skipped, sorted by code point, at most 10 in all (folder after folder) with a
// count of the rest per folder. Fenced like the skill itself (§5.3): a folder or a symlinked file that resolves outside every
// root, and anything that is not a regular file (a link to a dir, a dangling link, a loop), is not listed.
// Synchronous: a few small readdirs, cheaper than their async round trips.
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { join, sep } from "node:path";
import { LIMITS } from "../schemas/index.ts";
import { byCodePoint } from "./order.ts";
import { isInside } from "./fence.ts";

export interface ResourceListing {
  resources: string[];
  omitted: Record<string, number>;
  /** Per folder, the listed names then the omitted count, for rendering. */
  groups: { folder: string; names: string[]; omitted: number }[];
}

const MAX_DEPTH = LIMITS.resource_walk_max_depth;
const MAX_ENTRIES = LIMITS.resource_walk_max_entries;

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Where a symlink points, if it is a regular file or a directory inside the roots. */
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

function walk(dir: string, rel: string, depth: number, roots: readonly string[], out: string[]): void {
  if (depth > MAX_DEPTH) return;
  for (const e of list(dir)) {
    if (out.length >= MAX_ENTRIES) return;
    if (e.name.startsWith(".")) continue;
    const relPath = `${rel}/${e.name}`;
    // dir is a real path (or below one) and e.name one component: join would only concatenate.
    if (e.isDirectory()) walk(`${dir}${sep}${e.name}`, relPath, depth + 1, roots, out);
    else if (e.isFile()) out.push(relPath);
    else if (e.isSymbolicLink() && resolveLink(`${dir}${sep}${e.name}`, roots) === "file") out.push(relPath);
  }
}


export function listResources(realSkillDir: string, realRoots: readonly (string | null)[]): ResourceListing {
  const roots = realRoots.filter((r): r is string => r !== null);
  const listing: ResourceListing = { resources: [], omitted: {}, groups: [] };
  const top = list(realSkillDir);
  for (const folder of LIMITS.resource_folders) {
    const e = top.find((d) => d.name === folder);
    if (!e) continue;
    if (!e.isDirectory() && !(e.isSymbolicLink() && resolveLink(join(realSkillDir, folder), roots) === "dir")) continue;
    const all: string[] = [];
    walk(join(realSkillDir, folder), folder, 0, roots, all);
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
  return listing;
}
