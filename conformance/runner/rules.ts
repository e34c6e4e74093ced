// Owns the rules at run time: which rule(s) a check verifies (a case's rule map, most specific key first),
// the profiles (which sources are scored), the capabilities that make a rule n/a, and what one mismatch does:
// fail its case, stand as an incidental finding under its own rule, go unscored, or be n/a. Pure functions
// over schemas/rules.json; the case runner and the rule verdicts (verdicts.ts) both use them.
import { rules as rulesTable, type Rule, type RuleMap } from "../../schemas/index.ts";

export type Source = Rule["source"];
export const PROFILES = ["spec", "decisions", "exact"] as const;
export type Profile = (typeof PROFILES)[number];
/** Decision K1 (schemas/decisions/kit.json): an implementer of this spec is judged on the spec unless they ask for more. */
export const DEFAULT_PROFILE: Profile = "spec";

export const SCORED: Record<Profile, readonly Source[]> = {
  spec: ["spec"],
  decisions: ["spec", "decision"],
  exact: ["spec", "decision", "rendering"],
};

export function isProfile(p: string): p is Profile {
  return (PROFILES as readonly string[]).includes(p);
}

let byId: Map<string, Rule> | undefined;
/** Every rule by id. */
export function ruleIndex(): ReadonlyMap<string, Rule> {
  return (byId ??= new Map(rulesTable().map((r) => [r.id, r])));
}

/** The rules of the checks the runner makes itself, on every case. */
export const RUNNER_RULES = {
  resultSchema: ["result.schema", "result.schema-contract"],
  catalogSchema: ["catalog.schema", "catalog.schema-contract"],
  hookSchema: ["hook.request-schema", "hook.request-schema-contract"],
  prototypes: ["prototype.unchanged"],
  hookScript: ["hook.asked-per-activation"],
  unscriptedAsk: ["hook.unscripted-ask"],
  /** A crash, a throw or a dead session instead of an answer (§3.4: errors are structured results, not thrown). */
  crash: ["errors.structured"],
} as const satisfies Record<string, readonly string[]>;

/**
 * The rules a check verifies: the map's entry for the most specific key present ("fields.frontmatter.description",
 * then "fields.frontmatter", then "fields"), else "*"; [] when the map says nothing (an unattributed check).
 */
export function resolveRules(map: RuleMap | undefined, key: string): string[] {
  if (!map) return [];
  const segs = key.split(".");
  for (let n = segs.length; n > 0; n--) {
    const hit = map[segs.slice(0, n).join(".")];
    if (hit) return [...hit];
  }
  return map["*"] ? [...map["*"]] : [];
}

/** What one mismatch does to its case and its rules. */
export type Effect = "fails_case" | "incidental" | "not_scored" | "n/a" | "not_observable";

export interface Judge {
  profile: Profile;
  /** Capabilities the implementation declared (a name left out counts as supported). */
  capabilities: Readonly<Record<string, boolean>> | undefined;
  /** Rules that need a value the implementation declares unobserved (K40, unobserved.ts): not observable here. */
  notObservable?: ReadonlySet<string>;
}

/** A rule is not observable when it needs a value the harness never produces (the driver's `unobserved`). */
export function isNotObservable(id: string, j: Judge): boolean {
  return j.notObservable?.has(id) === true && !isNa(id, j);
}

/** A rule is n/a when it needs a capability the implementation declares false. */
export function isNa(id: string, j: Judge): boolean {
  const cap = ruleIndex().get(id)?.capability;
  return cap !== undefined && j.capabilities?.[cap] === false;
}

/** A rule is scored under the profile when its source is; an unknown id (a kit bug the traceability test catches) is scored. */
export function isScored(id: string, j: Judge): boolean {
  const r = ruleIndex().get(id);
  return r === undefined || SCORED[j.profile].includes(r.source);
}

/** The rules a case is judged on: its own, less those n/a or outside the profile. */
export function activeOwn(own: readonly string[], j: Judge): string[] {
  return own.filter((id) => !isNa(id, j) && !isNotObservable(id, j) && isScored(id, j));
}

/**
 * A mismatch fails its case when one of its rules is among the case's active own rules (or it names no rule:
 * then it is the case's by default); else it is a finding under its own rules: incidental when one of them is
 * scored, not_scored when none is, n/a when every one is n/a.
 */
export function effectOf(mismatchRules: readonly string[], own: readonly string[], j: Judge): Effect {
  if (mismatchRules.length === 0) return "fails_case";
  const live = mismatchRules.filter((id) => !isNa(id, j) && !isNotObservable(id, j));
  if (live.length === 0) return mismatchRules.some((id) => isNotObservable(id, j)) ? "not_observable" : "n/a";
  const scored = live.filter((id) => isScored(id, j));
  if (scored.length === 0) return "not_scored";
  // A case that names no rules of its own (one built in code, not a case file) is judged on every scored check.
  if (own.length === 0) return "fails_case";
  const active = new Set(activeOwn(own, j));
  return scored.some((id) => active.has(id)) ? "fails_case" : "incidental";
}

type Expectish = Record<string, unknown> & { rules?: RuleMap };
const LISTS = [
  "output_contains",
  "output_not_contains",
  "output_matches",
  "body_contains",
  "body_not_contains",
  "json_not_contains",
  "warnings_exclude",
  "warnings_include",
  "tool_description_contains",
  "tool_description_not_contains",
  "files_absent",
];
const MAPS = ["fields", "contains", "not_contains", "length", "entries"];

/** The check keys an expectation holds, as the checks name them (fields.body, output_matches.1, names.order, …). */
export function checkKeys(exp: Expectish): string[] {
  const keys: string[] = [];
  for (const [k, v] of Object.entries(exp)) {
    if (k === "rules" || k === "first" || k === "rest" || k === "each") continue;
    if (LISTS.includes(k) && Array.isArray(v)) v.forEach((_, i) => keys.push(`${k}.${i}`));
    else if (MAPS.includes(k) && v && typeof v === "object") keys.push(...Object.keys(v).map((p) => `${k}.${p}`));
    else if ((k === "absent" || k === "absent_names") && Array.isArray(v))
      keys.push(...v.map((p) => `${k}.${String(p)}`));
    else if (k === "names") keys.push("names", "names.order");
    else keys.push(k);
  }
  return keys;
}

/** Every expectation of a case with where it is: the catalog, each call, a batch and its first / rest / each. */
export function expectationsOf(c: {
  catalog?: unknown;
  calls: ReadonlyArray<{ expect: unknown }>;
}): Array<{ at: string; exp: Expectish }> {
  const out: Array<{ at: string; exp: Expectish }> = [];
  if (c.catalog) out.push({ at: "catalog", exp: c.catalog as Expectish });
  c.calls.forEach((call, i) => {
    const exp = call.expect as Expectish;
    out.push({ at: `calls[${i}].expect`, exp });
    for (const part of ["first", "rest", "each"])
      if (exp[part]) out.push({ at: `calls[${i}].expect.${part}`, exp: exp[part] as Expectish });
  });
  return out;
}

/**
 * The rules a case that ended early never got to check: its own (its subject was not shown), the catalog's when it
 * ended before the catalog was judged, every call's from the one in progress on, and the hook script's.
 */
export function uncheckedRules(
  c: { rules?: readonly string[]; catalog?: unknown; calls: ReadonlyArray<{ expect: unknown }>; hook?: unknown },
  reached: "session" | "catalog" | number,
): string[] {
  const ids = new Set<string>(c.rules ?? []);
  const from = typeof reached === "number" ? reached : 0;
  for (const { at, exp } of expectationsOf(c)) {
    const call = /^calls\[(\d+)\]/.exec(at)?.[1];
    const late = call === undefined ? typeof reached !== "number" : Number(call) >= from;
    if (late) for (const k of checkKeys(exp)) for (const id of resolveRules(exp.rules, k)) ids.add(id);
  }
  if (c.hook !== undefined) for (const id of RUNNER_RULES.hookScript) ids.add(id);
  return [...ids];
}

/** The rules a case checks: every check's, plus the runner's own checks on every case (and the hook's, when it has one). */
export function rulesOfCase(c: {
  catalog?: unknown;
  calls: ReadonlyArray<{ expect: unknown }>;
  hook?: unknown;
}): string[] {
  const ids = new Set<string>([
    ...RUNNER_RULES.resultSchema,
    ...RUNNER_RULES.catalogSchema,
    ...RUNNER_RULES.prototypes,
    ...RUNNER_RULES.crash,
  ]);
  if (c.hook !== undefined)
    for (const id of [...RUNNER_RULES.hookSchema, ...RUNNER_RULES.hookScript, ...RUNNER_RULES.unscriptedAsk])
      ids.add(id);
  for (const { exp } of expectationsOf(c))
    for (const k of checkKeys(exp)) for (const id of resolveRules(exp.rules, k)) ids.add(id);
  return [...ids];
}
