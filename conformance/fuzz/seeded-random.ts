// The seeded randomness the fuzz, the property-test documents and the benchmark's skill trees share: the same
// seed gives the same inputs, so a disagreement or a figure can be reproduced. Owns: Rng, mulberry32, pick, int.

export type Rng = () => number;

/** mulberry32: a small, fast 32-bit PRNG, uniform in [0, 1). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
export const int = (rng: Rng, n: number): number => Math.floor(rng() * n);
