// Owns judging an answer of the implementation against one of the contract's schemas (a result, the catalog, a
// hook payload) as mismatches of the schema's rule: one mismatch per offending field, naming the field (ajv's
// instancePath, written like the kit's other paths) and the value found there. The same answer gets the same
// mismatches whatever the transport: the stdio driver passes answers through unjudged (driver/subprocess.ts).
import { formatErrors, validator } from "../../schemas/index.ts";
import type { ErrorObject } from "ajv/dist/2020.js";
import type { Miss } from "./expect.ts";

/** The rule each answer schema stands for at the spec's level: the fields the spec names, their types and values. */
export const SCHEMA_RULES = {
  "result.schema.json": "result.schema",
  "catalog.schema.json": "catalog.schema",
  "permission-request.schema.json": "hook.request-schema",
} as const;

/** The rule of each answer schema's kit level: the fields the kit adds, closed objects, the limits it pins. */
export const CONTRACT_SCHEMA_RULES = {
  "result.schema.json": "result.schema-contract",
  "catalog.schema.json": "catalog.schema-contract",
  "permission-request.schema.json": "hook.request-schema-contract",
} as const;

/**
 * Which level of the contract one error breaks (schemas/ajv.ts SCHEMA_ANNOTATIONS): a closed object and a node marked
 * x-level "decision" are the kit's (but for its type); a missing field is the spec's only when its object's x-spec-required names it (or
 * the object has no such list); anything else (a type, a value, the discriminator) is the spec's.
 */
export function levelOf(e: ErrorObject): "spec" | "decision" {
  const parent = e.parentSchema as { "x-spec-required"?: string[]; "x-level"?: string } | undefined;
  if (e.keyword === "additionalProperties") return "decision";
  // x-level "decision": the node's constraints are the kit's, but not its type (a message that is not a string breaks §3.4).
  if (parent?.["x-level"] === "decision" && e.keyword !== "type") return "decision";
  if (e.keyword === "required") {
    const named = parent?.["x-spec-required"];
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    return named === undefined || (missing !== undefined && named.includes(missing)) ? "spec" : "decision";
  }
  return "spec";
}

export type AnswerSchema = keyof typeof SCHEMA_RULES;

/** At most this many offending fields are listed for one answer; the rest are counted in the last one. */
const FIELDS_MAX = 5;

/** One offending field: where (a JSON pointer), what is there (absent: missing), and what the schema wants there. */
export interface SchemaProblem {
  field: string;
  value?: unknown;
  missing?: true;
  problem: string;
  /** spec: some error at this field breaks what the spec names; decision: only the kit's additions do. */
  level: "spec" | "decision";
}

const escapeSeg = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** The field an error is about: additionalProperties and required name a child of the instance they fail on. */
function fieldOf(e: ErrorObject): { field: string; value?: unknown; missing?: true } {
  const params = e.params as { additionalProperty?: string; missingProperty?: string };
  if (e.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    const data = e.data as Record<string, unknown> | undefined;
    return {
      field: `${e.instancePath}/${escapeSeg(params.additionalProperty)}`,
      value: data?.[params.additionalProperty],
    };
  }
  if (e.keyword === "required" && typeof params.missingProperty === "string") {
    return { field: `${e.instancePath}/${escapeSeg(params.missingProperty)}`, missing: true };
  }
  return { field: e.instancePath, value: e.data };
}

/** The problems of `value` against `schema`, one per offending field, in the order ajv found them; [] when valid. */
export function schemaProblems(schema: AnswerSchema, value: unknown): SchemaProblem[] {
  const validate = validator(schema);
  if (validate(value)) return [];
  const byField = new Map<string, { at: ReturnType<typeof fieldOf>; errors: ErrorObject[] }>();
  for (const e of validate.errors ?? []) {
    const at = fieldOf(e);
    const entry = byField.get(at.field) ?? { at, errors: [] };
    entry.errors.push(e);
    byField.set(at.field, entry);
  }
  // A discriminator's complaint at the root repeats the kind's own ("value of tag kind must be in oneOf"): the field wins.
  const fields = [...byField.values()].filter(
    (f) => !(f.at.field === "" && byField.size > 1 && f.errors.every((e) => e.keyword === "discriminator")),
  );
  return fields.map(({ at, errors }) => {
    const problem = errors.some((e) => e.keyword === "additionalProperties")
      ? "absent (the object is closed: no such field)"
      : errors.some((e) => e.keyword === "required")
        ? "present (a required field)"
        : errors.every((e) => e.keyword === "enum")
          ? `must be one of ${(errors[0]!.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")}`
          : formatErrors(errors)
              .replace(/^\S+ /, "")
              .replace(/; got .*$/, "");
    const level = errors.some((e) => levelOf(e) === "spec") ? ("spec" as const) : ("decision" as const);
    return {
      field: at.field || "/",
      ...(at.missing ? { missing: true as const } : { value: at.value }),
      problem,
      level,
    };
  });
}

/** A JSON pointer as one of the kit's paths: `/frontmatter/allowed-tools/0` → `.frontmatter.allowed-tools[0]`. */
export function pointerToPath(pointer: string): string {
  if (pointer === "/" || pointer === "") return "";
  return pointer
    .split("/")
    .slice(1)
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`))
    .join("");
}

/**
 * The mismatches of an answer against its schema, at `at` (e.g. `calls[0].result`): one per offending field, under
 * the schema's rule, the value found there as `actual`; past FIELDS_MAX fields, one more counts the rest. `unobserved`
 * says which of the answer's places the driver declared unobserved (unobserved.ts): those fields are not judged.
 */
export function schemaMisses(
  schema: AnswerSchema,
  value: unknown,
  at: string,
  what: string,
  unobserved?: (at: string) => boolean,
): Miss[] {
  // A field at a place the driver declares unobserved (K40) is not judged: left out before the count of the rest.
  const problems = schemaProblems(schema, value).filter((p) => !unobserved?.(`${at}${pointerToPath(p.field)}`));
  // Each offending field under the level it breaks: the spec's schema rule, or the kit's contract rule.
  const rulesOf = (p: SchemaProblem) => [p.level === "spec" ? SCHEMA_RULES[schema] : CONTRACT_SCHEMA_RULES[schema]];
  const out: Miss[] = problems.slice(0, FIELDS_MAX).map((p) => ({
    at: `${at}${pointerToPath(p.field)}`,
    expected: p.problem,
    actual: p.missing ? "(missing)" : p.value,
    what: `${what} (${schema}${p.level === "decision" ? ", as the kit pins it" : ""})`,
    rules: rulesOf(p),
  }));
  if (problems.length > FIELDS_MAX) {
    const rest = problems.slice(FIELDS_MAX);
    out.push({
      at,
      expected: `a value valid against ${schema}`,
      actual: rest.map((p) => p.field),
      what: `${what}: ${rest.length} more offending field(s)`,
      rules: [...new Set(rest.flatMap(rulesOf))],
    });
  }
  return out;
}
