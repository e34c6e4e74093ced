// The gate (conformance/baseline.ts): what a listed case means for the run, with each case's observed status kept,
// and the checks a baseline file passes before anything runs.
import { describe, expect, it } from "vitest";
import { BaselineError, baselineEntries, gate, parseBaseline, type Baseline } from "../baseline.ts";
import type { CaseResult, RunReport } from "../runner/types.ts";

const known = { cases: new Set(["U01", "U02", "U13", "S01"]), rules: new Set(["R12"]) };
const baseline = (text: string): Baseline => parseBaseline(text, "known.txt", known);

function report(...cases: Array<Pick<CaseResult, "id" | "status"> & Partial<CaseResult>>): RunReport {
  return {
    kit: { version: "0", specVersion: "1" },
    implementation: { name: "x", version: "0", language: "x", driver: "x" },
    suite: "spec",
    started_at: "",
    summary: {
      total: cases.length,
      passed: 0,
      failed: 0,
      errored: 0,
      skipped: 0,
      expected_failures: 0,
      duration_ms: 5,
    },
    cases: cases.map((c) => ({ title: "t", spec: [], duration_ms: 0, ...c })),
  } as unknown as RunReport; // reports as a driver of the old shape wrote them (no rules[], mismatches without effect)
}

describe("the gate", () => {
  it("a listed failure is expected; the run passes", () => {
    const { report: r, verdict } = gate(
      report({ id: "U01", status: "failed" }, { id: "U02", status: "passed" }),
      baseline("U01\n"),
    );
    expect(r.cases.map((c) => c.status)).toEqual(["expected_failure", "passed"]);
    expect(r.summary).toMatchObject({ total: 2, passed: 1, expected_failures: 1, failed: 0 });
    expect(verdict.code).toBe(0);
  });

  it("a listed case that passed keeps status passed, is marked stale, and fails the run", () => {
    const { report: r, verdict } = gate(report({ id: "U01", status: "passed" }), baseline("U01\n"));
    expect(r.cases[0]).toMatchObject({ status: "passed", baseline: "stale" });
    expect(r.summary).toMatchObject({ passed: 1, failed: 0 });
    expect(verdict).toEqual({ code: 1, notes: ["stale expected failure: U01 passed; remove it from known.txt"] });
  });

  it("a listed skip is accepted; an unlisted one fails; a listed error still fails", () => {
    expect(gate(report({ id: "U13", status: "skipped" }), baseline("U13")).verdict.code).toBe(0);
    expect(gate(report({ id: "U13", status: "skipped" }), baseline("")).verdict.code).toBe(1);
    expect(gate(report({ id: "U13", status: "errored" }), baseline("U13")).verdict.code).toBe(1);
  });

  it("ids of cases that did not run (other suites, filtered out) are neither stale nor failing", () => {
    expect(gate(report({ id: "U02", status: "passed" }), baseline("U01\nS01\n")).verdict).toEqual({
      code: 0,
      notes: [],
    });
  });

  it("rule:<id> makes a failure expected when every rule it failed is listed", () => {
    const m = (rule: string) => ({ at: "calls[0].code", expected: 1, actual: 2, message: "x", rule });
    const b = baseline("rule:R12\n");
    expect(gate(report({ id: "U01", status: "failed", mismatches: [m("R12")] as never }), b).verdict.code).toBe(0);
    expect(
      gate(report({ id: "U01", status: "failed", mismatches: [m("R12"), m("R13")] as never }), b).verdict.code,
    ).toBe(1);
    const plural = { at: "calls[0]", expected: 1, actual: 2, message: "x", rules: ["R12"] };
    expect(gate(report({ id: "U01", status: "failed", mismatches: [plural] as never }), b).verdict.code).toBe(0);
  });
});

describe("reading a baseline", () => {
  it("one entry per line, # comments, blank lines ignored, line numbers kept", () => {
    expect(baselineEntries("# header\nU01\n\n  U02 # why\r\n#U03\n")).toEqual([
      [2, "U01"],
      [4, "U02"],
    ]);
  });

  it("an id of no suite, an unknown rule, or a binary file is refused with every bad line named", () => {
    expect(() => baseline("U01\nU1\n")).toThrow(/no case of any suite nor rule:<id> of a known rule: line 2 "U1"/);
    expect(() => baseline("rule:R99\n")).toThrow(/line 1 "rule:R99" \(no such rule\)/);
    expect(() => baseline("\u0000\u0001")).toThrow(BaselineError);
    expect(() => baseline("a\nb\nc\nd\ne\n")).toThrow(/5 entries .*line 3 "c", and 2 more$/);
  });
});
