// Judging an answer against its schema field by field: each offending field once, at the kit's path, with the value
// found there and what the schema wants; a discriminated union reports the branch its kind picks, not every branch.
import { describe, expect, it } from "vitest";
import { pointerToPath, schemaMisses, schemaProblems } from "../runner/schema-miss.ts";

describe("schema misses", () => {
  it("names each offending field with its value, under the schema's rule", () => {
    const ok = { kind: "ok", name: "hello", dir: "/x", body: 42, frontmatter: { name: "hello", description: "d" }, resources: ["docs/a"], bytes: 3, output: "o", colour: "red" };
    const misses = schemaMisses("result.schema.json", ok, "calls[2].result", "schema-invalid result");
    expect(misses.map((m) => [m.at, m.actual, m.rules])).toEqual([
      ["calls[2].result.colour", "red", ["result.schema"]],
      ["calls[2].result.body", 42, ["result.schema"]],
      ["calls[2].result.resources[0]", "docs/a", ["result.schema"]],
    ]);
    expect(misses[1]!.expected).toBe("must be string");
  });

  it("a kind outside the union names the allowed kinds once; a missing field is said missing; a non-object is the root", () => {
    expect(schemaProblems("result.schema.json", { kind: "okay" })).toEqual([{ field: "/kind", value: "okay", problem: 'must be one of "ok", "already_loaded", "not_found", "error"' }]);
    expect(schemaProblems("result.schema.json", { kind: "already_loaded", name: "x", output: "o" })).toEqual([{ field: "/at_turn", missing: true, problem: "present (a required field)" }]);
    expect(schemaMisses("result.schema.json", "text", "calls[0].result", "schema-invalid result")).toMatchObject([{ at: "calls[0].result", actual: "text", expected: "must be object" }]);
    expect(schemaProblems("result.schema.json", { kind: "not_found", name: "x", siblings: [], output: "o" })).toEqual([]);
  });

  it("more than five offending fields: five listed, the rest counted", () => {
    const bad = { kind: "error", code: "IO_ERROR", message: "m", output: "o", a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 };
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
