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
 * of every call (R23).
 */
export function sensitiveMatcher(patterns: readonly string[]): SensitiveMatcher {
  if (patterns.length === 0) return () => null;
  const { Minimatch: Compiled } = minimatchLib();
  const opts = { dot: true };
  // A pattern ending in /** also matches the directory itself: its head is compiled beside it.
  const compile = (pattern: string) => ({
    full: new Compiled(pattern, opts),
    self: pattern.endsWith("/**") && pattern.length > 3 ? new Compiled(pattern.slice(0, -3), opts) : null,
  });
  // Each compiled when the loop first reaches it: a pattern minimatch refuses (over 64 KiB) fails only a check
  // that reaches it, as minimatch() did.
  const compiled: ReturnType<typeof compile>[] = [];
  return (paths) => {
    for (const [i, pattern] of patterns.entries()) {
      const { full, self } = (compiled[i] ??= compile(pattern));
      for (const p of paths) if (full.match(p) || self?.match(p)) return pattern;
    }
    return null;
  };
}
