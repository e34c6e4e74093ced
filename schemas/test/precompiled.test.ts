// The compiled package validates with ajv's standalone code, precompiled by `npm run build` (precompile.ts), instead
// of compiling the schemas at start-up. These tests hold it to "exactly as before": every precompiled validator gives
// the same verdict, the same ajv errors and the same one-line message as the run-time ajv on a corpus of valid and
// broken values, the lookup prefers the precompiled module and falls back to ajv for anything else; and the comparison
// itself is shown to catch a validator built from other options or from a changed schema.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAjv, schemaFilesIn, validatorFragments, type Ajv } from "../ajv.ts";
import { SCHEMA_DIR, formatErrors } from "../index.ts";
import { writePrecompiled } from "../precompile.ts";
import { SCHEMA_BASE, createValidators, moduleFileOf, type Validate } from "../validators.ts";
import { PACKAGE_ROOT, dataPath } from "../../package-root.ts";

const require = createRequire(import.meta.url);
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));
// Inside the package, as dist/ is: the generated code requires ajv's small run-time helpers (ajv/dist/runtime/*).
const scratch = (prefix: string): string => mkdtempSync(join(PACKAGE_ROOT, "node_modules", ".cache", prefix));

/** Every ref that gets a module: each schema file and each of its $defs entries. */
const REFS: string[] = schemaFilesIn(SCHEMA_DIR).flatMap((file) =>
  validatorFragments(readJson(join(SCHEMA_DIR, file)) as { $defs?: Record<string, unknown> }).map((f) => file + f),
);

/** Values the kit really validates (schema examples, data tables, every case file), their parts, and broken copies. */
function corpus(): unknown[] {
  const roots: unknown[] = [];
  for (const file of readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const json = readJson(join(SCHEMA_DIR, file)) as { examples?: unknown[] };
    roots.push(...(file.endsWith(".schema.json") ? (json.examples ?? []) : [json]));
  }
  // The decisions live in one file per scope (schemas/decisions/).
  for (const f of readdirSync(join(SCHEMA_DIR, "decisions"))
    .filter((f) => f.endsWith(".json"))
    .sort())
    roots.push(readJson(join(SCHEMA_DIR, "decisions", f)));
  for (const dir of readdirSync(dataPath("conformance"))
    .filter((d) => d === "cases" || d.startsWith("cases-"))
    .sort()) {
    for (const f of readdirSync(dataPath("conformance", dir))
      .filter((f) => f.endsWith(".json"))
      .sort())
      roots.push(readJson(dataPath("conformance", dir, f)));
  }
  // Every distinct object or array inside them (a case's steps, a result, a catalog entry...), for the $defs validators.
  const parts = new Map<string, unknown>();
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== "object") return;
    parts.set(JSON.stringify(v), v);
    for (const child of Object.values(v)) walk(child);
  };
  for (const r of roots) {
    parts.set(JSON.stringify(r), r);
    walk(r);
  }
  // Broken copies, a few per value: an unknown property, a property missing, a property of the wrong type.
  const broken: unknown[] = [null, 0, "", [], {}, "x", true];
  let i = 0;
  for (const v of parts.values()) {
    if (i++ % 3 !== 0) continue;
    if (Array.isArray(v)) {
      broken.push([...v, null]);
      continue;
    }
    const o = v as Record<string, unknown>;
    const k = Object.keys(o)[i % Math.max(1, Object.keys(o).length)];
    broken.push({ ...o, zz_unknown: 1 });
    if (k === undefined) continue;
    const { [k]: _dropped, ...rest } = o;
    broken.push(rest, { ...o, [k]: typeof o[k] === "string" ? 7 : "7" });
  }
  return [...parts.values(), ...broken];
}

/** What a validator says about a value: its verdict, its errors (all but the schema copies verbose mode adds, which
 * formatErrors reads: it is compared instead) and the message; or what it threw (ajv's deep-equal throws on an object
 * whose toString is not a function: the run-time ajv does the same, so that is compared too). */
function outcome(fn: Validate, value: unknown): string {
  try {
    const valid = fn(value);
    const errors = (fn.errors ?? []).map(({ keyword, instancePath, schemaPath, params, message }) => ({
      keyword,
      instancePath,
      schemaPath,
      params,
      message,
    }));
    return JSON.stringify({ valid, errors, text: formatErrors(fn.errors) });
  } catch (e) {
    return `threw ${String(e)}`;
  }
}

/** First difference between two validators over the values, or undefined when they agree on every one. */
function firstDifference(a: Validate, b: Validate, values: readonly unknown[]): string | undefined {
  for (const v of values) {
    const oa = outcome(a, v);
    const ob = outcome(b, v);
    if (oa !== ob) return `${JSON.stringify(v)?.slice(0, 200)}:\n${oa.slice(0, 400)}\nvs\n${ob.slice(0, 400)}`;
  }
  return undefined;
}

let dir: string;
let runtime: Ajv;
const VALUES = corpus();
const runtimeFor = (ref: string): Validate => runtime.getSchema(SCHEMA_BASE + ref) as Validate;
const precompiledFor = (ref: string, from = dir): Validate =>
  require(join(from, moduleFileOf(ref) as string)) as Validate;

beforeAll(() => {
  mkdirSync(join(PACKAGE_ROOT, "node_modules", ".cache"), { recursive: true });
  dir = scratch("precompiled-");
  writePrecompiled(SCHEMA_DIR, dir);
  runtime = buildAjv(SCHEMA_DIR);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("precompiled validators", () => {
  it("one module per schema file and per $defs entry, nothing else", () => {
    expect(readdirSync(dir).sort()).toEqual(REFS.map((r) => moduleFileOf(r)).sort());
    expect(REFS).toContain("driver-protocol.schema.json#/$defs/initializeParams");
  });

  it.each(REFS)("%s: same verdict, errors and message as the run-time ajv", (ref) => {
    const pre = precompiledFor(ref);
    expect(pre).not.toBe(runtimeFor(ref));
    expect(firstDifference(pre, runtimeFor(ref), VALUES)).toBeUndefined();
    // The corpus reaches both sides of the validator: something passes it and something fails it.
    const verdicts = new Set(VALUES.map((v) => outcome(pre, v).startsWith('{"valid":true')));
    expect(verdicts.has(false), "no value fails").toBe(true);
    if (!ref.includes("#")) expect(verdicts.has(true), "no value passes").toBe(true);
  });

  it("the comparison catches a validator built with other options (allErrors off)", () => {
    const other = buildAjv(SCHEMA_DIR, { allErrors: false });
    const ref = "conformance-case.schema.json";
    expect(firstDifference(precompiledFor(ref), other.getSchema(SCHEMA_BASE + ref) as Validate, VALUES)).toBeDefined();
  });

  it("the comparison catches a module precompiled from a changed schema (a stale build)", () => {
    const changed = scratch("schemas-changed-");
    try {
      cpSync(SCHEMA_DIR, changed, { recursive: true, filter: (src) => !src.endsWith(".ts") && !src.endsWith("test") });
      // One kind fewer: a build made before "error" results existed.
      const file = join(changed, "result.schema.json");
      const schema = readJson(file) as { properties: { kind: { enum: string[] } } };
      schema.properties.kind.enum = schema.properties.kind.enum.filter((k) => k !== "error");
      writeFileSync(file, JSON.stringify(schema));
      const out = join(changed, "out");
      writePrecompiled(changed, out);
      expect(
        firstDifference(precompiledFor("result.schema.json", out), runtimeFor("result.schema.json"), VALUES),
      ).toBeDefined();
    } finally {
      rmSync(changed, { recursive: true, force: true });
    }
  });
});

describe("the lookup", () => {
  it("prefers the precompiled module and never compiles a ref it holds", () => {
    const lookup = createValidators(SCHEMA_DIR, dir);
    const ref = "driver-protocol.schema.json#/$defs/initializeParams";
    expect(lookup(ref)).toBe(precompiledFor(ref));
    expect(lookup(SCHEMA_BASE + ref)).toBe(precompiledFor(ref));
    expect(lookup("result.schema.json#")).toBe(precompiledFor("result.schema.json"));
  });

  it("falls back to ajv where no module is: from source, or a fragment deeper than $defs", () => {
    const fromSource = createValidators(SCHEMA_DIR, join(dir, "missing"));
    const ref = "driver-protocol.schema.json#/$defs/initializeParams";
    expect(fromSource(ref)).not.toBe(precompiledFor(ref));
    expect(firstDifference(fromSource(ref), precompiledFor(ref), VALUES)).toBeUndefined();
    const deep = createValidators(
      SCHEMA_DIR,
      dir,
    )("driver-protocol.schema.json#/$defs/initializeParams/properties/specVersion");
    expect(deep("1")).toBe(true);
    expect(deep(1)).toBe(false);
  });

  it("a ref naming no schema is the caller's bug: it throws", () => {
    expect(() => createValidators(SCHEMA_DIR, dir)("nope.schema.json")).toThrow(/no schema/);
    expect(moduleFileOf("https://elsewhere.example/x.schema.json")).toBeUndefined();
  });
});
