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
  // Each compiled when the loop first reaches it: a pattern minimatch refuses (over 64 KiB) fails only a check
  // that reaches it, as minimatch() did.
  const compiled = patterns.map((pattern) => ({ pattern, full: null as Minimatch.Minimatch | null, self: undefined as Minimatch.Minimatch | null | undefined }));
  return (paths) => {
    for (const c of compiled) {
      c.full ??= new Compiled(c.pattern, { dot: true });
      if (c.self === undefined) c.self = c.pattern.endsWith("/**") && c.pattern.length > 3 ? new Compiled(c.pattern.slice(0, -3), { dot: true }) : null;
      for (const p of paths) if (c.full.match(p) || (c.self !== null && c.self.match(p))) return c.pattern;
    }
    return null;
  };
}
