// The contract's validators at run time: validator(ref) for a schema file ("result.schema.json"), one of its $defs
// ("driver-protocol.schema.json#/$defs/initializeParams") or a full $id. The compiled package carries them precompiled,
// one CommonJS module per validator in dist/schemas/validators/ (written by `npm run build` through precompile.ts), so
// a process that only validates never loads ajv and loads only the validators it uses: the stdio driver's handshake
// needs four (the envelope, initialize params and result, the empty result). From source (tsx, vitest), or for a ref no module holds, the validator is compiled by ajv on
// first use, from the same options and schemas (ajv.ts). Either way one ref is resolved once per process.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ErrorObject } from "ajv/dist/2020.js";
import { buildAjv, type Ajv } from "./ajv.ts";
import { kitRequire } from "../package-root.ts";

export const SCHEMA_BASE = "https://skill-tool.conformance/schemas/";

/** Where the precompiled modules are, relative to the compiled code's root (dist/): dist/schemas/validators/. */
export const PRECOMPILED_DIR_IN_CODE = join("schemas", "validators");

/** What both kinds of validator are: a predicate that leaves its errors on itself. */
export type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

const DEFS_FRAGMENT = /^#\/\$defs\/([A-Za-z0-9_-]+)$/;

/**
 * The module file a validator is precompiled into, or undefined when there is none for this ref:
 * result.schema.json → result.cjs, driver-protocol.schema.json#/$defs/initializeParams → driver-protocol.defs.initializeParams.cjs.
 */
export function moduleFileOf(ref: string): string | undefined {
  const id = ref.startsWith("http") ? ref : SCHEMA_BASE + ref;
  if (!id.startsWith(SCHEMA_BASE)) return undefined;
  const hash = id.indexOf("#");
  const file = hash < 0 ? id.slice(SCHEMA_BASE.length) : id.slice(SCHEMA_BASE.length, hash);
  const fragment = hash < 0 ? "" : id.slice(hash);
  const stem = /^([a-z0-9-]+)\.schema\.json$/.exec(file)?.[1];
  if (stem === undefined) return undefined;
  if (fragment === "" || fragment === "#") return `${stem}.cjs`;
  const def = DEFS_FRAGMENT.exec(fragment)?.[1];
  return def === undefined ? undefined : `${stem}.defs.${def}.cjs`;
}

/**
 * A validator lookup over the schemas in `schemaDir`, preferring the modules in `precompiledDir` (when given and
 * present). Throws for a ref that names no schema: that is a bug of the caller, not bad input.
 */
export function createValidators(schemaDir: string, precompiledDir?: string): (ref: string) => Validate {
  const resolved = new Map<string, Validate>();
  let runtime: Ajv | undefined;

  const precompiled = (ref: string): Validate | undefined => {
    const file = precompiledDir === undefined ? undefined : moduleFileOf(ref);
    const path = file === undefined ? undefined : join(precompiledDir as string, file);
    return path !== undefined && existsSync(path) ? (kitRequire(path) as Validate) : undefined;
  };

  return (ref) => {
    const id = ref.startsWith("http") ? ref : SCHEMA_BASE + ref;
    let fn = resolved.get(id) ?? precompiled(ref);
    if (!fn) {
      runtime ??= buildAjv(schemaDir);
      fn = runtime.getSchema(id);
    }
    if (!fn) throw new Error(`no schema ${id}`);
    resolved.set(id, fn);
    return fn;
  };
}
