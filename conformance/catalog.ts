// Owns the kit's one catalog, built at load from the files themselves: the suites (conformance/cases/ and every
// conformance/cases-<suite>/), their cases (<ID>.json, loaded and checked by runner/load.ts), each case's mutants
// (<ID>.mutants.ts beside its JSON, found by listing the folder, never by a central table), the rules
// (schemas/rules.json, through schemas/index.ts, its one reader) and the fixtures the cases use. Every count, list
// and table a test or a doc shows is derived from here (scripts/gen-docs.ts writes the docs from it), so a new
// case is its own files: its JSON, its fixture, its mutants, and a rules row when the rule is new.
// Not shipped: mutants are kit-side evidence (tsconfig.build.json never reaches this module).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { rules as rulesTable, type Rule } from "../schemas/index.ts";
import { toMutants, type Mutant, type MutantRow } from "./mutants/wrap.ts";
import { loadCases, suiteDir, suites as suiteNames, type LoadedCase } from "./runner/load.ts";
import { ruleIndex, rulesOfCase } from "./runner/rules.ts";
import { REPO_ROOT, fixtureDir } from "./runner/workspace.ts";

/** The suffix of a case's mutants file: conformance/cases-security/S22.mutants.ts beside S22.json. */
export const MUTANTS_SUFFIX = ".mutants.ts";

export interface CatalogCase {
  readonly id: string;
  readonly suite: string;
  readonly title: string;
  /** The case file, absolute. */
  readonly file: string;
  /** Its fixture folder, absolute (fixtures/<suite>/<name> or fixtures/conformance/<name>). */
  readonly fixture: string;
  /** The rules the case exists to test (its own). */
  readonly rules: readonly string[];
  /** Every rule some check of the case verifies (its own, the control calls', the runner's). */
  readonly checks: readonly string[];
  /** Its <ID>.mutants.ts, absolute, when it has one. */
  readonly mutantsFile?: string;
  readonly loaded: LoadedCase;
}

export interface CatalogSuite {
  readonly id: string;
  /** conformance/cases or conformance/cases-<suite>, absolute. */
  readonly dir: string;
  readonly cases: readonly CatalogCase[];
}

export interface KitCatalog {
  readonly suites: readonly CatalogSuite[];
  readonly cases: readonly CatalogCase[];
  readonly rules: readonly Rule[];
  readonly ruleById: ReadonlyMap<string, Rule>;
  /** The rules a check can verify through a driver (rules.json rows not `checked: false`). */
  readonly checkable: readonly Rule[];
  /** Why a checkable rule has no mutant (conformance/mutants/no-mutant.json), by rule id. */
  readonly noMutant: ReadonlyMap<string, string>;
  /** Mutants files with no case JSON beside them (a layout error the catalog test reports). */
  readonly orphanMutantFiles: readonly string[];
}

/** A mutant as the catalog knows it: keyed {case, rule}, with its suite and the file it lives in. */
export interface CatalogMutant extends Mutant {
  readonly suite: string;
  readonly file: string;
}

export const NO_MUTANT_FILE = join(REPO_ROOT, "conformance", "mutants", "no-mutant.json");

function readNoMutant(): Map<string, string> {
  if (!existsSync(NO_MUTANT_FILE)) return new Map();
  const data = JSON.parse(readFileSync(NO_MUTANT_FILE, "utf8")) as Record<string, unknown>;
  return new Map(
    Object.entries(data)
      .filter(([k]) => k !== "$comment")
      .map(([k, v]) => [k, String(v)]),
  );
}

let built: KitCatalog | undefined;

/** The catalog of the kit as its files stand (built once per process). */
export function kitCatalog(): KitCatalog {
  return (built ??= buildCatalog());
}

function buildCatalog(): KitCatalog {
  const orphanMutantFiles: string[] = [];
  const suites = suiteNames().map((id): CatalogSuite => {
    const dir = suiteDir(id);
    const mutantFiles = new Set(readdirSync(dir).filter((f) => f.endsWith(MUTANTS_SUFFIX)));
    const cases = loadCases(id).map((c): CatalogCase => {
      const m = `${c.id}${MUTANTS_SUFFIX}`;
      const has = mutantFiles.delete(m);
      return {
        id: c.id,
        suite: id,
        title: c.title,
        file: c.file,
        fixture: fixtureDir(c.fixture, id),
        rules: [...(c.rules ?? [])],
        checks: rulesOfCase(c),
        ...(has ? { mutantsFile: join(dir, m) } : {}),
        loaded: c,
      };
    });
    orphanMutantFiles.push(...[...mutantFiles].map((f) => join(dir, f)));
    return { id, dir, cases };
  });
  const rules = rulesTable();
  return {
    suites,
    cases: suites.flatMap((s) => s.cases),
    rules,
    ruleById: ruleIndex(),
    checkable: rules.filter((r) => r.checked !== false),
    noMutant: readNoMutant(),
    orphanMutantFiles,
  };
}

const isRow = (r: unknown): r is MutantRow =>
  !!r &&
  typeof r === "object" &&
  ["kills", "rule", "id", "description"].every((k) => typeof (r as Record<string, unknown>)[k] === "string") &&
  typeof (r as { mutation?: unknown }).mutation === "object";

let mutants: Promise<CatalogMutant[]> | undefined;

/**
 * Every mutant of every case, in suite and case order: each <ID>.mutants.ts imported and its default export (a list
 * of MutantRow, conformance/mutants/wrap.ts) checked: rows, each killing the case it sits beside.
 */
export function loadMutants(): Promise<CatalogMutant[]> {
  return (mutants ??= importMutants());
}

async function importMutants(): Promise<CatalogMutant[]> {
  const out: CatalogMutant[] = [];
  for (const c of kitCatalog().cases)
    if (c.mutantsFile) out.push(...(await readMutantsFile(c.mutantsFile, c.id, c.suite)));
  return out;
}

/** One case's mutants file, imported and checked: its default export a list of MutantRow, each killing that case. */
export async function readMutantsFile(file: string, caseId: string, suite: string): Promise<CatalogMutant[]> {
  const where = relative(REPO_ROOT, file);
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  if (!Array.isArray(mod.default))
    throw new Error(`${where}: the default export must be a list of MutantRow (conformance/mutants/wrap.ts)`);
  for (const [i, row] of mod.default.entries()) {
    if (!isRow(row)) throw new Error(`${where}: row ${i} is not a MutantRow {kills, rule, id, description, mutation}`);
    if (row.kills !== caseId)
      throw new Error(
        `${where}: row ${row.id} kills ${row.kills}; a case's mutants file holds that case's mutants only`,
      );
  }
  return toMutants(mod.default as MutantRow[]).map((m) => ({ ...m, suite, file }));
}
