// Owns loading a suite: reads conformance/cases[-<suite>]/*.json, validates each against
// schemas/conformance-case.schema.json plus the rules a schema cannot say (id = file name, unique ids, the
// fixture exists, hook present iff the hook is on, no hook in a case with a race, every check names rules of
// schemas/rules.json and the case's own rules are among them), and filters by id or glob. A bad case file is a
// kit fault.
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { minimatch } from "minimatch";
import { check } from "../../schemas/index.ts";
import type { ConformanceCase } from "../../schemas/index.ts";
import { checkKeys, expectationsOf, resolveRules, ruleIndex, rulesOfCase } from "./rules.ts";
import { KitError, REPO_ROOT, fixtureDir } from "./workspace.ts";

/** A case as loaded: the file's data plus where it came from. */
export type LoadedCase = ConformanceCase & { readonly suite: string; readonly file: string };

const CASE_SCHEMA = "conformance-case.schema.json";

/** The suites `--suite all` runs: spec first, then every conformance/cases-<name>/ folder by name. */
export function suites(): string[] {
  const dir = join(REPO_ROOT, "conformance");
  const others = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith("cases-"))
    .map((d) => d.name.slice("cases-".length))
    .sort();
  return ["spec", ...others];
}

/** conformance/cases/ for "spec", conformance/cases-<suite>/ for any other suite. */
export function suiteDir(suite: string): string {
  return join(REPO_ROOT, "conformance", suite === "spec" ? "cases" : `cases-${suite}`);
}

function matchesFilter(id: string, filter: string | undefined): boolean {
  if (!filter?.trim()) return true;
  return filter
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .some((p) => (/[*?[\]{}!]/.test(p) ? minimatch(id, p) : id === p));
}

/** Load, validate and filter a suite's cases, sorted by id; "all" is every suite in turn (suites()). */
export function loadCases(suite = "spec", filter?: string): LoadedCase[] {
  if (suite === "all") return suites().flatMap((s) => loadCasesFrom(suiteDir(s), s, filter));
  return loadCasesFrom(suiteDir(suite), suite, filter);
}

/** loadCases over an explicit directory (the kit's own tests use it on a temp dir of broken cases). */
export function loadCasesFrom(dir: string, suite: string, filter?: string): LoadedCase[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new KitError(`suite ${suite}: no case directory ${dir}`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const seen = new Set<string>();
  const out: LoadedCase[] = [];
  for (const f of files) {
    const file = join(dir, f);
    const c = readCase(file);
    if (c.id !== basename(f, ".json"))
      throw new KitError(`invalid case file ${file}: id ${c.id} differs from the file name`);
    if (seen.has(c.id)) throw new KitError(`invalid case file ${file}: duplicate id ${c.id}`);
    seen.add(c.id);
    checkCaseRules(c, file, suite);
    if (matchesFilter(c.id, filter)) out.push({ ...c, suite, file });
  }
  return out;
}

function readCase(file: string): ConformanceCase {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new KitError(`invalid case file ${file}: not JSON: ${(e as Error).message}`);
  }
  const v = check(CASE_SCHEMA, data);
  if (!v.valid) throw new KitError(`invalid case file ${file}: ${v.errors}`);
  return data as ConformanceCase;
}

/** What the schema cannot say: the fixture exists, batches do not expect hook requests, hook present iff on. */
function checkCaseRules(c: ConformanceCase, file: string, suite: string): void {
  const fx = fixtureDir(c.fixture, suite);
  if (!existsSync(fx) || !statSync(fx).isDirectory())
    throw new KitError(
      `invalid case file ${file}: fixture ${c.fixture} does not exist under fixtures/${suite === "spec" ? "" : `${suite}/ or fixtures/`}conformance/`,
    );
  const hookOn = c.config.permission?.hook === true;
  for (const [i, call] of c.calls.entries()) {
    if ("race" in call && hookOn)
      throw new KitError(
        `invalid case file ${file}: calls[${i}] is a race, whose every try would ask the hook: a race case has no permission hook`,
      );
    if (!("concurrent" in call)) continue;
    for (const part of ["first", "rest", "each"] as const) {
      if (call.expect[part]?.hook_requests !== undefined)
        throw new KitError(
          `invalid case file ${file}: calls[${i}].expect.${part}: hook_requests cannot be attributed to one of concurrent calls`,
        );
    }
  }
  if (hookOn !== (c.hook !== undefined))
    throw new KitError(`invalid case file ${file}: "hook" must be present exactly when config.permission.hook is true`);
  checkCaseAttribution(c, file);
}

/** Every check names at least one rule, every rule named exists, and the case checks every rule it exists to test. */
function checkCaseAttribution(c: ConformanceCase, file: string): void {
  const bad = (why: string) => new KitError(`invalid case file ${file}: ${why}`);
  if (!c.rules?.length) throw bad(`"rules" (the rules the case exists to test) is missing`);
  const known = ruleIndex();
  for (const { at, exp } of expectationsOf(c)) {
    for (const key of checkKeys(exp)) {
      const ids = resolveRules(exp.rules, key);
      if (!ids.length) throw bad(`${at}: check ${key} names no rule (add it, or "*", to ${at}.rules)`);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length)
        throw bad(`${at}: check ${key} names ${unknown.join(", ")}, not a rule of schemas/rules.json`);
    }
  }
  const unknownOwn = c.rules.filter((id) => !known.has(id));
  if (unknownOwn.length) throw bad(`rules: ${unknownOwn.join(", ")} not a rule of schemas/rules.json`);
  const checked = new Set(rulesOfCase(c));
  const unchecked = c.rules.filter((id) => !checked.has(id));
  if (unchecked.length)
    throw bad(`rules: the case tests ${unchecked.join(", ")} but no check of it verifies that rule`);
}
