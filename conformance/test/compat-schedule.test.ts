// How a compat run spends its time (conformance/compat/pool.ts, index.ts): targets side by side with results in their
// order, and which cases count as load-dependent (rerun once, alone, after every run): a timed case that missed a
// time check or a deadline, never one that failed on what it answered.
import { describe, expect, it } from "vitest";
import { loadDependent } from "../compat/index.ts";
import { inPool } from "../compat/pool.ts";
import type { CaseResult, Mismatch } from "../runner/types.ts";

const miss = (key: string): Mismatch =>
  ({
    at: "calls[0]",
    key,
    rules: [],
    effect: "fails_case",
    expected: 1,
    actual: 2,
    what: "x",
    message: "x",
  }) as Mismatch;
const result = (id: string, status: CaseResult["status"], keys: string[] = []): CaseResult => ({
  id,
  title: id,
  spec: [],
  rules: [],
  checked_rules: [],
  status,
  duration_ms: 0,
  ...(keys.length ? { mismatches: keys.map(miss) } : {}),
});

describe("load-dependent cases", () => {
  const timed = new Set(["S16"]);
  it("a timed case that missed its time bound, or errored (a deadline), is rerun", () => {
    expect(loadDependent(result("S16", "failed", ["kinds", "max_ms"]), timed)).toBe(true);
    expect(loadDependent(result("S16", "errored"), timed)).toBe(true);
  });
  it("not one that passed, failed only on its answers, or bounds no time", () => {
    expect(loadDependent(result("S16", "passed"), timed)).toBe(false);
    expect(loadDependent(result("S16", "failed", ["kinds", "in_order"]), timed)).toBe(false);
    expect(loadDependent(result("U01", "errored"), timed)).toBe(false);
  });
});

describe("targets side by side", () => {
  it("never more than the width at once, every result in the items' order", async () => {
    let active = 0,
      most = 0;
    const out = await inPool([50, 10, 30, 5, 20], 2, async (ms, i) => {
      most = Math.max(most, ++active);
      await new Promise((r) => setTimeout(r, ms));
      active--;
      return i;
    });
    expect(out).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });
});
