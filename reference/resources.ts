// Resource listing (§8, D10): file names (never contents) under scripts/, references/, assets/,
// walked recursively without following symlinked dirs, hidden entries skipped, sorted by code point,
// at most 10 per folder with a count of the rest.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { LIMITS } from "../schemas/index.ts";

export interface ResourceListing {
  resources: string[];
  omitted: Record<string, number>;
  /** Per folder, the listed names then the omitted count, for rendering. */
  groups: { folder: string; names: string[]; omitted: number }[];
}

const MAX_DEPTH = LIMITS.resource_walk_max_depth;
const MAX_ENTRIES = LIMITS.resource_walk_max_entries;

async function walk(dir: string, rel: string, depth: number, out: string[]): Promise<void> {
  if (depth > MAX_DEPTH || out.length >= MAX_ENTRIES) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith(".")) continue;
    const relPath = `${rel}/${e.name}`;
    if (e.isDirectory()) await walk(join(dir, e.name), relPath, depth + 1, out);
    else if (e.isFile() || e.isSymbolicLink()) out.push(relPath);
    if (out.length >= MAX_ENTRIES) return;
  }
}

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export async function listResources(skillDir: string): Promise<ResourceListing> {
  const listing: ResourceListing = { resources: [], omitted: {}, groups: [] };
  for (const folder of LIMITS.resource_folders) {
    const all: string[] = [];
    await walk(join(skillDir, folder), folder, 0, all);
    if (all.length === 0) continue;
    all.sort(byCodePoint);
    const names = all.slice(0, LIMITS.resources_per_folder);
    const omitted = all.length - names.length;
    listing.resources.push(...names);
    if (omitted > 0) listing.omitted[folder] = omitted;
    listing.groups.push({ folder, names, omitted });
  }
  return listing;
}
