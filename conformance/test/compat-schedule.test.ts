// How a compat run spends its time (conformance/compat/pool.ts, index.ts): targets side by side with results in their
// order, and which cases count as load-dependent (rerun once, alone, after every run): a timed case that missed a
// time check or a deadline near its bound (K123), never one that failed on what it answered or missed by far.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOAD_FACTOR, loadDependent } from "../compat/index.ts";
import { longestBoundMs } from "../runner/schedule.ts";
import { inPool, longestFirst } from "../compat/pool.ts";
import { runSuites } from "../compat/run-suites.ts";
import type { CaseResult, Mismatch } from "../runner/types.ts";

const miss = (key: string, expected: unknown = 1, actual: unknown = 2): Mismatch =>
  ({
    at: "calls[0]",
    key,
    rules: [],
    effect: "fails_case",
    expected,
    actual,
    what: "x",
    message: "x",
  }) as Mismatch;
const result = (
  id: string,
  status: CaseResult["status"],
  mismatches: Mismatch[] = [],
  duration_ms = 0,
): CaseResult => ({
  id,
  title: id,
  spec: [],
  rules: [],
  checked_rules: [],
  status,
  duration_ms,
  ...(mismatches.length ? { mismatches } : {}),
});
// S16's 1,000 calls within 4 s, as the kit writes a miss of it (runner/case.ts slow).
const slow = (ms: number) => miss("max_ms", "an answer within 4000 ms", `${ms} ms`);

describe("load-dependent cases (K123)", () => {
  const bounds = new Map([["S16", 4000]]);
  it("a timed case that missed its bound by less than LOAD_FACTOR times, or errored that near it, is rerun", () => {
    expect(loadDependent(result("S16", "failed", [miss("kinds"), slow(9000)]), bounds)).toBe(true);
    expect(loadDependent(result("S16", "errored", [], 6000), bounds)).toBe(true);
    // A miss the kit wrote in another form is rerun, never skipped on a reading that failed.
    expect(loadDependent(result("S16", "failed", [miss("max_ms")]), bounds)).toBe(true);
  });
  it("not one that missed by LOAD_FACTOR times or more: a hang to the deadline, 1,000 calls in a minute", () => {
    expect(loadDependent(result("S16", "failed", [slow(LOAD_FACTOR * 4000)]), bounds)).toBe(false);
    expect(loadDependent(result("S16", "failed", [slow(66790)]), bounds)).toBe(false);
    expect(loadDependent(result("S16", "errored", [], 120_000), bounds)).toBe(false);
  });
  it("not one that passed, failed only on its answers, or bounds no time", () => {
    expect(loadDependent(result("S16", "passed"), bounds)).toBe(false);
    expect(loadDependent(result("S16", "failed", [miss("kinds"), miss("in_order")]), bounds)).toBe(false);
    expect(loadDependent(result("U01", "errored"), bounds)).toBe(false);
  });
});

describe("the longest time a case bounds", () => {
  it("is the largest max_ms or budget_ms anywhere in its catalog or calls; 0 when none", () => {
    expect(longestBoundMs({ calls: [{ expect: { max_ms: 2000 } }, { race: { budget_ms: 30000 } }] } as never)).toBe(
      30000,
    );
    expect(longestBoundMs({ catalog: { max_ms: 5000 }, calls: [] } as never)).toBe(5000);
    expect(longestBoundMs({ calls: [{ expect: { kind: "ok" } }] } as never)).toBe(0);
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

  it("starts the targets an earlier run took longest on first (unknown ones before them), results still in order", async () => {
    const earlier = [8, undefined, 700, 5, 300];
    const order = longestFirst(earlier.length, (i) => earlier[i]);
    expect(order).toEqual([1, 2, 4, 0, 3]);
    const started: number[] = [];
    const out = await inPool(
      earlier,
      2,
      async (_, i) => {
        started.push(i);
        await new Promise((r) => setTimeout(r, 5));
        return i;
      },
      order,
    );
    expect(started).toEqual(order);
    expect(out).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("a folder's own --jobs", () => {
  it("is kept: compat adds its --jobs only when the folder's args have none (twice is the CLI's usage error)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "own-jobs-"));
    try {
      const t = { id: "reference", kind: "reference" as const, spec: "", display: "ref", args: ["--jobs", "3"] };
      const run = await runSuites(process.cwd(), t, undefined, join(dir, "r.json"), 60_000, ["U01"], 2);
      expect(run.reason).toBeUndefined();
      expect(run.exit).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
