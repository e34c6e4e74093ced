// The contract suite (conformance/cases-contract/, C01…) pins the choices the spec leaves open (R31–R38):
// the reference passes every case, every case has a mutant that makes the opposite choice, and each
// mutant makes its case `failed` (never `errored`, which would mean the mutant is broken, not the case).
import { describe, expect, it } from "vitest";
import { loadModule } from "../driver/in-process.ts";
import { CONTRACT_MUTANTS } from "../mutants/contract.ts";
import { REFERENCE_MODULE } from "../mutants/wrap.ts";
import { loadCases, runSuite, suites } from "../runner/index.ts";

const cases = loadCases("contract");

describe("contract suite", () => {
  it("the reference passes every case", async () => {
    const report = await runSuite(() => loadModule(REFERENCE_MODULE), cases, { driverLabel: "reference", suite: "contract" });
    expect(report.cases.filter((c) => c.status !== "passed").map((c) => `${c.id}: ${c.status} ${JSON.stringify(c.mismatches ?? c.reason)}`)).toEqual([]);
  });

  it("there is a mutant for every case", () => {
    expect([...new Set(CONTRACT_MUTANTS.map((m) => m.kills))].sort()).toEqual(cases.map((c) => c.id));
  });

  it.each(CONTRACT_MUTANTS.map((m) => [m.kills, m.id, m] as const))("%s fails under %s", async (kills, _id, m) => {
    const report = await runSuite(() => m.make(), cases, { driverLabel: `mutant:${m.id}`, suite: "contract" });
    const target = report.cases.find((c) => c.id === kills)!;
    expect({ status: target.status, reason: target.reason }).toEqual({ status: "failed", reason: undefined });
    expect(report.cases.filter((c) => c.status === "errored").map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
  });

  it("--suite all loads every suite", () => {
    const all = loadCases("all");
    expect(all.filter((c) => c.suite === "contract").map((c) => c.id)).toEqual(cases.map((c) => c.id));
    expect([...new Set(all.map((c) => c.suite))]).toEqual(suites());
    expect(suites().slice(0, 1)).toEqual(["spec"]);
    expect(suites()).toEqual(expect.arrayContaining(["security", "contract"]));
  });
});
