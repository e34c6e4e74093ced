// Owns matching: one call's result against its ResultExpect, the catalog against CatalogExpect, and
// the hook's recorded requests against their partial payloads. Works on normalised values (temp dir
// → <tmp>), so expectations are templated with <tmp> too. Matches kinds, codes and fields only,
// never free-text messages. Every mismatch carries expected, actual, the path it was found at, the
// expectation key that produced it (kind, fields.body, output_matches.1, names.order) and the rules that key
// verifies (the case's rule map, rules.ts).
import { isDeepStrictEqual } from "node:util";
import { LIMITS, type CatalogExpect, type ResultExpect, type RuleMap } from "../../schemas/index.ts";
import { resolveRules } from "./rules.ts";
import { TMP_MARK, template } from "./workspace.ts";

export interface Miss {
  at: string;
  expected: unknown;
  actual: unknown;
  what: string;
  /** The expectation key that produced it (kind, code, fields.body, output_matches.1, names.order, max_ms, …). */
  key?: string;
  /** The rules that key verifies (schemas/rules.json ids); set from the expectation's rule map. */
  rules?: string[];
}

/** Attribute each miss to its rules through the expectation's rule map (a miss that already names rules keeps them). */
export function attribute(misses: Miss[], map: RuleMap | undefined): Miss[] {
  return misses.map((m) => (m.rules ? m : { ...m, rules: resolveRules(map, m.key ?? "") }));
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
    if (actual.length !== expected.length)
      return [{ at, expected, actual, what: `expected ${expected.length} element(s), got ${actual.length}` }];
    return expected.flatMap((e, i) => matchPartial(e, actual[i], `${at}[${i}]`));
  }
  if (isObj(expected)) {
    if (!isObj(actual)) return [{ at, expected, actual, what: "expected an object" }];
    return Object.entries(expected).flatMap(([k, e]) =>
      Object.prototype.hasOwnProperty.call(actual, k)
        ? matchPartial(e, actual[k], `${at}.${k}`)
        : [{ at: `${at}.${k}`, expected: e, actual: undefined, what: "missing" }],
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
    return [
      {
        at,
        key: "json_not_contains",
        expected: "a value the kit can serialise",
        actual: String(e),
        what: "cannot be serialised as JSON",
      },
    ];
  }
  return banned.flatMap((b, i) =>
    text.includes(b)
      ? [
          {
            at,
            key: `json_not_contains.${i}`,
            expected: { json_not_contains: b },
            actual: excerpt(text, b),
            what: `contains ${JSON.stringify(b)}`,
          },
        ]
      : [],
  );
}

function excerpt(text: string, hit: string): string {
  const i = text.indexOf(hit);
  return (
    (i > 60 ? "…" : "") +
    text.slice(Math.max(0, i - 60), i + hit.length + 60) +
    (i + hit.length + 60 < text.length ? "…" : "")
  );
}

function strings(
  at: string,
  text: unknown,
  label: string,
  wanted: readonly string[] | undefined,
  present: boolean,
): Miss[] {
  if (!wanted?.length) return [];
  const key = `${label}_${present ? "contains" : "not_contains"}`;
  if (typeof text !== "string")
    return wanted.map((_, i) => ({
      at: `${at}.${label}`,
      key: `${key}.${i}`,
      expected: "a string",
      actual: text,
      what: `${label} is not a string`,
    }));
  return wanted.flatMap((w, i) =>
    text.includes(w) === present
      ? []
      : [
          {
            at: `${at}.${label}`,
            key: `${key}.${i}`,
            expected: present ? { contains: w } : { not_contains: w },
            actual: text,
            what: present ? `${label} does not contain ${JSON.stringify(w)}` : `${label} contains ${JSON.stringify(w)}`,
          },
        ],
  );
}

/**
 * Check one normalised result. `hookRequests` are the normalised requests the hook received during the call.
 * A wrong kind stops the other checks for that call (they would only repeat it).
 */
export function checkResult(
  rawExpect: ResultExpect,
  result: unknown,
  hookRequests: readonly unknown[],
  at: string,
): Miss[] {
  return attribute(resultMisses(rawExpect, result, hookRequests, at), rawExpect.rules);
}

function resultMisses(rawExpect: ResultExpect, result: unknown, hookRequests: readonly unknown[], at: string): Miss[] {
  const exp = template(rawExpect, TMP_MARK);
  const r: Obj = isObj(result) ? result : {};
  const misses: Miss[] = [];
  const kinds: readonly unknown[] = Array.isArray(exp.kind) ? exp.kind : [exp.kind];
  if (!kinds.includes(r.kind)) {
    const detail = r.kind === "error" ? ` (code ${String(r.code)}: ${String(r.message)})` : "";
    misses.push({ at: `${at}.kind`, key: "kind", expected: exp.kind, actual: r.kind, what: `wrong kind${detail}` });
  } else {
    const codes: readonly unknown[] | undefined =
      exp.code === undefined ? undefined : Array.isArray(exp.code) ? exp.code : [exp.code];
    if (codes && r.kind === "error" && !codes.includes(r.code))
      misses.push({
        at: `${at}.code`,
        key: "code",
        expected: exp.code,
        actual: r.code,
        what: `wrong code (message: ${String(r.message)})`,
      });
    const cls = exp.classified;
    if (cls && (r.kind !== cls.kind || (cls.code !== undefined && r.code !== cls.code))) {
      const want = cls.code === undefined ? cls.kind : `${cls.kind} ${cls.code}`;
      const got = r.kind === "error" ? `error ${String(r.code)}` : r.kind;
      misses.push({
        at: `${at}.kind`,
        key: "classified",
        expected: want,
        actual: got,
        what: "classified differently (the property holds; the exact classification is its own rule)",
      });
    }
    for (const [path, want] of Object.entries((exp.fields ?? {}) as Obj)) {
      const got = getPath(r, path);
      if (!isDeepStrictEqual(got, want))
        misses.push({
          at: `${at}.${path}`,
          key: `fields.${path}`,
          expected: want,
          actual: got,
          what: got === undefined ? "missing" : "not equal",
        });
    }
    if (exp.bytes_of_body && !(typeof r.body === "string" && r.bytes === Buffer.byteLength(r.body, "utf8"))) {
      misses.push({
        at: `${at}.bytes`,
        key: "bytes_of_body",
        expected: typeof r.body === "string" ? Buffer.byteLength(r.body, "utf8") : "the body's UTF-8 length",
        actual: r.bytes,
        what: "bytes is not the UTF-8 length of the returned body",
      });
    }
    for (const path of exp.absent ?? []) {
      const got = getPath(r, path);
      if (got !== undefined)
        misses.push({
          at: `${at}.${path}`,
          key: `absent.${path}`,
          expected: "absent",
          actual: got,
          what: "should be absent",
        });
    }
    for (const [mode, map] of [
      ["contains", exp.contains],
      ["not_contains", exp.not_contains],
    ] as const) {
      for (const [path, want] of Object.entries((map ?? {}) as Obj)) {
        const got = getPath(r, path);
        if (!Array.isArray(got)) {
          misses.push({
            at: `${at}.${path}`,
            key: `${mode}.${path}`,
            expected: { [mode]: want },
            actual: got,
            what: "expected an array",
          });
          continue;
        }
        const items = Array.isArray(want) ? want : [want];
        const bad = items.filter((w) => got.some((g) => isDeepStrictEqual(g, w)) !== (mode === "contains"));
        if (bad.length)
          misses.push({
            at: `${at}.${path}`,
            key: `${mode}.${path}`,
            expected: { [mode]: bad },
            actual: got,
            what: mode === "contains" ? "missing element(s)" : "unexpected element(s)",
          });
      }
    }
    for (const [path, want] of Object.entries((exp.length ?? {}) as Obj)) {
      const got = getPath(r, path);
      const len = Array.isArray(got) ? got.length : undefined;
      if (len !== want)
        misses.push({
          at: `${at}.${path}.length`,
          key: `length.${path}`,
          expected: want,
          actual: len ?? got,
          what: Array.isArray(got) ? "wrong length" : "expected an array",
        });
    }
    misses.push(...strings(at, r.output, "output", exp.output_contains, true));
    misses.push(...strings(at, r.output, "output", exp.output_not_contains, false));
    misses.push(...strings(at, r.body, "body", exp.body_contains, true));
    misses.push(...strings(at, r.body, "body", exp.body_not_contains, false));
    misses.push(...jsonExcludes(`${at}.result`, result, exp.json_not_contains));
    for (const [i, pattern] of (rawExpect.output_matches ?? []).entries()) {
      const re = new RegExp(pattern.split("${tmp}").join(escapeRegex(TMP_MARK)), "m");
      if (typeof r.output !== "string" || !re.test(r.output))
        misses.push({
          at: `${at}.output`,
          key: `output_matches.${i}`,
          expected: { matches: re.source },
          actual: r.output,
          what: "output does not match",
        });
    }
  }
  if (exp.hook_requests !== undefined) {
    if (hookRequests.length !== exp.hook_requests.length) {
      misses.push({
        at: `${at}.hook_requests`,
        key: "hook_requests.count",
        expected: exp.hook_requests,
        actual: hookRequests,
        what: `the hook was asked ${hookRequests.length} time(s) during this call, expected ${exp.hook_requests.length}`,
      });
    } else {
      exp.hook_requests.forEach((e, i) =>
        misses.push(
          ...matchPartial(e, hookRequests[i], `${at}.hook_requests[${i}]`).map((m) => ({ ...m, key: "hook_requests" })),
        ),
      );
    }
  }
  return misses;
}

const NAME_CHAR = /[a-z0-9-]/;

/** Where `name` first occurs in `text` as a whole name (not inside a longer kebab-case name), or -1. */
function wholeName(text: string, name: string): number {
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    if (!NAME_CHAR.test(text[i - 1] ?? "") && !NAME_CHAR.test(text[i + name.length] ?? "")) return i;
  }
  return -1;
}

const tokens = (s: string): number => Math.ceil(Buffer.byteLength(s, "utf8") / LIMITS.bytes_per_token_estimate);

/** The last entry's text ends with its line and the non-blank lines indented deeper than it (a multi-line entry). */
function lastEntryEnd(text: string, start: number): number {
  const indent = (i: number) => /^[ \t]*/.exec(text.slice(i))![0].length;
  const own = indent(start);
  let end = text.indexOf("\n", start);
  while (end >= 0 && end + 1 < text.length && text[end + 1] !== "\n" && indent(end + 1) > own)
    end = text.indexOf("\n", end + 1);
  return end < 0 ? text.length : end + 1;
}

/**
 * §1, R22: each entry's cost in the catalog the model sees, whatever its format. An entry's text runs from the start of
 * the line where its name first appears to the start of the line where the next entry's does (the last one's: its line
 * and the lines indented deeper below it); an entry the tool description does not show is measured on its name and
 * description. The reference's one-line format measures as before: the line with its newline.
 */
function overBudget(catalog: unknown, entries: unknown[], max: number): Miss[] {
  const text = isObj(catalog) && typeof catalog.tool_description === "string" ? catalog.tool_description : "";
  const lineStart = (i: number) => text.lastIndexOf("\n", i - 1) + 1;
  const shown: Array<{ name: string; start: number }> = [];
  const misses: Miss[] = [];
  const over = (name: string, span: string, how: string): void => {
    const n = tokens(span);
    if (n > max)
      misses.push({
        at: "catalog.tool_description",
        key: "entry_max_tokens",
        expected: { entry_max_tokens: max },
        actual: { name, tokens: n, measured: how, text: span.length > 200 ? `${span.slice(0, 200)}…` : span },
        what: "a catalog entry over the token budget",
      });
  };
  for (const e of entries) {
    if (!isObj(e) || typeof e.name !== "string") continue;
    const at = wholeName(text, e.name);
    if (at >= 0) shown.push({ name: e.name, start: lineStart(at) });
    else
      over(
        e.name,
        `${e.name} ${typeof e.description === "string" ? e.description : ""}`,
        "name and description (not shown in the tool description)",
      );
  }
  shown.sort((a, b) => a.start - b.start);
  shown.forEach((s, k) => {
    const next = shown[k + 1];
    const end = next ? next.start : lastEntryEnd(text, s.start);
    if (next && next.start === s.start) return; // two names on one line: measured once, with the next
    over(s.name, text.slice(s.start, end), "tool description");
  });
  return misses;
}

export function checkCatalog(rawExpect: CatalogExpect, catalog: unknown): Miss[] {
  return attribute(catalogMisses(rawExpect, catalog), rawExpect.rules);
}

function catalogMisses(rawExpect: CatalogExpect, catalog: unknown): Miss[] {
  const exp = template(rawExpect, TMP_MARK);
  const entries = isObj(catalog) && Array.isArray(catalog.entries) ? (catalog.entries as unknown[]) : [];
  const names = entries.map((e) => (isObj(e) ? e.name : undefined));
  const misses: Miss[] = [];
  if (exp.names && !isDeepStrictEqual(names, exp.names)) {
    // Which entries, then their order: a catalog with the right entries in another order breaks only §5.2's sort.
    const sameSet = names.length === exp.names.length && isDeepStrictEqual([...names].sort(), [...exp.names].sort());
    misses.push({
      at: "catalog.names",
      key: sameSet ? "names.order" : "names",
      expected: exp.names,
      actual: names,
      what: sameSet ? "entries in the wrong order" : "wrong entry names",
    });
  }
  const missing = (exp.contains_names ?? []).filter((n) => !names.includes(n));
  if (missing.length)
    misses.push({
      at: "catalog.names",
      key: "contains_names",
      expected: { contains: missing },
      actual: names,
      what: "missing entries",
    });
  // One finding per name, so a case can file each omission under the rule that makes it true (absent_names.<name>).
  for (const n of (exp.absent_names ?? []).filter((x) => names.includes(x)))
    misses.push({
      at: "catalog.names",
      key: `absent_names.${n}`,
      expected: { absent: [n] },
      actual: names,
      what: "an entry that should be absent",
    });
  const warnings = isObj(catalog) && Array.isArray(catalog.warnings) ? (catalog.warnings as unknown[]).map(String) : [];
  for (const [i, w] of (exp.warnings_exclude ?? []).entries()) {
    const hits = warnings.filter((x) => x.includes(w));
    if (hits.length)
      misses.push({
        at: "catalog.warnings",
        key: `warnings_exclude.${i}`,
        expected: { none_containing: w },
        actual: hits,
        what: "a warning about something that must be skipped silently",
      });
  }
  for (const [i, w] of (exp.warnings_include ?? []).entries()) {
    if (!warnings.some((x) => x.includes(w)))
      misses.push({
        at: "catalog.warnings",
        key: `warnings_include.${i}`,
        expected: { some_containing: w },
        actual: warnings,
        what: "no warning about it",
      });
  }
  if (exp.entry_max_tokens !== undefined) misses.push(...overBudget(catalog, entries, exp.entry_max_tokens));
  misses.push(...jsonExcludes("catalog", catalog, exp.json_not_contains));
  misses.push(
    ...strings(
      "catalog",
      isObj(catalog) ? catalog.tool_description : undefined,
      "tool_description",
      exp.tool_description_contains,
      true,
    ),
  );
  misses.push(
    ...strings(
      "catalog",
      isObj(catalog) ? catalog.tool_description : undefined,
      "tool_description",
      exp.tool_description_not_contains,
      false,
    ),
  );
  for (const [name, want] of Object.entries(exp.entries ?? {})) {
    const entry = entries.find((e) => isObj(e) && e.name === name);
    if (entry === undefined)
      misses.push({
        at: `catalog.entries[${name}]`,
        key: `entries.${name}`,
        expected: want,
        actual: undefined,
        what: "no entry with that name",
      });
    else
      misses.push(
        ...matchPartial(want, entry, `catalog.entries[${name}]`).map((m) => ({ ...m, key: `entries.${name}` })),
      );
  }
  return misses;
}
