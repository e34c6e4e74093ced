// Sensitive-pattern matching (§5.4, D6): minimatch with dot: true against the skill dir's real path and
// its configured path; a pattern ending in /** also matches the directory itself.
import type * as Minimatch from "minimatch";
import { lazyModule } from "./lazy-module.ts";

/** Loaded with the first sensitive pattern checked (lazy-module.ts says why). */
const minimatchLib = lazyModule<typeof Minimatch>("minimatch");

/** Paths to the first pattern one of them matches, or null. */
export type SensitiveMatcher = (paths: readonly string[]) => string | null;

/**
 * The patterns compiled once (a session's are fixed): each is a Minimatch, as minimatch(path, pattern, { dot: true })
 * builds it, so a path matches exactly as it would there, without rebuilding the options key and the cache lookup
 * of every call (R23). An invalid pattern throws here, as minimatch() would at the match.
 */
export function sensitiveMatcher(patterns: readonly string[]): SensitiveMatcher {
  if (patterns.length === 0) return () => null;
  const { Minimatch: Compiled } = minimatchLib();
  const compiled = patterns.map((pattern) => {
    const self = pattern.endsWith("/**") ? pattern.slice(0, -3) : "";
    return { pattern, full: new Compiled(pattern, { dot: true }), self: self.length > 0 ? new Compiled(self, { dot: true }) : null };
  });
  return (paths) => {
    for (const { pattern, full, self } of compiled) {
      for (const p of paths) if (full.match(p) || (self !== null && self.match(p))) return pattern;
    }
    return null;
  };
}
