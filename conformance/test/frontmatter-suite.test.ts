// The frontmatter suite (conformance/cases-frontmatter/, F01…): it loads as loadCases("frontmatter") on its
// own fixtures, the reference passes all of it in-process, every frontmatter mutant fails its case (failed,
// never errored), and the two catalog expectations it added (warnings_include, line_max_tokens) judge right.
import { describe, expect, it } from "vitest";
import { loadModule } from "../driver/in-process.ts";
import { CONTRACT_MUTANTS } from "../mutants/contract.ts";
import { MUTANTS } from "../mutants/index.ts";
import { SECURITY_MUTANTS } from "../mutants/security.ts";
import { FRONTMATTER_MUTANTS } from "../mutants/frontmatter.ts";
import { checkCatalog } from "../runner/expect.ts";
import { loadCases, runSuite, suites } from "../runner/index.ts";
import { REFERENCE_MODULE } from "../mutants/wrap.ts";

const ids = Array.from({ length: 15 }, (_, i) => `F${String(i + 1).padStart(2, "0")}`);

describe("frontmatter suite", () => {
  const cases = loadCases("frontmatter");

  it("loads F01…F15, each citing a spec section and a decision, with notes", () => {
    expect(cases.map((c) => c.id)).toEqual(ids);
    for (const c of cases) {
      expect(c.spec.some((s) => s.startsWith("§")), c.id).toBe(true);
      expect(c.spec.some((s) => /^R\d+$/.test(s)), c.id).toBe(true);
      expect(c.notes, c.id).toBeTruthy();
    }
  });

  it("--suite all runs it, after spec, beside the other suites", () => {
    expect(suites()).toEqual(expect.arrayContaining(["spec", "security", "contract", "frontmatter"]));
    expect(loadCases("all").filter((c) => c.suite === "frontmatter").map((c) => c.id)).toEqual(ids);
  });

  it("the reference passes all of it in-process", async () => {
    const report = await runSuite(() => loadModule(REFERENCE_MODULE), cases, { driverLabel: "in-process", suite: "frontmatter" });
    expect(report.cases.filter((c) => c.status !== "passed").map((c) => ({ id: c.id, m: c.mismatches?.map((x) => x.message) }))).toEqual([]);
  });

  it("every case has a mutant; mutant ids are unique across all tables", () => {
    expect([...new Set(FRONTMATTER_MUTANTS.map((m) => m.kills))].sort()).toEqual(ids);
    const all = [...MUTANTS, ...SECURITY_MUTANTS, ...CONTRACT_MUTANTS, ...FRONTMATTER_MUTANTS].map((m) => m.id);
    expect(new Set(all).size).toBe(all.length);
  });

  it.each(FRONTMATTER_MUTANTS.map((m) => [m.kills, m.id, m] as const))("%s fails under %s", async (kills, _id, m) => {
    const report = await runSuite(() => m.make(), cases.filter((c) => c.id === kills), { driverLabel: `mutant:${m.id}`, suite: "frontmatter" });
    const r = report.cases[0]!;
    expect({ status: r.status, reason: r.reason }).toEqual({ status: "failed", reason: undefined });
    expect(r.mismatches?.length).toBeGreaterThan(0);
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
    for (const m of FRONTMATTER_MUTANTS.filter((x) => x.kills === id)) {
      const report = await runSuite(() => m.make(), cases, { driverLabel: `mutant:${m.id}`, suite: "frontmatter" });
      for (const mm of report.cases[0]?.mismatches ?? []) failed.add(/^calls\[(\d+)\]/.exec(mm.at)?.[1] ?? mm.at);
    }
    const calls = cases[0]!.calls.map((c, i) => ({ i: String(i), name: "params" in c ? (c.params as { name?: string }).name : undefined })).filter((c) => c.name !== "hello");
    expect(calls.filter((c) => !failed.has(c.i)).map((c) => c.name)).toEqual([]);
  });
});

describe("catalog expectations of the suite", () => {
  const catalog = (lines: string[], warnings: string[] = []) => ({
    tool_description: `Guidance that is long enough to be over any budget on its own line, mentioning no skill by its quoted name at all, ${"x".repeat(500)}\n\n<available_skills>\n${lines.join("\n")}\n</available_skills>`,
    entries: lines.map((_, i) => ({ name: `s${i}` })),
    warnings,
  });
  it("line_max_tokens judges each line naming an entry by ceil((bytes + 1) / 4), and nothing else", () => {
    const fits = `<skill name="s0">${"a".repeat(399 - 25)}</skill>`; // 399 bytes + newline = 100 tokens
    expect(checkCatalog({ line_max_tokens: 100 }, catalog([fits]))).toEqual([]);
    const over = `<skill name="s0">${"é".repeat(200)}</skill>`;
    expect(checkCatalog({ line_max_tokens: 100 }, catalog([over])).map((m) => m.what)).toEqual(["a catalog line over the token budget"]);
  });
  it("warnings_include wants some warning containing each substring", () => {
    expect(checkCatalog({ warnings_include: ["apk"] }, catalog([], ["skill /x/apk: field 'argument-hint' should be a string"]))).toEqual([]);
    expect(checkCatalog({ warnings_include: ["apk"] }, catalog([], ["other"])).map((m) => m.what)).toEqual(["no warning about it"]);
  });
});
