// The contract compiles in ajv strict mode, every example in it is valid, the data tables obey
// their schemas, the generated types are current, and every design.md decision is carried.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ALIASES, DECISION_SCOPES, LIMITS, SCHEMA_DIR, check, decisionFile, decisions, validator } from "../index.ts";
import { schemaFilesIn } from "../ajv.ts";
import { generate } from "../../scripts/gen-types.ts";

const Ajv2020 = Ajv2020Module.default;
const DECISIONS = decisions();
const schemaFiles = schemaFilesIn(SCHEMA_DIR);
const load = (f: string) => JSON.parse(readFileSync(join(SCHEMA_DIR, f), "utf8")) as Record<string, unknown>;

describe("schemas", () => {
  it.each(schemaFiles)("%s has $id, title, description and valid examples", (file) => {
    const schema = load(file);
    for (const key of ["$schema", "$id", "title", "description"]) expect(schema[key], key).toBeTypeOf("string");
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const examples = schema.examples as unknown[];
    expect(Array.isArray(examples) && examples.length > 0, "examples").toBe(true);
    for (const ex of examples) expect(check(file, ex)).toEqual({ valid: true });
  });

  it("every schema is valid against the 2020-12 meta-schema (the run-time ajv skips this check to start fast)", () => {
    const meta = new Ajv2020({ strict: false });
    for (const file of schemaFiles) expect(meta.validateSchema(load(file)), `${file}: ${meta.errorsText()}`).toBe(true);
    // The check can fail: a schema with a wrong type keyword is refused.
    expect(meta.validateSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", type: 12 })).toBe(false);
  });

  it("rejects what it should: a result with an unknown kind, an error with an unknown code", () => {
    expect(check("result.schema.json", { kind: "weird", output: "" }).valid).toBe(false);
    expect(check("result.schema.json", { kind: "error", code: "NOT_FOUND", message: "m", output: "o" }).valid).toBe(
      false,
    );
    expect(check("tool-input.schema.json", { name: "Bad_Name" }).valid).toBe(false);
    expect(check("tool-input.schema.json", { name: "ok", skill_name: "x" }).valid).toBe(false);
  });

  it("data tables validate against their schemas", () => {
    expect(check("aliases.schema.json", ALIASES)).toEqual({ valid: true });
    expect(check("limits.schema.json", LIMITS)).toEqual({ valid: true });
    for (const scope of DECISION_SCOPES)
      expect(check("decisions.schema.json", decisionFile(scope)), scope).toEqual({ valid: true });
  });

  it("the alias table covers every alias of spec §2.1", () => {
    const spec = [
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
    expect(ALIASES.map((a) => a.alias).sort()).toEqual([...spec].sort());
    for (const a of ALIASES) if (a.action === "rename") expect(a.target).toBeDefined();
  });

  it("carries every decision of design.md D1–D11", () => {
    const ids = DECISIONS.map((d) => d.id);
    for (let i = 1; i <= 11; i++) expect(ids).toContain(`D${i}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("splits the decisions by scope: each file holds its own scope, ids are unique across files and never renumbered", () => {
    for (const scope of DECISION_SCOPES) {
      const file = decisionFile(scope);
      expect(file.scope).toBe(scope);
      expect(file.decisions.length, scope).toBeGreaterThan(0);
      expect(
        file.decisions.filter((d) => d.scope !== scope).map((d) => d.id),
        scope,
      ).toEqual([]);
      expect(decisions(scope)).toEqual(file.decisions);
    }
    expect(DECISIONS.map((d) => d.scope).filter((s) => !DECISION_SCOPES.includes(s))).toEqual([]);
    const contract = decisionFile("contract").decisions.map((d) => d.id);
    for (let i = 1; i <= 11; i++) expect(contract).toContain(`D${i}`);
  });

  it("keeps R for the contract: the R ids of the other scopes are the ones that predate the split, nothing new", () => {
    // A new reference, kit or e2e decision takes X, K or E (decisions.schema.json); an R there would share the
    // contract's numbering again. These lists are frozen: shrink them if an entry moves, never grow them.
    const legacy: Record<string, string[]> = {
      reference: ["R10", "R18", "R23", "R80", "R85", "R86", "R90"],
      kit: ["R11", "R30", "R39", "R70", "R96", "R100", "R101"],
      e2e: Array.from({ length: 20 }, (_, i) => `R${50 + i}`),
    };
    for (const [scope, ids] of Object.entries(legacy)) {
      const rIds = decisions(scope as "reference" | "kit" | "e2e")
        .map((d) => d.id)
        .filter((id) => id.startsWith("R"));
      expect(
        rIds.filter((id) => !ids.includes(id)),
        scope,
      ).toEqual([]);
    }
    expect(
      check("decisions.schema.json#/$defs/decision", {
        id: "X1",
        scope: "contract",
        spec: "§1",
        title: "t",
        decision: "d",
      }).valid,
    ).toBe(false);
    expect(
      check("decisions.schema.json#/$defs/decision", { id: "R1", scope: "e2e", spec: "§1", title: "t", decision: "d" })
        .valid,
    ).toBe(true);
    expect(
      check("decisions.schema.json#/$defs/decision", { id: "K2", scope: "e2e", spec: "§1", title: "t", decision: "d" })
        .valid,
    ).toBe(false);
  });

  it("types.gen.ts is generated from the current schemas", async () => {
    expect(readFileSync(join(SCHEMA_DIR, "types.gen.ts"), "utf8")).toBe(await generate());
  });

  it("protocol fragments are addressable", () => {
    expect(
      validator("driver-protocol.schema.json#/$defs/skillCallParams")({
        sessionId: "s",
        params: {},
        invocation: "model",
      }),
    ).toBe(true);
  });
});

describe("error messages a driver author can act on", () => {
  it("a result is checked against the branch its kind names", () => {
    const r = check("result.schema.json", { kind: "not_found", name: "x", output: "o" });
    expect(r.valid === false && r.errors).toBe("/ must have required property 'siblings'");
  });
  it("an unknown error code lists the allowed ones", () => {
    const r = check("result.schema.json", { kind: "error", code: "NOT_FOUND", message: "m", output: "o" });
    expect(r.valid === false && r.errors).toMatch(/^\/code must be one of "INVALID_PARAM", .*; got "NOT_FOUND"$/);
  });
});
