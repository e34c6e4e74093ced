// The workspace fence (§5.3, R6): a path is inside a root only if its real path is the root's real path
// or below it. Symlinks and `..` are resolved by realpath before comparing, never by string tricks.
import { realpath } from "node:fs/promises";
import { sep } from "node:path";

export function isInside(realPath: string, realRoots: readonly string[]): boolean {
  // "root, then a separator" tested in place: discovery asks once per skill, and root + sep made a string each time.
  return realRoots.some(
    (root) =>
      realPath === root || (realPath.startsWith(root) && (root.endsWith(sep) || realPath.startsWith(sep, root.length))),
  );
}

/** realpath, or null when the path does not resolve (missing, a loop, no permission). */
export async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}
