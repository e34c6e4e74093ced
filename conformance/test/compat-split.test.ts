// The compat run split for a maintainer's budget: one run per implementation under the widest profile with the
// others re-judged from it (rescore.ts), extra rows of one harness folder from one install (targets.ts), and
// per-harness results merged into one page (merge.ts). Each test names the wrong behaviour it catches.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderMarkdown } from "../compat/render-markdown.ts";
import { describe, expect, it } from "vitest";
import { mergeResults } from "../compat/merge.ts";
import { rescore } from "../compat/rescore.ts";
import { findTargets } from "../compat/targets.ts";
import type { CompatResult, ImplementationResult } from "../compat/types.ts";
import { loadMutants } from "../catalog.ts";
import { loadCases, runSuite } from "../runner/index.ts";

describe("rescore", () => {
  it("judges an exact run under spec and decisions exactly as runs under those profiles would (a wrong re-judge would shift verdicts)", async () => {
    const m = (await loadMutants()).find((x) => x.id === "body-trimmed")!;
    const cases = loadCases("all").filter((c) => ["U01", "U16", "U30", "C02", "F01", "S04", "S13"].includes(c.id));
    const exact = await runSuite(() => m.make(), cases, { driverLabel: "mutant", suite: "all", profile: "exact" });
    for (const profile of ["spec", "decisions"] as const) {
      const direct = await runSuite(() => m.make(), cases, { driverLabel: "mutant", suite: "all", profile });
      const again = rescore(exact, profile);
      expect(again.cases.map((c) => [c.id, c.status])).toEqual(direct.cases.map((c) => [c.id, c.status]));
      expect(again.rules.map((r) => [r.id, r.status])).toEqual(direct.rules.map((r) => [r.id, r.status]));
      expect(again.rule_counts).toEqual(direct.rule_counts);
    }
  });
});

describe("harness rows", () => {
  it("a folder's extra rows share its install and pins, and --harness <folder> selects every row of it", () => {
    const root = mkdtempSync(join(tmpdir(), "compat-rows-"));
    try {
      const dir = join(root, "implementations", "alpha");
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify({
          dependencies: { alpha: "1.0.0" },
          skillConformance: {
            driver: "d.mjs",
            args: ["--timeout", "60000"],
            rows: [{ id: "alpha-other", driver: "other.mjs", note: "another source" }],
          },
        }),
      );
      writeFileSync(join(dir, "d.mjs"), "");
      writeFileSync(join(dir, "other.mjs"), "");
      const t = findTargets(root, ["alpha"]);
      expect(t.map((x) => x.id)).toEqual(["alpha", "alpha-other"]);
      expect(t[1]).toMatchObject({
        folder: "alpha",
        installDir: dir,
        pins: { alpha: "1.0.0" },
        note: "another source",
        args: ["--timeout", "60000"],
        display: "implementations/alpha/other.mjs",
      });
      expect(findTargets(root, ["alpha-other"]).map((x) => x.id)).toEqual(["alpha-other"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

const impl = (id: string, folder?: string): ImplementationResult => ({
  id,
  name: id,
  version: "1",
  language: "ts",
  driver: "d",
  status: "ran",
  cells: [],
  ...(folder ? { folder } : {}),
});
const part = (implementations: ImplementationResult[], over: Partial<CompatResult> = {}): CompatResult => ({
  generated_at: "2026-12-05T00:00:00.000Z",
  kit: { version: "0.1.0", commit: "abc" },
  node: "v20",
  profiles: ["spec", "decisions", "exact"],
  suites: [{ id: "spec", cases: 30 }],
  implementations,
  duration_ms: 1000,
  ...over,
});

describe("mergeResults", () => {
  it("puts the jobs' rows in the page's order, each once, and adds up their run times", () => {
    const m = mergeResults([
      part([impl("mastra-localskillsource", "mastra"), impl("mastra", "mastra")]),
      part([impl("reference")], { generated_at: "2026-12-05T01:00:00.000Z" }),
      part([impl("gemini-cli", "gemini-cli"), impl("reference")]),
    ]);
    expect(m.implementations.map((i) => i.id)).toEqual([
      "reference",
      "gemini-cli",
      "mastra",
      "mastra-localskillsource",
    ]);
    expect(m.duration_ms).toBe(3000);
    // The page then says it came from three runs, not "one run … 3000 s".
    expect(m.merged).toBe(3);
    expect(renderMarkdown(m)).toMatch(/in 3 runs of `npm run compat`, merged into one page/);
    expect(m.generated_at).toBe("2026-12-05T01:00:00.000Z");
  });

  it("refuses parts from different kits or profiles (their cells would not compare)", () => {
    expect(() =>
      mergeResults([part([impl("a")]), part([impl("b")], { kit: { version: "0.1.0", commit: "def" } })]),
    ).toThrow(/different kits/);
    expect(() => mergeResults([part([impl("a")]), part([impl("b")], { profiles: ["spec"] })])).toThrow(
      /different profiles/,
    );
    expect(() => mergeResults([])).toThrow(/no partial/);
    const m = mergeResults([part([impl("a")]), part([impl("b")], { kit: { version: "0.1.0", commit: "def" } })], {
      allowMixedCommits: true,
    });
    expect(m.implementations.map((i) => [i.id, i.kit_commit])).toEqual([
      ["a", "abc"],
      ["b", "def"],
    ]);
    // That page merged again with a third part: b still names the commit it was made from.
    const again = mergeResults([m, part([impl("c")], { kit: { version: "0.1.0", commit: "fed" } })], {
      allowMixedCommits: true,
    });
    expect(again.implementations.map((i) => [i.id, i.kit_commit])).toEqual([
      ["a", "abc"],
      ["b", "def"],
      ["c", "fed"],
    ]);
    expect(again.merged).toBe(3);
  });
});
