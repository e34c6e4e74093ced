// Judging an answer against its schema field by field: each offending field once, at the kit's path, with the value
// found there and what the schema wants; a discriminated union reports the branch its kind picks, not every branch.
import { describe, expect, it } from "vitest";
import { pointerToPath, schemaMisses, schemaProblems } from "../runner/schema-miss.ts";

describe("schema misses", () => {
  it("names each offending field with its value, under the schema's rule", () => {
    const ok = {
      kind: "ok",
      name: "hello",
      dir: "/x",
      body: 42,
      frontmatter: { name: "hello", description: "d" },
      resources: ["docs/a"],
      bytes: 3,
      output: "o",
      colour: "red",
    };
    const misses = schemaMisses("result.schema.json", ok, "calls[2].result", "schema-invalid result");
    expect(misses.map((m) => [m.at, m.actual, m.rules])).toEqual([
      ["calls[2].result.colour", "red", ["result.schema-contract"]],
      ["calls[2].result.body", 42, ["result.schema"]],
      ["calls[2].result.resources[0]", "docs/a", ["result.schema"]],
    ]);
    expect(misses[1]!.expected).toBe("must be string");
  });

  it("two levels: what the spec names under the schema's rule, what the kit adds under its contract rule", () => {
    const at = "calls[0].result";
    const rulesOf = (v: unknown) =>
      schemaMisses("result.schema.json", v, at, "schema-invalid result").map((m) => [m.at, m.rules]);
    // §3.2 names kind, name, at_turn: an already_loaded without output breaks only the kit's contract; without at_turn, the spec.
    expect(rulesOf({ kind: "already_loaded", name: "x", at_turn: 1 })).toEqual([
      [`${at}.output`, ["result.schema-contract"]],
    ]);
    expect(rulesOf({ kind: "already_loaded", name: "x", output: "o" })).toEqual([[`${at}.at_turn`, ["result.schema"]]]);
    expect(rulesOf({ kind: "not_found", name: "x", siblings: [] })).toEqual([
      [`${at}.output`, ["result.schema-contract"]],
    ]);
    // A limit the kit pins (at_turn from 1; a one-line message) is the kit's; the field's type is the spec's.
    expect(rulesOf({ kind: "already_loaded", name: "x", at_turn: 0, output: "o" })).toEqual([
      [`${at}.at_turn`, ["result.schema-contract"]],
    ]);
    expect(rulesOf({ kind: "error", code: "IO_ERROR", message: "two\nlines", output: "o" })).toEqual([
      [`${at}.message`, ["result.schema-contract"]],
    ]);
    expect(rulesOf({ kind: "error", code: "IO_ERROR", message: 7, output: "o" })).toEqual([
      [`${at}.message`, ["result.schema"]],
    ]);
    // The catalog: an entry without meta, and a catalog without warnings, break only the kit's contract; one without dir, the spec.
    const entry = {
      name: "a",
      description: "d",
      dir: "/a",
      root_index: 0,
      frontmatter: { name: "a", description: "d" },
    };
    const cat = (v: unknown) =>
      schemaMisses("catalog.schema.json", v, "catalog", "schema-invalid catalog").map((m) => [m.at, m.rules]);
    expect(cat({ tool_description: "t", entries: [entry] })).toEqual([
      ["catalog.warnings", ["catalog.schema-contract"]],
      ["catalog.entries[0].meta", ["catalog.schema-contract"]],
    ]);
    const { dir: _dir, ...noDir } = entry;
    expect(cat({ tool_description: "t", entries: [{ ...noDir, meta: { shadowed: [] } }], warnings: [] })).toEqual([
      ["catalog.entries[0].dir", ["catalog.schema"]],
    ]);
    // The hook's payload: allowed_tools when the skill declares none is the kit's.
    const req = {
      tool: "skill",
      action: "activate",
      path: "/a",
      always_patterns: ["Skill(name:a)"],
      metadata: { name: "a", root_index: 0, frontmatter: { name: "a" }, reason: "normal" },
    };
    expect(schemaMisses("permission-request.schema.json", req, "hook", "x").map((m) => m.rules)).toEqual([
      ["hook.request-schema-contract"],
    ]);
  });

  it("a kind outside the union names the allowed kinds once; a missing field is said missing; a non-object is the root", () => {
    expect(schemaProblems("result.schema.json", { kind: "okay" })).toEqual([
      {
        field: "/kind",
        value: "okay",
        problem: 'must be one of "ok", "already_loaded", "not_found", "error"',
        level: "spec",
      },
    ]);
    expect(schemaProblems("result.schema.json", { kind: "already_loaded", name: "x", output: "o" })).toEqual([
      { field: "/at_turn", missing: true, problem: "present (a required field)", level: "spec" },
    ]);
    expect(schemaMisses("result.schema.json", "text", "calls[0].result", "schema-invalid result")).toMatchObject([
      { at: "calls[0].result", actual: "text", expected: "must be object" },
    ]);
    expect(schemaProblems("result.schema.json", { kind: "not_found", name: "x", siblings: [], output: "o" })).toEqual(
      [],
    );
  });

  it("more than five offending fields: five listed, the rest counted", () => {
    const bad = {
      kind: "error",
      code: "IO_ERROR",
      message: "m",
      output: "o",
      a: 1,
      b: 2,
      c: 3,
      d: 4,
      e: 5,
      f: 6,
      g: 7,
    };
    const misses = schemaMisses("result.schema.json", bad, "calls[0].result", "schema-invalid result");
    expect(misses).toHaveLength(6);
    expect(misses[5]).toMatchObject({ at: "calls[0].result", actual: ["/f", "/g"] });
  });

  it("JSON pointers become the kit's paths", () => {
    expect(pointerToPath("/frontmatter/allowed-tools/0")).toBe(".frontmatter.allowed-tools[0]");
    expect(pointerToPath("/a~1b/c~0d")).toBe(".a/b.c~d");
    expect(pointerToPath("/")).toBe("");
  });
});
