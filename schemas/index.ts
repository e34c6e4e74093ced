// The contract at run time: loads every schema in this folder into one strict ajv (2020-12) and
// exposes the data tables (error codes, aliases, limits, decisions). Everything that validates a
// result, a message or a case goes through here, so there is one copy of the contract.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { dataPath } from "../package-root.ts";
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";

// ajv is CommonJS: under NodeNext the default import is module.exports, whose .default is the class.
const Ajv2020 = Ajv2020Module.default;
import type { AliasTable, Decisions, Limits } from "./types.gen.ts";

export const SCHEMA_DIR = dataPath("schemas");
export const SCHEMA_BASE = "https://skill-tool.conformance/schemas/";

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, file), "utf8")) as T;
}

export const schemaFiles: readonly string[] = readdirSync(SCHEMA_DIR)
  .filter((f) => f.endsWith(".schema.json"))
  .sort();

let ajvInstance: InstanceType<typeof Ajv2020> | undefined;

/** One shared ajv with every schema registered under its $id; built on first use. */
export function ajv(): InstanceType<typeof Ajv2020> {
  if (ajvInstance) return ajvInstance;
  // validateSchema: false skips compiling the 2020-12 meta-schema on every start (about half of a stdio driver's
  // start-up): the schemas are checked against it by schemas/test/schemas.test.ts instead, once, not per process.
  const instance = new Ajv2020({ validateSchema: false, strict: true, allErrors: true, allowUnionTypes: true, discriminator: true, verbose: true });
  for (const file of schemaFiles) instance.addSchema(readJson<object>(file));
  ajvInstance = instance;
  return instance;
}

/** Validator for a schema file (`result.schema.json`) or a fragment (`driver-protocol.schema.json#/$defs/skillCallParams`). */
export function validator(ref: string): ValidateFunction {
  const id = ref.startsWith("http") ? ref : SCHEMA_BASE + ref;
  const fn = ajv().getSchema(id);
  if (!fn) throw new Error(`no schema ${id}`);
  return fn;
}

/**
 * One line per problem, as a driver author needs it: the errors of the branches under a failed anyOf/oneOf
 * are folded into it, and an enum-like anyOf of consts names the allowed values.
 */
export function formatErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const list = errors ?? [];
  const unions = list.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf");
  const kept = list.filter(
    (e) => !unions.some((u) => u !== e && e.instancePath === u.instancePath && e.schemaPath.startsWith(u.schemaPath.replace(/\/(anyOf|oneOf)$/, ""))),
  );
  const text = (e: ErrorObject): string => {
    const branches = e.schema as unknown;
    if ((e.keyword === "anyOf" || e.keyword === "oneOf") && Array.isArray(branches) && branches.every((b) => b && typeof b === "object" && "const" in b)) {
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
export const DECISIONS: Decisions = readJson<Decisions>("decisions.json");

interface CodeRow { const: string; description: string }
const codeSchema = readJson<{ anyOf: CodeRow[] }>("error-codes.schema.json");
/** Error code → its one-line meaning, in schema order. */
export const ERROR_CODES: ReadonlyMap<string, string> = new Map(codeSchema.anyOf.map((r) => [r.const, r.description]));

export const KIT_VERSION: string = (JSON.parse(readFileSync(dataPath("package.json"), "utf8")) as { version: string }).version;
export const SPEC_VERSION = "1";

export type * from "./types.gen.ts";
