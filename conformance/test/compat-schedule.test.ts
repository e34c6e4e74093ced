// How a compat run spends its time (conformance/compat/pool.ts, index.ts): targets side by side with results in their
// order, and which cases count as load-dependent (rerun once, alone, after every run): a timed case that missed a
// time check or a deadline, never one that failed on what it answered.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDependent } from "../compat/index.ts";
import { inPool } from "../compat/pool.ts";
import { runSuites } from "../compat/run-suites.ts";
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
