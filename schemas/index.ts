// The contract at run time: the validators of every schema in this folder (validators.ts: precompiled in the
// compiled package, one strict ajv 2020-12 from source) and the data tables (aliases, limits; decisions on
// request, by scope from schemas/decisions/). Everything that validates a result, a message or a case goes through
// here, so there is one copy of the contract.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CODE_ROOT, dataPath } from "../package-root.ts";
import type { ErrorObject } from "ajv/dist/2020.js";
import { PRECOMPILED_DIR_IN_CODE, SCHEMA_BASE, createValidators, type Validate } from "./validators.ts";
import type { AliasTable, Decision, DecisionFile, DecisionScope, Limits, Rules } from "./types.gen.ts";

export const SCHEMA_DIR = dataPath("schemas");
export { SCHEMA_BASE, type Validate };

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, file), "utf8")) as T;
}

// Compiled, `npm run build` put the precompiled validators beside this module (dist/schemas/validators/); from source
// there is no such folder and every validator is compiled by ajv on first use. Same options, same schemas: ajv.ts.
const lookup = createValidators(SCHEMA_DIR, join(CODE_ROOT, PRECOMPILED_DIR_IN_CODE));

/** Validator for a schema file (`result.schema.json`) or a fragment (`driver-protocol.schema.json#/$defs/skillCallParams`). */
export function validator(ref: string): Validate {
  return lookup(ref);
}

/**
 * One line per problem, as a driver author needs it: the errors of the branches under a failed anyOf/oneOf
 * are folded into it, and an enum-like anyOf of consts names the allowed values.
 */
export function formatErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const list = errors ?? [];
  const unions = list.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf");
  const kept = list.filter(
    (e) =>
      !unions.some(
        (u) =>
          u !== e &&
          e.instancePath === u.instancePath &&
          e.schemaPath.startsWith(u.schemaPath.replace(/\/(anyOf|oneOf)$/, "")),
      ),
  );
  const text = (e: ErrorObject): string => {
    const branches = e.schema as unknown;
    if (
      (e.keyword === "anyOf" || e.keyword === "oneOf") &&
      Array.isArray(branches) &&
      branches.every((b) => b && typeof b === "object" && "const" in b)
    ) {
      return `must be one of ${branches.map((b: { const: unknown }) => JSON.stringify(b.const)).join(", ")}; got ${JSON.stringify(e.data)}`;
    }
    return e.message ?? "";
  };
  return kept.map((e) => `${e.instancePath || "/"} ${text(e)}`.trim()).join("; ");
}

/** Validation without throwing: the kit uses the message to blame whoever sent the value. */
export function check(ref: string, value: unknown): { valid: true } | { valid: false; errors: string } {
  const fn = validator(ref);
  return fn(value) ? { valid: true } : { valid: false, errors: formatErrors(fn.errors) };
}

export const LIMITS: Limits = readJson<Limits>("limits.json");
export const ALIASES: AliasTable = readJson<AliasTable>("aliases.json");
/** The frontmatter fields the spec defines (§4), in frontmatter.schema.json's order: the order R20's warnings follow. */
export const FRONTMATTER_FIELDS: readonly string[] = Object.keys(
  readJson<{ properties: Record<string, unknown> }>("frontmatter.schema.json").properties,
);
/** The scopes decisions are split by, one file each in schemas/decisions/: what a decision binds (decisions.schema.json). */
export const DECISION_SCOPES: readonly DecisionScope[] = ["contract", "reference", "kit", "e2e"];
/** One scope's file of schemas/decisions/ as written (scope, description, numbering, decisions). */
export const decisionFile = (scope: DecisionScope): DecisionFile =>
  readJson<DecisionFile>(join("decisions", `${scope}.json`));
/**
 * The decisions, read when asked (nothing at run time needs them, so a driver's start-up does not parse them): every
 * scope's, in DECISION_SCOPES order, or one scope's. Ids are unique across scopes, so a citation needs no scope.
 */
export const decisions = (scope?: DecisionScope): Decision[] =>
  (scope ? [scope] : DECISION_SCOPES).flatMap((s) => decisionFile(s).decisions);
let rulesTable: Rules | undefined;
/** The rules table (rules.json): what every check verifies, its source and level. Read once, on first use. */
export const rules = (): Rules => (rulesTable ??= readJson<Rules>("rules.json"));

/** Values a harness may not produce (observations.json, decision K40): id → where they show and the rules needing them. */
export interface Observation {
  id: string;
  what: string;
  places: string[];
  rules: string[];
}
let observationsTable: Observation[] | undefined;
export const observations = (): Observation[] => (observationsTable ??= readJson<Observation[]>("observations.json"));

export const KIT_VERSION: string = (JSON.parse(readFileSync(dataPath("package.json"), "utf8")) as { version: string })
  .version;
export const SPEC_VERSION = "1";

export type * from "./types.gen.ts";
