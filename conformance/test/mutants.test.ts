// Every case and every rule can fail: the mutants of every case (conformance/cases*/<ID>.mutants.ts, found by the
// catalog), each a wrapped, deliberately wrong reference keyed by {case, rule}, in one test. Run on its case under
// profile exact, a mutant must make its rule fail, with that case among the ones that show it, and never make the
// case `errored` (that would mean the mutant, not the case, is broken). The case itself fails exactly when the rule
// is one it exists to test: a mutant that breaks only a classification (path-names-not-found) leaves its case
// passing. And every checkable rule has a mutant, or a written reason why none can exist (mutants/no-mutant.json).
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { kitCatalog, loadMutants, readMutantsFile } from "../catalog.ts";
import { runSuite } from "../runner/index.ts";
import { REPO_ROOT } from "../runner/workspace.ts";

const catalog = kitCatalog();
const ALL = await loadMutants();

describe("mutants", () => {
  it("a case's mutants file imports only wrap.ts, helpers.ts and schemas/; helpers.ts only wrap.ts and schemas/ (no second table)", () => {
    const relImports = (f: string) => [...readFileSync(f, "utf8").matchAll(/from "(\.[^"]+)"/g)].map((m) => m[1]!);
    const caseFiles = catalog.cases.flatMap((c) => (c.mutantsFile ? [c.mutantsFile] : []));
    const bad = caseFiles.flatMap((f) =>
      relImports(f)
        .filter((s) => !/^\.\.\/mutants\/(wrap|helpers)\.ts$|^\.\.\/\.\.\/schemas\//.test(s))
        .map((s) => `${relative(REPO_ROOT, f)} -> ${s}`),
    );
    const helpers = join(REPO_ROOT, "conformance", "mutants", "helpers.ts");
    bad.push(
      ...relImports(helpers)
        .filter((s) => !/^\.\/wrap\.ts$|^\.\.\/\.\.\/schemas\//.test(s))
        .map((s) => `helpers.ts -> ${s}`),
    );
    expect(bad).toEqual([]);
    expect(
      readdirSync(join(REPO_ROOT, "conformance", "mutants"))
        .filter((f) => f.endsWith(".ts"))
        .sort(),
    ).toEqual(["helpers.ts", "wrap.ts"]);
  });

  it("every case of every suite has a mutant; ids are unique; every key names a case and a rule that exist", () => {
    expect(catalog.orphanMutantFiles.map((f) => relative(REPO_ROOT, f))).toEqual([]);
    expect(catalog.cases.filter((c) => !ALL.some((m) => m.kills === c.id)).map((c) => c.id)).toEqual([]);
    const ids = ALL.map((m) => m.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ALL.filter((m) => !catalog.ruleById.has(m.rule)).map((m) => `${m.id}: ${m.rule}`)).toEqual([]);
    expect(catalog.suites.filter((s) => !s.cases.length).map((s) => s.id)).toEqual([]);
  });

  it("every checkable rule has a mutant, or a written reason why none can exist, never both", () => {
    const killed = new Set(ALL.map((m) => m.rule));
    const uncovered = catalog.checkable
      .filter((r) => !killed.has(r.id) && !catalog.noMutant.get(r.id)?.trim())
      .map((r) => r.id);
    expect(
      uncovered,
      "write a mutant in the <ID>.mutants.ts of a case that checks the rule, or say why none can exist in conformance/mutants/no-mutant.json",
    ).toEqual([]);
    const stale = [...catalog.noMutant.keys()].filter(
      (id) => killed.has(id) || !catalog.ruleById.has(id) || catalog.ruleById.get(id)!.checked === false,
    );
    expect(stale, "no-mutant.json names a rule that has a mutant, is not checkable, or does not exist").toEqual([]);
  });

  it("a mutants file is refused when its default export is not a list of rows, or a row kills another case", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mutants-file-"));
    try {
      const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
      const row = (kills: string) =>
        `{ kills: "${kills}", rule: "name.required", id: "x", description: "d", mutation: {} }`;
      expect(
        await readMutantsFile(file("Z01.mutants.ts", `export default [${row("Z01")}];\n`), "Z01", "s"),
      ).toMatchObject([{ id: "x", kills: "Z01", suite: "s" }]);
      await expect(
        readMutantsFile(file("Z02.mutants.ts", `export default [${row("Z01")}];\n`), "Z02", "s"),
      ).rejects.toThrow(/kills Z01; a case's mutants file holds that case's mutants only/);
      await expect(
        readMutantsFile(file("Z03.mutants.ts", `export const rows = [${row("Z03")}];\n`), "Z03", "s"),
      ).rejects.toThrow(/default export must be a list of MutantRow/);
      await expect(
        readMutantsFile(file("Z04.mutants.ts", `export default [{ kills: "Z04" }];\n`), "Z04", "s"),
      ).rejects.toThrow(/row 0 is not a MutantRow/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(ALL.map((m) => [m.kills, m.rule, m.id, m] as const))(
    "%s / %s fails under %s",
    async (kills, rule, _id, m) => {
      const target = catalog.cases.filter((c) => c.id === kills).map((c) => c.loaded);
      const report = await runSuite(() => m.make(), target, {
        driverLabel: `mutant:${m.id}`,
        suite: target[0]!.suite,
        profile: "exact",
      });
      const r = report.cases[0]!;
      const verdict = report.rules.find((x) => x.id === rule)!;
      expect({ status: verdict.status, cases: verdict.cases }).toEqual({ status: "failed", cases: [kills] });
      expect({ status: r.status, reason: r.reason }).toEqual({
        status: target[0]!.rules!.includes(rule) ? "failed" : "passed",
        reason: undefined,
      });
      // Whatever a mutant did to the prototypes was undone by the runner.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    },
  );
});
