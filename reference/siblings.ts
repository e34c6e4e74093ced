// Fuzzy "did you mean" (§3.3, R8): Levenshtein similarity ≥ 0.6, best first, ties by name, top 3.
import type Levenshtein from "fast-levenshtein";
import { LIMITS } from "../schemas/index.ts";
import { lazyModule } from "./lazy-module.ts";
import { byCodePoint } from "./order.ts";

/** Loaded with the first unknown name (lazy-module.ts says why). */
const levenshtein = lazyModule<typeof Levenshtein>("fast-levenshtein");

export function similarity(a: string, b: string): number {
  const max = Math.max(a.length, b.length);
  return max === 0 ? 1 : 1 - levenshtein().get(a, b) / max;
}

export function siblings(name: string, installed: readonly string[]): string[] {
  const min = LIMITS.sibling_similarity_min;
  const scored: { n: string; s: number }[] = [];
  for (const n of installed) {
    // The length difference alone bounds the similarity from above: skip hopeless names cheaply.
    const max = Math.max(n.length, name.length);
    if (max > 0 && 1 - Math.abs(n.length - name.length) / max < min) continue;
    const s = similarity(name, n);
    if (s >= min) scored.push({ n, s });
  }
  scored.sort((x, y) => y.s - x.s || byCodePoint(x.n, y.n));
  return scored.slice(0, LIMITS.siblings_max).map((x) => x.n);
}
