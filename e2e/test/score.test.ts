// pass@k / pass^k against independent computations: brute-force enumeration of every k-subset, and exact BigInt
// binomials; plus the cell summary (errors apart, n/a when n < k).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { passAtK, passHatK, summarise, type TrialResult } from "../score.ts";

/** Enumerate every k-subset of n trials (the first c pass): the fraction with ≥1 pass, and with all passing. */
function bruteForce(n: number, c: number, k: number): { any: number; all: number } {
  let subsets = 0;
  let any = 0;
  let all = 0;
  const rec = (start: number, chosen: number[]) => {
    if (chosen.length === k) {
      subsets++;
      const passes = chosen.filter((i) => i < c).length;
      if (passes > 0) any++;
      if (passes === k) all++;
      return;
    }
    for (let i = start; i < n; i++) rec(i + 1, [...chosen, i]);
  };
  rec(0, []);
  return { any: any / subsets, all: all / subsets };
}

function binom(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

describe("pass@k and pass^k", () => {
  it("match brute-force enumeration of k-subsets for every n ≤ 9", () => {
    for (let n = 1; n <= 9; n++)
      for (let c = 0; c <= n; c++)
        for (let k = 1; k <= n; k++) {
          const b = bruteForce(n, c, k);
          expect(passAtK(n, c, k)).toBeCloseTo(b.any, 12);
          expect(passHatK(n, c, k)).toBeCloseTo(b.all, 12);
        }
  });

  it("are undefined when n < k", () => {
    expect(passAtK(3, 2, 5)).toBeUndefined();
    expect(passHatK(3, 3, 5)).toBeUndefined();
    expect(passAtK(0, 0, 1)).toBeUndefined();
  });

  it("known values: pass@1 = c/n, all-pass and no-pass edges", () => {
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
    expect(passHatK(10, 3, 1)).toBeCloseTo(0.3, 12);
    expect(passAtK(10, 0, 5)).toBe(0);
    expect(passAtK(10, 6, 5)).toBe(1); // n - c < k: every 5-subset holds a pass
    expect(passHatK(10, 10, 5)).toBe(1);
    expect(passHatK(10, 4, 5)).toBe(0);
    // 1 - C(5,2)/C(10,2) = 1 - 10/45
    expect(passAtK(10, 5, 2)).toBeCloseTo(1 - 10 / 45, 12);
  });

  it("stay exact and finite for large n where the binomials overflow doubles (vs BigInt)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 2000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 150 }),
        (n, frac, k) => {
          const c = Math.round(frac * n);
          const at = passAtK(n, c, k)!;
          const hat = passHatK(n, c, k)!;
          const scale = 10n ** 30n;
          const exactFail = Number((binom(n - c, k) * scale) / binom(n, k)) / 1e30;
          const exactAll = Number((binom(c, k) * scale) / binom(n, k)) / 1e30;
          expect(Number.isFinite(at) && Number.isFinite(hat)).toBe(true);
          expect(Math.abs(at - (1 - exactFail))).toBeLessThan(1e-9);
          expect(Math.abs(hat - exactAll)).toBeLessThan(1e-9);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reject impossible inputs", () => {
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
    expect(() => passHatK(2.5, 1, 1)).toThrow(RangeError);
  });
});

describe("summarise", () => {
  const r = (outcome: TrialResult["outcome"], reason: string = outcome): TrialResult => ({
    scenario: "SK1",
    model: "m",
    modelKind: "real",
    trial: 1,
    outcome,
    reason,
  });
  it("counts errors apart and leaves them out of n", () => {
    const [cell] = summarise(
      [r("pass"), r("fail", "x"), r("error", "model error: down"), r("pass"), r("fail", "x")],
      [1, 5],
    );
    expect(cell).toMatchObject({ trials: 5, n: 4, passed: 2, failed: 2, errors: 1 });
    expect(cell!.passAtK["1"]).toBeCloseTo(0.5);
    expect(cell!.passAtK["5"]).toBeNull();
    expect(cell!.reasons.find((x) => x.reason === "x")?.count).toBe(2);
  });
});
