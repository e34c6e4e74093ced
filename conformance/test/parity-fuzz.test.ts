// The frontmatter parity fuzz (conformance/parity-fuzz.ts): the same seed gives the same cases; each kind of
// difference is sorted as R30/R35 allow it or not; the reference against itself differs in nothing; a wrong
// implementation (a frontmatter mutant) is caught as contract differences, while one that only words its YAML
// syntax errors differently is not.
import { describe, expect, it } from "vitest";
import { loadModule } from "../driver/in-process.ts";
import { loadMutants } from "../catalog.ts";
import { REFERENCE_MODULE, wrapReference } from "../mutants/wrap.ts";
import { canonicalJson, runParity } from "../parity.ts";
import { classify, classifyCall, fuzzCases, runParityFuzz } from "../parity-fuzz.ts";
import { projectResult } from "../parity-semantic.ts";
import { openOwnWords } from "./own-words.ts";

const reference = { open: () => loadModule(REFERENCE_MODULE), label: "reference" };
const err = (line: number, reason: string) => ({
  kind: "error",
  code: "INVALID_FRONTMATTER",
  line,
  reason: `${reason} (line ${line})`,
});

describe("classifyCall", () => {
  it("two syntax errors in each parser's words: the same line is wording (R30), another line parser-located (R35)", () => {
    expect(
      classifyCall(
        err(3, "Unexpected flow-map-end token"),
        err(3, "while parsing a block mapping, did not find expected key"),
      ),
    ).toBe("wording");
    expect(
      classifyCall(
        err(3, "Implicit keys need to be on a single line"),
        err(4, "Nested mappings are not allowed in compact mappings"),
      ),
    ).toBe("parser-located");
  });
  it("a syntax error on a line at or before the other side's refusal is syntax-first (R35); after it, a contract difference", () => {
    const dup = err(5, "duplicate key 'a'");
    expect(classifyCall(err(4, "Unexpected scalar at node end"), dup)).toBe("syntax-first");
    expect(classifyCall(dup, err(5, "Unexpected scalar at node end"))).toBe("syntax-first");
    expect(classifyCall(dup, err(6, "Unexpected scalar at node end"))).toBe("contract");
  });
  it("a syntax error whose line the contract fixes (R35) on another line is a contract difference; depth outweighs a syntax error on its line (R26)", () => {
    expect(
      classifyCall(err(3, "Tabs are not allowed as indentation"), err(4, "Tabs are not allowed as indentation")),
    ).toBe("contract");
    expect(classifyCall(err(3, 'Missing closing "quote'), err(9, 'Missing closing "quote'))).toBe("contract");
    expect(
      classifyCall(
        err(3, "Plain value cannot start with reserved character @"),
        err(4, "Plain value cannot start with reserved character @"),
      ),
    ).toBe("contract");
    // The parser locates an unclosed flow collection (R35): allowed.
    const flow = "Flow sequence in block collection must be sufficiently indented and end with a ]";
    expect(classifyCall(err(3, flow), err(5, flow))).toBe("parser-located");
    const deep = err(4, "frontmatter nests deeper than 64 levels of lists and mappings");
    expect(classifyCall(deep, err(4, "Unexpected scalar at node end"))).toBe("contract");
    expect(classifyCall(deep, err(3, "Unexpected scalar at node end"))).toBe("syntax-first");
  });
  it("a contract-worded refusal on another line, another refusal, another code or kind is a contract difference", () => {
    const tag = (line: number) =>
      err(line, "a YAML tag (!!str) is not allowed: frontmatter values are JSON data; quote the value if it is text");
    expect(classifyCall(tag(3), tag(4))).toBe("contract");
    expect(classifyCall(tag(3), err(3, "frontmatter nests deeper than 64 levels of lists and mappings"))).toBe(
      "contract",
    );
    expect(classifyCall({ kind: "ok", name: "x" }, err(3, "Unexpected scalar"))).toBe("contract");
    expect(classifyCall({ kind: "ok", frontmatter: { a: "x" } }, { kind: "ok", frontmatter: { a: "x " } })).toBe(
      "contract",
    );
    expect(classifyCall({ kind: "ok", name: "x" }, { kind: "ok", name: "x" })).toBe("same");
  });
});

describe("the parity fuzz", () => {
  it("is deterministic for a seed, one skill per call, in batches", () => {
    const a = fuzzCases(250, 7);
    expect(a.map((c) => c.calls.length)).toEqual([100, 100, 50]);
    expect(JSON.stringify(fuzzCases(250, 7))).toBe(JSON.stringify(a));
    expect(JSON.stringify(fuzzCases(250, 8))).not.toBe(JSON.stringify(a));
  });

  it("finds nothing between the reference and itself", async () => {
    const r = await runParityFuzz(reference, reference, { count: 200, seed: 11 });
    expect(r.calls).toBe(200);
    expect(r.counts.same).toBe(200);
    expect(r.ok).toBe(true);
  });

  it("catches a wrong implementation: tags loaded, values trimmed by JavaScript's trim()", async () => {
    for (const id of ["tags-resolved", "js-trim"]) {
      const m = (await loadMutants()).find((x) => x.id === id)!;
      const r = await runParityFuzz(reference, { open: () => m.make(), label: id }, { count: 400, seed: 3 });
      expect(r.counts.contract, id).toBeGreaterThan(0);
      expect(r.ok, id).toBe(false);
      expect(r.examples[0]?.class, id).toBe("contract");
    }
  }, 240_000); // four runs of 400 calls: past vitest's 30 s default on the shared machine

  it("lets a parser word its syntax errors its own way (R30), but not a contract message", async () => {
    // Every syntax error (a reason no contract template matches) re-worded: only wording differences.
    const ownWords = {
      open: () =>
        wrapReference("own-words", {
          result: (r) =>
            r.kind === "error" &&
            r.code === "INVALID_FRONTMATTER" &&
            /^(Unexpected|Implicit|Flow|All mapping|Missing|Nested|Plain value)/.test(String(r.reason))
              ? { ...r, reason: String(r.reason).replace(/^[^(]*/, "the parser stops here ") }
              : r,
        }),
      label: "own-words",
    };
    const worded = await runParityFuzz(reference, ownWords, { count: 400, seed: 3 });
    expect(worded.counts.wording).toBeGreaterThan(0);
    expect(worded.ok).toBe(true);
    // A contract refusal worded another way is prose: a difference at the exact level (the run fails), allowed at the
    // semantic level (R30); the same refusal on another line is a contract difference at both.
    const rephrased = {
      open: () =>
        wrapReference("rephrased", {
          result: (r) =>
            r.kind === "error" && String(r.reason).startsWith("missing required field")
              ? { ...r, reason: "a required field is absent" }
              : r,
        }),
      label: "rephrased",
    };
    const cases = fuzzCases(400, 3);
    const run = await runParity(reference, rephrased, cases, { suite: "frontmatter" });
    const exact = classify(3, cases, run.a.cases, run.b.cases, 3, "exact");
    expect(exact.counts.prose).toBeGreaterThan(0);
    expect(exact.counts.contract).toBe(0);
    expect(exact.ok).toBe(false);
    expect(classify(3, cases, run.a.cases, run.b.cases, 3, "semantic").ok).toBe(true);
    const moved = {
      open: () =>
        wrapReference("moved", {
          result: (r) =>
            r.kind === "error" && String(r.reason).startsWith("missing required field") && r.line !== undefined
              ? { ...r, line: r.line + 1 }
              : r,
        }),
      label: "moved",
    };
    const movedRun = await runParity(reference, moved, cases, { suite: "frontmatter" });
    expect(classify(3, cases, movedRun.a.cases, movedRun.b.cases, 3, "semantic").counts.contract).toBeGreaterThan(0);
  }, 240_000);
});

describe("the parity fuzz against an implementation written from the documents (issue 22)", () => {
  it("one that words its own messages and orders its keys by the schema has 0 contract differences at both levels; its wording is reported at exact and allowed at semantic", async () => {
    const seed = 22;
    const cases = fuzzCases(300, seed);
    const parity = await runParity(reference, { open: openOwnWords, label: "own-words" }, cases, {
      suite: "frontmatter",
    });
    const exact = classify(seed, cases, parity.a.cases, parity.b.cases, 3, "exact");
    const semantic = classify(seed, cases, parity.a.cases, parity.b.cases, 3, "semantic");
    for (const r of [exact, semantic]) {
      expect(
        r.counts.contract,
        JSON.stringify(
          r.examples.filter((e) => e.class === "contract"),
          null,
          1,
        ).slice(0, 3000),
      ).toBe(0);
      expect(r.catalogDiffers).toEqual([]);
      expect(r.faults).toEqual([]);
    }
    // Not vacuous: its wording differs (and fails the exact level as prose), its key order differs in results that are otherwise the same.
    expect(exact.counts.prose).toBeGreaterThan(0);
    expect(exact.ok).toBe(false);
    expect(semantic.ok).toBe(true);
    const keyOrderOnly = parity.a.cases.flatMap((ra, i) =>
      (ra.observed ?? []).filter((x, j) => {
        // Projected (wording dropped), the two differ in their JSON text and not in their value: key order alone.
        const [px, py] = [projectResult(x), projectResult(parity.b.cases[i]?.observed?.[j])];
        return JSON.stringify(px) !== JSON.stringify(py) && canonicalJson(px) === canonicalJson(py);
      }),
    );
    expect(keyOrderOnly.length).toBeGreaterThan(0);
  }, 240_000);

  it("key order counts inside a frontmatter (R24) and nowhere else", () => {
    expect(classifyCall({ kind: "ok", name: "x", bytes: 1 }, { bytes: 1, name: "x", kind: "ok" })).toBe("same");
    expect(
      classifyCall(
        { kind: "ok", frontmatter: { name: "x", description: "d" } },
        { kind: "ok", frontmatter: { description: "d", name: "x" } },
      ),
    ).toBe("contract");
  });
});
