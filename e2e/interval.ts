// The 95% Wilson score interval for a pass rate: at the n an evaluator can afford (5–10 trials) pass@1 alone says
// little, and unlike the normal approximation Wilson stays inside [0, 1] and is not degenerate at 0/n or n/n.
// Owns: wilson (decision R66).

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** Wilson interval for c successes out of n; null when n = 0 (no verdict, no interval). */
export function wilson(c: number, n: number, z = Z95): { low: number; high: number } | null {
  if (!Number.isInteger(n) || !Number.isInteger(c) || n < 0 || c < 0 || c > n)
    throw new RangeError(`need integers 0 ≤ c ≤ n (c=${c}, n=${n})`);
  if (n === 0) return null;
  const p = c / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Clamp only float noise: at c = 0 the low end is exactly 0, at c = n the high end exactly 1.
  return { low: c === 0 ? 0 : Math.max(0, centre - half), high: c === n ? 1 : Math.min(1, centre + half) };
}
