// The contract suite (conformance/cases-contract/, C01…) pins the choices the spec leaves open (R31–R38):
// the reference passes every case under profile exact. Its mutants (conformance/cases-contract/<ID>.mutants.ts) are run by
// the one mutant test, conformance/test/mutants.test.ts.
import { describe, expect, it } from "vitest";
import { loadModule } from "../driver/in-process.ts";
import { REFERENCE_MODULE } from "../mutants/wrap.ts";
import { loadCases, runSuite, suites } from "../runner/index.ts";

const cases = loadCases("contract");

describe("contract suite", () => {
  it("the reference passes every case", async () => {
    const report = await runSuite(() => loadModule(REFERENCE_MODULE), cases, {
      driverLabel: "reference",
      suite: "contract",
      profile: "exact",
    });
    expect(
      report.cases
        .filter((c) => c.status !== "passed")
        .map((c) => `${c.id}: ${c.status} ${JSON.stringify(c.mismatches ?? c.reason)}`),
    ).toEqual([]);
  });

  it("--suite all loads every suite", () => {
    const all = loadCases("all");
    expect(all.filter((c) => c.suite === "contract").map((c) => c.id)).toEqual(cases.map((c) => c.id));
    expect([...new Set(all.map((c) => c.suite))]).toEqual(suites());
    expect(suites().slice(0, 1)).toEqual(["spec"]);
    expect(suites()).toEqual(expect.arrayContaining(["security", "contract"]));
  });
});
