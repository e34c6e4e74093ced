// Every case can fail: for each of the 30 spec cases a mutant (a wrapped, deliberately wrong reference)
// makes that case `failed` — never `errored`, which would mean the mutant, not the case, is broken.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MUTANTS } from "../mutants/index.ts";
import { loadCases, runSuite } from "../runner/index.ts";

const cases = loadCases();

describe("mutants", () => {
  it("the mutant tables import only wrap.ts, never each other (no import cycle through index.ts)", () => {
    const dir = join(import.meta.dirname, "..", "mutants");
    const imports = readdirSync(dir)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => [...readFileSync(join(dir, f), "utf8").matchAll(/from "\.\/([^"]+)"/g)].map((m) => `${f} -> ${m[1]}`));
    expect(imports.filter((i) => !i.endsWith("-> wrap.ts"))).toEqual([]);
  });

  it("there is a mutant for every spec case", () => {
    expect([...new Set(MUTANTS.map((m) => m.kills))].sort()).toEqual(cases.map((c) => c.id));
    expect(new Set(MUTANTS.map((m) => m.id)).size).toBe(MUTANTS.length);
  });

  it.each(MUTANTS.map((m) => [m.kills, m.id, m] as const))("%s fails under %s", async (kills, _id, m) => {
    const report = await runSuite(() => m.make(), cases, { driverLabel: `mutant:${m.id}`, suite: "spec" });
    const target = report.cases.find((c) => c.id === kills)!;
    expect({ status: target.status, reason: target.reason }).toEqual({ status: "failed", reason: undefined });
    expect(target.mismatches?.length).toBeGreaterThan(0);
    expect(report.cases.filter((c) => c.status === "errored").map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
  });
});
