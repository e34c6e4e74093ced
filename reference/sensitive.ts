// Sensitive-pattern matching (§5.4, D6): minimatch with dot: true against the skill dir's real path and
// its configured path; a pattern ending in /** also matches the directory itself.
import type * as Minimatch from "minimatch";
import { lazyModule } from "./lazy-module.ts";

/** Loaded with the first sensitive pattern checked (lazy-module.ts says why). */
const minimatchLib = lazyModule<typeof Minimatch>("minimatch");

export function matchesSensitive(paths: readonly string[], patterns: readonly string[]): string | null {
  if (patterns.length === 0) return null;
  const { minimatch } = minimatchLib();
  for (const pattern of patterns) {
    const self = pattern.endsWith("/**") ? pattern.slice(0, -3) : null;
    for (const p of paths) {
      if (minimatch(p, pattern, { dot: true }) || (self !== null && self.length > 0 && minimatch(p, self, { dot: true }))) {
        return pattern;
      }
    }
  }
  return null;
}
