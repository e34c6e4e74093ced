// The one ajv configuration of the contract: its options, the instance holding every schemas/*.schema.json under its
// $id, and the fragments a schema file's validators are precompiled for ("" for the file, "#/$defs/<name>" each). Both the
// run-time lookup (validators.ts) and the build-time precompiler (precompile.ts) build their ajv here, so a
// precompiled validator and a run-time one are made from the same options and the same schemas. ajv is loaded
// (require) only when an instance is built: a compiled process that finds its validators precompiled never loads it.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type Ajv2020Module from "ajv/dist/2020.js";
import type { Options } from "ajv/dist/2020.js";
import { kitRequire } from "../package-root.ts";

export type Ajv = InstanceType<typeof Ajv2020Module.default>;

/**
 * validateSchema: false skips compiling the 2020-12 meta-schema on every start: the schemas are checked against it by
 * schemas/test/schemas.test.ts instead, once, not per process. verbose: formatErrors reads the failing keyword's schema.
 */
export const AJV_OPTIONS: Options = {
  validateSchema: false,
  strict: true,
  allErrors: true,
  allowUnionTypes: true,
  discriminator: true,
  verbose: true,
};

/**
 * The answer schemas' two levels, as annotations: x-spec-required lists which of an object's required fields the spec
 * names (the rest are the kit's); x-level "decision" marks a node whose constraint the kit adds (a limit, a form).
 */
export const SCHEMA_ANNOTATIONS = ["x-spec-required", "x-level"] as const;

/** The schema files of a folder, sorted: the order every instance registers them in. */
export function schemaFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".schema.json"))
    .sort();
}

/** An ajv with every schema of `dir` registered; `extra` adds options (the precompiler's code.source). */
export function buildAjv(dir: string, extra: Options = {}): Ajv {
  const Ajv2020 = (kitRequire("ajv/dist/2020.js") as typeof Ajv2020Module).default;
  const instance = new Ajv2020({ ...AJV_OPTIONS, ...extra });
  // Annotations, never assertions: which level of the contract a node belongs to (conformance/runner/schema-miss.ts).
  for (const keyword of SCHEMA_ANNOTATIONS) instance.addKeyword({ keyword });
  for (const file of schemaFilesIn(dir))
    instance.addSchema(JSON.parse(readFileSync(join(dir, file), "utf8")) as object);
  return instance;
}

/** The fragments of one schema that get a validator of their own: "" (the whole file) and "#/$defs/<name>" for each entry. */
export function validatorFragments(schema: { $defs?: Record<string, unknown> }): string[] {
  return ["", ...Object.keys(schema.$defs ?? {}).map((name) => `#/$defs/${name}`)];
}
