// The frontmatter suite (conformance/cases-frontmatter/, F01…): it loads as loadCases("frontmatter") on its
// own fixtures, the reference passes all of it in-process (profile exact), the ordering cases' mutants between
// them fail every call, and the two catalog expectations it added (warnings_include, entry_max_tokens) judge
// right. Every mutant's {case, rule} is checked by conformance/test/mutants.test.ts.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadMutants } from "../catalog.ts";
import { loadModule } from "../driver/in-process.ts";
import { checkCatalog } from "../runner/expect.ts";
import { loadCases, runSuite, suiteDir, suites } from "../runner/index.ts";
import { REFERENCE_MODULE } from "../mutants/wrap.ts";

// Every <ID>.json of the suite's folder, as the folder holds them (not a copied list).
const ids = readdirSync(suiteDir("frontmatter"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -".json".length))
  .sort();

describe("frontmatter suite", () => {
  const cases = loadCases("frontmatter");

  it("loads every case file of conformance/cases-frontmatter/, each citing a spec section and a decision, with notes", () => {
    expect(cases.map((c) => c.id)).toEqual(ids);
    for (const c of cases) {
      expect(
        c.spec.some((s) => s.startsWith("§")),
        c.id,
      ).toBe(true);
      expect(
        c.spec.some((s) => /^R\d+$/.test(s)),
        c.id,
      ).toBe(true);
      expect(c.notes, c.id).toBeTruthy();
    }
  });

  it("--suite all runs it, after spec, beside the other suites", () => {
    expect(suites()).toEqual(expect.arrayContaining(["spec", "security", "contract", "frontmatter"]));
    expect(
      loadCases("all")
        .filter((c) => c.suite === "frontmatter")
        .map((c) => c.id),
    ).toEqual(ids);
  });

  it("the reference passes all of it in-process", async () => {
    const report = await runSuite(() => loadModule(REFERENCE_MODULE), cases, {
      driverLabel: "in-process",
      suite: "frontmatter",
      profile: "exact",
    });
    expect(
      report.cases
        .filter((c) => c.status !== "passed")
        .map((c) => ({ id: c.id, m: c.mismatches?.map((x) => x.message) })),
    ).toEqual([]);
  });
});

// The ordering cases hold several calls, each a different way to get the order wrong: between them, their mutants
// must fail every call but the unaffected one, or a call pins nothing a wrong implementation would get wrong.
describe.each([
  ["F12", "R25: the bound first, the syntax error first, the tie"],
  ["F14", "R26: each refusal kind, the tie, the syntax error first, depth final"],
  ["F15", "R26: a directive where it stands, a tag before deep nesting"],
])("%s's mutants", (id, what) => {
  it(`between them fail every call but the unaffected one (${what})`, async () => {
    const cases = loadCases("frontmatter").filter((c) => c.id === id);
    const failed = new Set<string>();
    for (const m of (await loadMutants()).filter((x) => x.kills === id)) {
      const report = await runSuite(() => m.make(), cases, { driverLabel: `mutant:${m.id}`, suite: "frontmatter" });
      for (const mm of report.cases[0]?.mismatches ?? []) failed.add(/^calls\[(\d+)\]/.exec(mm.at)?.[1] ?? mm.at);
    }
    const calls = cases[0]!.calls
      .map((c, i) => ({ i: String(i), name: "params" in c ? (c.params as { name?: string }).name : undefined }))
      .filter((c) => c.name !== "hello");
    expect(calls.filter((c) => !failed.has(c.i)).map((c) => c.name)).toEqual([]);
  });
});

describe("catalog expectations of the suite", () => {
  const catalog = (lines: string[], warnings: string[] = []) => ({
    tool_description: `Guidance that is long enough to be over any budget on its own line, mentioning no skill by its quoted name at all, ${"x".repeat(500)}\n\n<available_skills>\n${lines.join("\n")}\n</available_skills>`,
    entries: lines.map((_, i) => ({ name: `s${i}` })),
    warnings,
  });
  it("entry_max_tokens judges each entry's text by ceil(bytes / 4): the reference's one line with its newline, and nothing else", () => {
    const fits = `<skill name="s0">${"a".repeat(399 - 25)}</skill>`; // 399 bytes + newline = 100 tokens
    expect(checkCatalog({ entry_max_tokens: 100 }, catalog([fits]))).toEqual([]);
    const over = `<skill name="s0">${"é".repeat(200)}</skill>`;
    expect(checkCatalog({ entry_max_tokens: 100 }, catalog([over])).map((m) => m.what)).toEqual([
      "a catalog entry over the token budget",
    ]);
  });

  it("entry_max_tokens measures any format: an entry spread over lines, or one the tool description does not show", () => {
    // The kit once measured only lines holding "name" in quotes: this 300-token list entry passed.
    const list = {
      tool_description: `Skills:
- s0
  ${"word ".repeat(240)}
- s1
  short
`,
      entries: [
        { name: "s0", description: "d" },
        { name: "s1", description: "d" },
      ],
      warnings: [],
    };
    expect(checkCatalog({ entry_max_tokens: 100 }, list).map((m) => (m.actual as { name: string }).name)).toEqual([
      "s0",
    ]);
    const last = {
      ...list,
      tool_description: `Skills:
- s1
  short
- s0
  ${"word ".repeat(240)}

More guidance.
`,
    };
    expect(checkCatalog({ entry_max_tokens: 100 }, last).map((m) => (m.actual as { name: string }).name)).toEqual([
      "s0",
    ]);
    const hidden = {
      tool_description: "No catalog here.",
      entries: [{ name: "s0", description: "x".repeat(500) }],
      warnings: [],
    };
    expect(
      checkCatalog({ entry_max_tokens: 100 }, hidden).map((m) => (m.actual as { measured: string }).measured),
    ).toEqual(["name and description (not shown in the tool description)"]);
    // A name inside a longer name is not that entry: s0 is not found in "s0-extra".
    const prefix = {
      tool_description: `- s0-extra
  ${"word ".repeat(240)}
- s0
  short
`,
      entries: [
        { name: "s0", description: "d" },
        { name: "s0-extra", description: "d" },
      ],
      warnings: [],
    };
    expect(checkCatalog({ entry_max_tokens: 100 }, prefix).map((m) => (m.actual as { name: string }).name)).toEqual([
      "s0-extra",
    ]);
  });
  it("warnings_include wants some warning containing each substring", () => {
    expect(
      checkCatalog(
        { warnings_include: ["apk"] },
        catalog([], ["skill /x/apk: field 'argument-hint' should be a string"]),
      ),
    ).toEqual([]);
    expect(checkCatalog({ warnings_include: ["apk"] }, catalog([], ["other"])).map((m) => m.what)).toEqual([
      "no warning about it",
    ]);
  });
});
