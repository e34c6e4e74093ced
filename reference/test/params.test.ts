// §2 parameter validation and §2.1 alias pushback (D3): every bad input is INVALID_PARAM, aliases first.
import { describe, expect, it } from "vitest";
import { ALIASES } from "../../schemas/index.ts";
import { parseParams } from "../params.ts";
import { expectError, open, skillMd, tree } from "./helpers.ts";

describe("§2 name validation", () => {
  const root = () => tree({ "demo/SKILL.md": skillMd("demo") });
  it.each([
    ["empty", { name: "" }],
    ["not a string", { name: 42 }],
    ["null", { name: null }],
    ["missing", {}],
    ["65 chars", { name: "a".repeat(65) }],
    ["upper case", { name: "Demo" }],
    ["underscore", { name: "my_skill" }],
    ["leading hyphen", { name: "-demo" }],
    ["double hyphen", { name: "de--mo" }],
    ["path", { name: "../demo" }],
    ["huge string", { name: "x".repeat(5_000_000) }],
  ])("%s → INVALID_PARAM", async (_label, params) => {
    const h = open({ skill_roots: [root()] });
    expectError(await h.call(params), "INVALID_PARAM");
  });

  it("a 64-char kebab name is valid (and not found)", async () => {
    const h = open({ skill_roots: [root()] });
    expect((await h.call({ name: "a".repeat(64) })).kind).toBe("not_found");
  });

  it.each([
    ["a string", "demo"],
    ["an array", ["demo"]],
    ["null", null],
    ["a number", 7],
    ["undefined", undefined],
  ])("tool input that is %s → INVALID_PARAM", async (_l, params) => {
    const h = open({ skill_roots: [root()] });
    expectError(await h.call(params), "INVALID_PARAM");
  });
});

describe("§2.1 alias pushback", () => {
  it("covers every alias of the spec's required set", () => {
    const required = [
      "skill",
      "skill_name",
      "name_of_skill",
      "slug",
      "invoke",
      "activate",
      "run",
      "args",
      "args_string",
      "input",
      "params",
      "parameters",
      "context",
      "session",
      "reload",
      "fresh",
      "force_reload",
      "refresh",
      "fork",
      "subagent",
      "isolated",
      "paths",
      "scope_paths",
      "model",
      "effort",
      "file",
      "file_path",
      "skill_path",
      "dir",
    ];
    expect(ALIASES.map((a) => a.alias).sort()).toEqual([...required].sort());
  });

  it.each(ALIASES.map((a) => [a.alias, a] as const))("%s → INVALID_PARAM with its note", (alias, row) => {
    const r = parseParams({ name: "demo", [alias]: "x" });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("INVALID_PARAM");
      expect(r.error.message).toContain(alias);
      expect(r.error.message).toContain(row.note);
    }
  });

  it("alias pushback runs before the name check (D3)", () => {
    const r = parseParams({ skill_name: "Not Kebab" });
    expect(r.ok === false && r.error.message.includes("skill_name")).toBe(true);
  });

  it("any other key is an unknown parameter", () => {
    const r = parseParams({ name: "demo", colour: "red" });
    expect(r.ok === false && r.error.message.includes("unknown parameter")).toBe(true);
  });
});

describe("§2 / R4 arguments shape", () => {
  it.each([[42], [null], [["a"]], [{ a: 1 }], [{ a: { b: "c" } }], [true]])("arguments %j → INVALID_PARAM", (args) => {
    const r = parseParams({ name: "demo", arguments: args });
    expect(r.ok === false && r.error.code).toBe("INVALID_PARAM");
  });
  it("a __proto__ key in arguments does not pollute prototypes", () => {
    const r = parseParams(JSON.parse('{"name":"demo","arguments":{"__proto__":{"polluted":"yes"}}}'));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(r.ok).toBe(false); // a nested object is not a string value
  });
});
