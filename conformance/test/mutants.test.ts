// Every case and every rule can fail: the mutants of every suite (conformance/mutants/*.ts), each a wrapped,
// deliberately wrong reference keyed by {case, rule}, in one test. Run on its case under profile exact, a mutant
// must make its rule fail, with that case among the ones that show it, and never make the case `errored` (that
// would mean the mutant, not the case, is broken). The case itself fails exactly when the rule is one it exists
// to test: a mutant that breaks only a classification (path-names-not-found) leaves the security case passing.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTRACT_MUTANTS } from "../mutants/contract.ts";
import { FRONTMATTER_MUTANTS } from "../mutants/frontmatter.ts";
import { MUTANTS } from "../mutants/index.ts";
import { SECURITY_MUTANTS } from "../mutants/security.ts";
import { loadCases, runSuite, suites } from "../runner/index.ts";
import { ruleIndex } from "../runner/rules.ts";

const ALL = [...MUTANTS, ...SECURITY_MUTANTS, ...CONTRACT_MUTANTS, ...FRONTMATTER_MUTANTS];
const cases = loadCases("all");

describe("mutants", () => {
  it("the mutant tables import only wrap.ts, never each other (no import cycle through index.ts)", () => {
    const dir = join(import.meta.dirname, "..", "mutants");
    const imports = readdirSync(dir)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => [...readFileSync(join(dir, f), "utf8").matchAll(/from "\.\/([^"]+)"/g)].map((m) => `${f} -> ${m[1]}`));
    expect(imports.filter((i) => !i.endsWith("-> wrap.ts"))).toEqual([]);
  });

  it("every case of every suite has a mutant; ids are unique; every key names a case and a rule that exist", () => {
    expect([...new Set(ALL.map((m) => m.kills))].sort()).toEqual(cases.map((c) => c.id).sort());
    expect(new Set(ALL.map((m) => m.id)).size).toBe(ALL.length);
    expect(ALL.filter((m) => !ruleIndex().has(m.rule)).map((m) => `${m.id}: ${m.rule}`)).toEqual([]);
    expect(suites().every((s) => cases.some((c) => c.suite === s))).toBe(true);
  });

  it.each(ALL.map((m) => [m.kills, m.rule, m.id, m] as const))("%s / %s fails under %s", async (kills, rule, _id, m) => {
    const target = cases.filter((c) => c.id === kills);
    const report = await runSuite(() => m.make(), target, { driverLabel: `mutant:${m.id}`, suite: target[0]!.suite, profile: "exact" });
    const r = report.cases[0]!;
    const verdict = report.rules.find((x) => x.id === rule)!;
    expect({ status: verdict.status, cases: verdict.cases }).toEqual({ status: "failed", cases: [kills] });
    expect({ status: r.status, reason: r.reason }).toEqual({ status: target[0]!.rules!.includes(rule) ? "failed" : "passed", reason: undefined });
    // Whatever a mutant did to the prototypes was undone by the runner.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
