// Loads a dependency on its first use instead of when the importing module loads. The reference's heavier
// dependencies (yaml, fast-levenshtein, minimatch) serve frontmatter, "did you mean" and sensitive paths, none of which
// a stdio driver needs to answer `initialize`; imported statically they cost a few tens of milliseconds of every
// driver's start (`npm run bench -- --only 'startup.*'`). require() (package-root.ts kitRequire) keeps the callers synchronous; under Node each of
// these packages resolves require to the same code its ESM import would run (yaml and fast-levenshtein are CommonJS
// either way; minimatch ships the same source built twice).
import { kitRequire } from "../package-root.ts";

/** A getter that loads `specifier` once, on its first call. */
export function lazyModule<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= kitRequire(specifier) as T);
}
