// Owns matching: one call's result against its ResultExpect, the catalog against CatalogExpect, and
// the hook's recorded requests against their partial payloads. Works on normalised values (temp dir
// → <tmp>), so expectations are templated with <tmp> too. Matches kinds, codes and fields only,
// never free-text messages. Every mismatch carries expected, actual and the path it was found at.
import { isDeepStrictEqual } from "node:util";
import { LIMITS, type CatalogExpect, type ResultExpect } from "../../schemas/index.ts";
import { TMP_MARK, template } from "./workspace.ts";

export interface Miss {
  at: string;
  expected: unknown;
  actual: unknown;
  what: string;
  /** The rule(s) the mismatch breaks, when the check knows them (schema checks: schema-miss.ts). */
  rules?: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Follow a dot-separated path ("frontmatter.allowed-tools", "resources.0"); undefined when absent. */
export function getPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const seg of path.split(".")) {
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (isObj(cur) && Object.prototype.hasOwnProperty.call(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}

/** Partial match: objects compare listed keys only, arrays by length then element-wise, the rest by deep equality. */
export function matchPartial(expected: unknown, actual: unknown, at: string): Miss[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ at, expected, actual, what: "expected an array" }];
    if (actual.length !== expected.length) return [{ at, expected, actual, what: `expected ${expected.length} element(s), got ${actual.length}` }];
    return expected.flatMap((e, i) => matchPartial(e, actual[i], `${at}[${i}]`));
  }
  if (isObj(expected)) {
    if (!isObj(actual)) return [{ at, expected, actual, what: "expected an object" }];
    return Object.entries(expected).flatMap(([k, e]) =>
      Object.prototype.hasOwnProperty.call(actual, k) ? matchPartial(e, actual[k], `${at}.${k}`) : [{ at: `${at}.${k}`, expected: e, actual: undefined, what: "missing" }],
    );
  }
  return isDeepStrictEqual(expected, actual) ? [] : [{ at, expected, actual, what: "not equal" }];
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Substrings that must occur nowhere in the value serialised as JSON (keys and values alike). */
function jsonExcludes(at: string, value: unknown, banned: readonly string[] | undefined): Miss[] {
  if (!banned?.length) return [];
  let text: string;
  try {
    text = JSON.stringify(value) ?? "";
  } catch (e) {
    return [{ at, expected: "a value the kit can serialise", actual: String(e), what: "cannot be serialised as JSON" }];
  }
  return banned.filter((b) => text.includes(b)).map((b) => ({ at, expected: { json_not_contains: b }, actual: excerpt(text, b), what: `contains ${JSON.stringify(b)}` }));
}

function excerpt(text: string, hit: string): string {
  const i = text.indexOf(hit);
  return (i > 60 ? "…" : "") + text.slice(Math.max(0, i - 60), i + hit.length + 60) + (i + hit.length + 60 < text.length ? "…" : "");
}

function strings(at: string, text: unknown, label: string, wanted: readonly string[] | undefined, present: boolean): Miss[] {
  if (!wanted?.length) return [];
  if (typeof text !== "string") return [{ at: `${at}.${label}`, expected: "a string", actual: text, what: `${label} is not a string` }];
  return wanted
    .filter((w) => text.includes(w) !== present)
    .map((w) => ({ at: `${at}.${label}`, expected: present ? { contains: w } : { not_contains: w }, actual: text, what: present ? `${label} does not contain ${JSON.stringify(w)}` : `${label} contains ${JSON.stringify(w)}` }));
}

/**
 * Check one normalised result. `hookRequests` are the normalised requests the hook received during the call.
 * A wrong kind stops the other checks for that call (they would only repeat it).
 */
export function checkResult(rawExpect: ResultExpect, result: unknown, hookRequests: readonly unknown[], at: string): Miss[] {
  const exp = template(rawExpect, TMP_MARK);
  const r: Obj = isObj(result) ? result : {};
  const misses: Miss[] = [];
  const kinds: readonly unknown[] = Array.isArray(exp.kind) ? exp.kind : [exp.kind];
  if (!kinds.includes(r.kind)) {
    const detail = r.kind === "error" ? ` (code ${String(r.code)}: ${String(r.message)})` : "";
    misses.push({ at: `${at}.kind`, expected: exp.kind, actual: r.kind, what: `wrong kind${detail}` });
  } else {
    const codes: readonly unknown[] | undefined = exp.code === undefined ? undefined : Array.isArray(exp.code) ? exp.code : [exp.code];
    if (codes && r.kind === "error" && !codes.includes(r.code)) misses.push({ at: `${at}.code`, expected: exp.code, actual: r.code, what: `wrong code (message: ${String(r.message)})` });
    for (const [path, want] of Object.entries((exp.fields ?? {}) as Obj)) {
      const got = getPath(r, path);
      if (!isDeepStrictEqual(got, want)) misses.push({ at: `${at}.${path}`, expected: want, actual: got, what: got === undefined ? "missing" : "not equal" });
    }
    for (const path of exp.absent ?? []) {
      const got = getPath(r, path);
      if (got !== undefined) misses.push({ at: `${at}.${path}`, expected: "absent", actual: got, what: "should be absent" });
    }
    for (const [mode, map] of [["contains", exp.contains], ["not_contains", exp.not_contains]] as const) {
      for (const [path, want] of Object.entries((map ?? {}) as Obj)) {
        const got = getPath(r, path);
        if (!Array.isArray(got)) {
          misses.push({ at: `${at}.${path}`, expected: { [mode]: want }, actual: got, what: "expected an array" });
          continue;
        }
        const items = Array.isArray(want) ? want : [want];
        const bad = items.filter((w) => got.some((g) => isDeepStrictEqual(g, w)) !== (mode === "contains"));
        if (bad.length) misses.push({ at: `${at}.${path}`, expected: { [mode]: bad }, actual: got, what: mode === "contains" ? "missing element(s)" : "unexpected element(s)" });
      }
    }
    for (const [path, want] of Object.entries((exp.length ?? {}) as Obj)) {
      const got = getPath(r, path);
      const len = Array.isArray(got) ? got.length : undefined;
      if (len !== want) misses.push({ at: `${at}.${path}.length`, expected: want, actual: len ?? got, what: Array.isArray(got) ? "wrong length" : "expected an array" });
    }
    misses.push(...strings(at, r.output, "output", exp.output_contains, true));
    misses.push(...strings(at, r.output, "output", exp.output_not_contains, false));
    misses.push(...strings(at, r.body, "body", exp.body_contains, true));
    misses.push(...strings(at, r.body, "body", exp.body_not_contains, false));
    misses.push(...jsonExcludes(`${at}.result`, result, exp.json_not_contains));
    for (const pattern of rawExpect.output_matches ?? []) {
      const re = new RegExp(pattern.split("${tmp}").join(escapeRegex(TMP_MARK)), "m");
      if (typeof r.output !== "string" || !re.test(r.output)) misses.push({ at: `${at}.output`, expected: { matches: re.source }, actual: r.output, what: "output does not match" });
    }
  }
  if (exp.hook_requests !== undefined) {
    if (hookRequests.length !== exp.hook_requests.length) {
      misses.push({ at: `${at}.hook_requests`, expected: exp.hook_requests, actual: hookRequests, what: `the hook was asked ${hookRequests.length} time(s) during this call, expected ${exp.hook_requests.length}` });
    } else {
      exp.hook_requests.forEach((e, i) => misses.push(...matchPartial(e, hookRequests[i], `${at}.hook_requests[${i}]`)));
    }
  }
  return misses;
}

/** §1, R22: the tool description's lines naming an entry, each within the token budget (ceil(bytes / bytes_per_token_estimate), newline counted). */
function overBudget(catalog: unknown, names: unknown[], max: number): Miss[] {
  const text = isObj(catalog) && typeof catalog.tool_description === "string" ? catalog.tool_description : "";
  const quoted = names.filter((n): n is string => typeof n === "string").map((n) => `"${n}"`);
  return text
    .split("\n")
    .filter((l) => quoted.some((q) => l.includes(q)))
    .map((l) => ({ line: l, tokens: Math.ceil((Buffer.byteLength(l, "utf8") + 1) / LIMITS.bytes_per_token_estimate) }))
    .filter((x) => x.tokens > max)
    .map((x) => ({ at: "catalog.tool_description", expected: { line_max_tokens: max }, actual: { tokens: x.tokens, line: x.line.length > 200 ? `${x.line.slice(0, 200)}…` : x.line }, what: "a catalog line over the token budget" }));
}

export function checkCatalog(rawExpect: CatalogExpect, catalog: unknown): Miss[] {
  const exp = template(rawExpect, TMP_MARK);
  const entries = isObj(catalog) && Array.isArray(catalog.entries) ? (catalog.entries as unknown[]) : [];
  const names = entries.map((e) => (isObj(e) ? e.name : undefined));
  const misses: Miss[] = [];
  if (exp.names && !isDeepStrictEqual(names, exp.names)) misses.push({ at: "catalog.names", expected: exp.names, actual: names, what: "wrong entry names (in order)" });
  const missing = (exp.contains_names ?? []).filter((n) => !names.includes(n));
  if (missing.length) misses.push({ at: "catalog.names", expected: { contains: missing }, actual: names, what: "missing entries" });
  const extra = (exp.absent_names ?? []).filter((n) => names.includes(n));
  if (extra.length) misses.push({ at: "catalog.names", expected: { absent: extra }, actual: names, what: "entries that should be absent" });
  const warnings = isObj(catalog) && Array.isArray(catalog.warnings) ? (catalog.warnings as unknown[]).map(String) : [];
  for (const w of exp.warnings_exclude ?? []) {
    const hits = warnings.filter((x) => x.includes(w));
    if (hits.length) misses.push({ at: "catalog.warnings", expected: { none_containing: w }, actual: hits, what: "a warning about something that must be skipped silently" });
  }
  for (const w of exp.warnings_include ?? []) {
    if (!warnings.some((x) => x.includes(w))) misses.push({ at: "catalog.warnings", expected: { some_containing: w }, actual: warnings, what: "no warning about it" });
  }
  if (exp.line_max_tokens !== undefined) misses.push(...overBudget(catalog, names, exp.line_max_tokens));
  misses.push(...jsonExcludes("catalog", catalog, exp.json_not_contains));
  misses.push(...strings("catalog", isObj(catalog) ? catalog.tool_description : undefined, "tool_description", exp.tool_description_contains, true));
  for (const [name, want] of Object.entries(exp.entries ?? {})) {
    const entry = entries.find((e) => isObj(e) && e.name === name);
    if (entry === undefined) misses.push({ at: `catalog.entries[${name}]`, expected: want, actual: undefined, what: "no entry with that name" });
    else misses.push(...matchPartial(want, entry, `catalog.entries[${name}]`));
  }
  return misses;
}
