// The two parity levels (R30) mean what they say: the reference against itself is identical at both;
// an implementation that only words its messages differently is identical at `semantic` and different at
// `exact` (and flagged as wording only); one that changes a code, a field, or drops a fact from its prose
// differs where it should. Each wrong implementation is the reference behind a wrapper (mutants/wrap.ts).
import { describe, expect, it } from "vitest";
import type { Catalog, SkillResult } from "../../schemas/index.ts";
import { loadModule } from "../driver/in-process.ts";
import { REFERENCE_MODULE, wrapReference, type Mutation } from "../mutants/wrap.ts";
import { diff, firstDifference, formatCaseParity, runParity, type ParityLevel, type ParitySide } from "../parity.ts";
import { loadCases } from "../runner/index.ts";

const spec = loadCases("spec");
const contract = loadCases("contract");
const reference: ParitySide = { open: () => loadModule(REFERENCE_MODULE), label: "reference" };
const wrapped = (label: string, m: Mutation): ParitySide => ({ open: () => wrapReference(label, m), label });

/** A different wording of the same facts: function words swapped, a prefix added; names, paths, codes and numbers untouched. */
const SWAP: Record<string, string> = {
  the: "this",
  is: "was found to be",
  a: "one",
  not: "never",
  must: "has to",
  could: "can",
  has: "carries",
  by: "via",
  of: "for",
};
function reword(text: string): string {
  return "Note: " + text.replace(/(?<![\w\-/.<])(the|is|a|not|must|could|has|by|of)(?![\w\-/.>])/g, (w) => SWAP[w]!);
}

function rewordResult(r: SkillResult): SkillResult {
  const out = { ...r } as Record<string, unknown>;
  for (const f of ["message", "hint", "reason"]) if (typeof out[f] === "string") out[f] = reword(out[f] as string);
  if (Array.isArray(out.warnings)) out.warnings = (out.warnings as string[]).map(reword);
  if (r.kind === "ok") {
    const end = r.output.lastIndexOf("</skill>\n") + "</skill>\n".length;
    out.output = r.output.slice(0, end) + reword(r.output.slice(end));
  } else if (r.kind === "error") {
    const e = out as { code: string; message: string; path?: string; reason?: string; hint?: string };
    out.output = [
      `Error [${e.code}]: ${e.message}`,
      ...(e.path !== undefined ? [`Path: ${e.path}`] : []),
      ...(e.reason !== undefined ? [`Reason: ${e.reason}`] : []),
      ...(e.hint !== undefined ? [`Hint: ${e.hint}`] : []),
    ].join("\n");
  } else out.output = reword(r.output);
  return out as unknown as SkillResult;
}

function rewordCatalog(c: Catalog): Catalog {
  const at = c.tool_description.indexOf("<available_skills>");
  return {
    ...c,
    tool_description: "Use this tool to load a skill.\n\n" + c.tool_description.slice(at),
    warnings: c.warnings.map(reword),
  };
}

const rewording = wrapped("rewording", { result: rewordResult, catalog: rewordCatalog });

async function parity(b: ParitySide, level: ParityLevel, cases = spec) {
  return runParity(reference, b, cases, { suite: "spec", level });
}

describe("parity levels", () => {
  it.each(["exact", "semantic"] as const)("the reference against itself: no difference at %s", async (level) => {
    const r = await parity(reference, level, [...spec, ...contract]);
    expect(r.level).toBe(level);
    expect(r.cases.filter((c) => c.differences.length).map((c) => formatCaseParity(c))).toEqual([]);
  });

  it("an implementation that only words its messages differently: identical at semantic, different (wording only) at exact", async () => {
    const semantic = await parity(rewording, "semantic");
    expect(semantic.cases.filter((c) => c.differences.length).map((c) => formatCaseParity(c))).toEqual([]);
    const exact = await parity(rewording, "exact");
    expect(exact.differing).toBe(spec.length); // the tool description differs in every case
    expect(exact.cases.every((c) => c.proseOnly === true)).toBe(true);
    const u06 = exact.cases.find((c) => c.id === "U06")!;
    expect(u06.differences.map((d) => d.path)).toEqual(
      expect.arrayContaining([
        "observed[0].message",
        "observed[0].hint",
        "observed[0].output",
        "catalog.tool_description",
      ]),
    );
  });

  it("an implementation that changes a code: different at both levels", async () => {
    const m = wrapped("code-changed", {
      result: (r) =>
        r.kind === "error" && r.code === "NAME_MISMATCH"
          ? { ...r, code: "INVALID_FRONTMATTER", output: r.output.replace("NAME_MISMATCH", "INVALID_FRONTMATTER") }
          : r,
    });
    for (const level of ["exact", "semantic"] as const) {
      const r = await parity(
        m,
        level,
        spec.filter((c) => c.id === "U06"),
      );
      expect(r.differing, level).toBe(1);
      expect(
        r.cases[0]!.differences.map((d) => d.path),
        level,
      ).toContain("observed[0].code");
      expect(r.cases[0]!.proseOnly).not.toBe(true);
    }
  });

  it("an implementation that changes a structured field (the error's line): different at both levels", async () => {
    const m = wrapped("line-dropped", {
      result: (r) => (r.kind === "error" && r.line !== undefined ? (({ line: _l, ...rest }) => rest)(r) : r),
    });
    for (const level of ["exact", "semantic"] as const) {
      const r = await parity(
        m,
        level,
        spec.filter((c) => c.id === "U07"),
      );
      expect(
        r.cases[0]!.differences.map((d) => d.path),
        level,
      ).toContain("observed[0].line");
    }
  });

  it("semantic is not blind to prose: a message that no longer names the skill differs", async () => {
    const m = wrapped("name-dropped", {
      result: (r) => (r.kind === "error" && r.name ? { ...r, message: r.message.split(r.name).join("the skill") } : r),
    });
    const r = await parity(
      m,
      "semantic",
      spec.filter((c) => c.id === "U06"),
    );
    const d = r.cases[0]!.differences.find(
      (x) => x.path === "observed[0].message.facts[0]" || x.path.startsWith("observed[0].message"),
    );
    expect(d, JSON.stringify(r.cases[0]!.differences)).toBeDefined();
  });
});

describe("firstDifference", () => {
  it("shows each side around the first differing character, not both cut at the same prefix", () => {
    const shared = "x".repeat(300);
    const d = firstDifference(`${shared}apple pie`, `${shared}apricot jam`);
    expect(d.position).toBe(302);
    expect(d.context.a).toMatch(/^…x+ap⟦ple pie⟧$/);
    expect(d.context.b).toMatch(/^…x+ap⟦ricot jam⟧$/);
  });

  it("marks where a shorter side ends, and compares non-strings as JSON", () => {
    expect(firstDifference("abc", "abcd").context).toEqual({ a: "abc⟦(ends here)⟧", b: "abc⟦d⟧" });
    expect(firstDifference(undefined, 3).context).toEqual({ a: "⟦(absent)⟧", b: "⟦3⟧" });
  });
});

describe("key order (issue 22)", () => {
  it("is no difference in a result, and is one inside a frontmatter, where R24 makes it contract", () => {
    expect(diff({ kind: "ok", name: "a", bytes: 1 }, { bytes: 1, kind: "ok", name: "a" })).toEqual([]);
    const a = { kind: "ok", frontmatter: { name: "a", description: "d", metadata: { x: "1", y: "2" } } };
    const b = { kind: "ok", frontmatter: { description: "d", name: "a", metadata: { y: "2", x: "1" } } };
    expect(diff([a], [b], "observed").map((d) => d.path)).toEqual([
      "observed[0].frontmatter (key order, R24)",
      "observed[0].frontmatter.metadata (key order, R24)",
    ]);
    expect(diff({ entries: [{ dir: "x", name: "a" }] }, { entries: [{ name: "a", dir: "x" }] }, "catalog")).toEqual([]);
  });
});
