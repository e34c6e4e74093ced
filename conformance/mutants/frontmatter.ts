// Owns the frontmatter suite's mutants: for every case of conformance/cases-frontmatter/ (F01…) a wrong
// implementation under which that case must fail. Each is the reference behind a wrapper (wrap.ts) that
// makes one real-world YAML mistake: trusting a library's defaults (tags resolved to Sets and Dates, lossy
// numbers, no key or depth bound, its own alias counting), JavaScript's trim(), dropping skills a lenient
// harness loads, a catalog carrying whole descriptions, JSON quoting that leaves DEL raw, syntax checked
// before the value bound (or before any rule), the rules before syntax, a blank required field worded as a type error,
// directives refused before (or after) everything, nesting bounded before a tag is met.
// conformance/MUTANTS.md ("Frontmatter suite") documents them; conformance/test/frontmatter-suite.test.ts runs them.
import YAML from "yaml";
import { LIMITS, type CatalogEntry, type OkResult, type SkillResult } from "../../schemas/index.ts";
import { message } from "../../schemas/messages.ts";
import { errorResult, isObj, rewriteCatalogLines, nameOf, okFromAuthored, readAuthored, toMutants, type Mutant, type MutantContext, type MutantRow, type Mutation, type Obj } from "./wrap.ts";

const VALUE_BOUND = message("yaml.too_many_values", { max: LIMITS.yaml_max_nodes });
const TOO_DEEP = message("yaml.too_deep", { max: LIMITS.yaml_max_depth });

/**
 * Where the reference refused a skill's frontmatter (and, with `okToo`, where it loaded it), a careless
 * implementation parses it with the yaml package's options and answers ok with what the package read.
 */
function reparsedBy(options: YAML.ParseOptions & YAML.DocumentOptions & YAML.SchemaOptions & YAML.ToJSOptions, okToo = false): Mutation {
  return {
    result: (r, p, _o, ctx) => {
      const name = nameOf(p);
      if (!(((r.kind === "error" && r.code === "INVALID_FRONTMATTER") || (okToo && r.kind === "ok")) && name)) return r;
      const a = readAuthored(ctx.config, name);
      if (!a) return r;
      try {
        const fm: unknown = YAML.parse(a.yaml, { logLevel: "error", ...options });
        return isObj(fm) && fm["name"] === name ? okFromAuthored(a, name, fm) : r;
      } catch {
        return r;
      }
    },
  };
}

/** JavaScript's trim() on every string value: strips U+00A0, U+3000, U+2000–U+200A, U+205F, VT… which YAML keeps. */
function jsTrimmed(v: unknown): unknown {
  if (typeof v === "string") return v.trim();
  if (Array.isArray(v)) return v.map(jsTrimmed);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.trim(), jsTrimmed(x)]));
  return v;
}

const INFORMATIONAL = ["license", "version", "argument-hint"];
const OPTIONAL = ["license", "compatibility", "metadata", "allowed-tools", "version", "argument-hint", "user-invocable", "arguments"];

/** A skill refused for what its authored frontmatter holds, in the catalog and on activation. */
function refusedWhen(bad: (fm: Obj) => boolean): Mutation {
  const authoredBad = (ctx: MutantContext, name: string): boolean => {
    const a = readAuthored(ctx.config, name);
    return a?.frontmatter.ok === true && isObj(a.frontmatter.value) && bad(a.frontmatter.value);
  };
  return {
    catalog: (c, ctx) => ({ ...c, entries: c.entries.filter((e: CatalogEntry) => !authoredBad(ctx, e.name)) }),
    result: (r, p, _o, ctx) => {
      const name = nameOf(p);
      return r.kind === "ok" && name && authoredBad(ctx, name) ? errorResult("INVALID_FRONTMATTER", name, `skill "${name}" has invalid frontmatter`) : r;
    },
  };
}

/** The yaml package's defaults: tags resolved, no key or depth bound (F01, F04). */
const libraryDefaults = reparsedBy({});

/**
 * YAML 1.1, as many parsers still read it: yes/no/on/off/y booleans, dates, 010 octal, 1_000 a number, << a merge key;
 * every skill's frontmatter is read that way, refused ones included (then numbers past 2^53, .inf and non-string keys load).
 */
const yaml11 = reparsedBy({ version: "1.1", uniqueKeys: false }, true);

/** The offset of value number `max` + 1 in document order (R16's count: collections, keys, scalars; aliases not expanded), if any. */
function offsetPastBound(node: unknown, max: number, seen = { n: 0 }): number | undefined {
  const at = (n: unknown): number | undefined => (YAML.isNode(n) ? n.range?.[0] : undefined);
  if (++seen.n > max) return at(node) ?? -1;
  if (YAML.isMap(node) || YAML.isSeq(node)) {
    for (const item of node.items as unknown[]) {
      const parts = YAML.isPair(item) ? [item.key, item.value] : [item];
      for (const part of parts) {
        const found = offsetPastBound(part, max, seen);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

/** The result `r` re-worded as refused for `reason` at SKILL.md line `line`. */
function refusedAt(r: SkillResult, reason: string, line: number): SkillResult {
  const full = `${reason} (line ${line})`;
  return { ...r, reason: full, line, output: r.output.replace(/^Reason: .*$/m, `Reason: ${full}`) } as SkillResult;
}

/**
 * The yaml package's first error in `yaml`, as SKILL.md line and message (the YAML starts on line 2). Without
 * uniqueKeys a duplicate key is not its business: the first error is then a syntax error.
 */
function firstParseError(yaml: string, uniqueKeys = false): { line: number; message: string } | undefined {
  const err = YAML.parseDocument(yaml, { prettyErrors: true, uniqueKeys }).errors[0];
  return err?.linePos ? { line: err.linePos[0].line + 1, message: err.message.split("\n")[0] ?? "" } : undefined;
}

type LineRefusal = Extract<SkillResult, { kind: "error" }> & { line: number };

/**
 * The shape of every ordering mutant below: an INVALID_FRONTMATTER refusal (with its line) whose reason `applies`
 * accepts is handed to `mend` with the authored YAML and its lines (lines[i] is SKILL.md line i + 2), which answers
 * what the wrong reader would, or undefined to leave the result as it is.
 */
function onRefusal(applies: (reason: string) => boolean, mend: (r: LineRefusal, yaml: string, lines: string[]) => SkillResult | undefined): Mutation {
  return {
    result: (r, p, _o, ctx) => {
      const name = nameOf(p);
      if (!(r.kind === "error" && r.code === "INVALID_FRONTMATTER" && r.line !== undefined && name && applies(String(r.reason)))) return r;
      const a = readAuthored(ctx.config, name);
      return (a && mend(r as LineRefusal, a.yaml, a.yaml.split("\n"))) || r;
    },
  };
}
const always = (): boolean => true;

/**
 * A reader that counts the values of the parsed tree before it looks at the tree's syntax errors: the value
 * bound wins over a syntax error on its own line or before it (R25 gives those to the syntax error).
 */
const boundCountedFirst = onRefusal(
  (reason) => !reason.startsWith(VALUE_BOUND),
  (r, yaml) => {
    const lc = new YAML.LineCounter();
    const offset = offsetPastBound(YAML.parseDocument(yaml, { lineCounter: lc }).contents, LIMITS.yaml_max_nodes);
    return offset === undefined || offset < 0 ? undefined : refusedAt(r, VALUE_BOUND, lc.linePos(offset).line + 1); // + the opening --- line
  },
);

/**
 * A reader that checks the whole text's syntax before the refusals `applies` accepts (what parsing with a library
 * and then checking the value does): a syntax error anywhere wins over such a refusal met lines before it. Before
 * the value bound only, that breaks R25; before every rule (a duplicate key, a long or non-string key, a tag, an
 * unsafe number, an unknown alias, the depth bound), R26.
 */
const syntaxFirst = (applies: (reason: string) => boolean): Mutation =>
  onRefusal(applies, (r, yaml) => {
    const err = firstParseError(yaml);
    return err && !String(r.reason).startsWith(err.message) ? refusedAt(r, err.message, err.line) : undefined;
  });

/** The first duplicate key or collection past yaml_max_depth on the tree the parser recovers, in document order. */
function firstContentFault(node: unknown, lc: YAML.LineCounter, depth = 0): { line: number; message: string } | undefined {
  if (!(YAML.isMap(node) || YAML.isSeq(node))) return undefined;
  const line = (n: unknown): number => lc.linePos((YAML.isNode(n) ? n.range?.[0] : undefined) ?? 0).line + 1;
  if (depth + 1 > LIMITS.yaml_max_depth) return { line: line(node), message: TOO_DEEP };
  const seen = new Set<string>();
  for (const item of node.items as unknown[]) {
    if (YAML.isPair(item)) {
      const key = YAML.isScalar(item.key) ? String(item.key.value) : undefined;
      if (key !== undefined && seen.has(key)) return { line: line(item.key), message: `duplicate key '${key}'` };
      if (key !== undefined) seen.add(key);
    }
    for (const part of YAML.isPair(item) ? [item.key, item.value] : [item]) {
      const found = firstContentFault(part, lc, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * A reader that applies the contract's rules to the tree the parser recovers before it looks at the tree's
 * syntax errors: a duplicate key or the depth bound wins over a syntax error on its own line or before it
 * (R26 gives those to the syntax error).
 */
const rulesBeforeSyntax = onRefusal(always, (r, yaml) => {
  if (!firstParseError(yaml)) return undefined;
  const lc = new YAML.LineCounter();
  const fault = firstContentFault(YAML.parseDocument(yaml, { lineCounter: lc, uniqueKeys: false }).contents, lc);
  return fault ? refusedAt(r, fault.message, fault.line) : undefined;
});

/** The SKILL.md line (1-based) of the first of `lines` that `test` accepts, if any (the YAML starts on line 2). */
function firstLineWhere(lines: readonly string[], test: (line: string) => boolean): number | undefined {
  const i = lines.findIndex(test);
  return i < 0 ? undefined : i + 2;
}

/**
 * A reader that pre-scans the text for directives and refuses one before reading anything (yaml.rs did so until
 * R26 was read closely): a directive behind '...' wins over the first document's duplicate key, tag, depth and a
 * second document's earlier marker.
 */
const directivesFirst = onRefusal(always, (r, _yaml, lines) => {
  const line = firstLineWhere(lines, (l) => /^%(YAML|TAG)\b/.test(l));
  return line === undefined ? undefined : refusedAt(r, message("yaml.directive"), line);
});

/**
 * A reader that checks the document's directives only after its content (a check on the parsed document's
 * directive list): the duplicate key inside a document a leading %YAML opens wins over the directive (R26).
 */
const directivesLast = onRefusal(
  (reason) => reason.startsWith(message("yaml.directive")),
  (r, yaml) => {
    const err = firstParseError(yaml, true);
    return err ? refusedAt(r, err.message, err.line) : undefined;
  },
);

/**
 * A reader whose parser bounds nesting on the whole text before it builds values (a parser's own nesting limit,
 * as yaml-rust's 255 flow levels): a line nesting brackets past the bound answers depth, even where a tag before
 * the deep part is met first (R26).
 */
const depthBeforeTag = onRefusal(
  (reason) => reason.startsWith("a YAML tag"),
  (r, _yaml, lines) => {
    // Brackets open inside the top-level mapping (level 1): more than max − 1 of them is past the bound.
    let open = 0;
    const line = firstLineWhere(lines, (l) => [...l].some((c) => (open += c === "[" || c === "{" ? 1 : c === "]" || c === "}" ? -1 : 0) > LIMITS.yaml_max_depth - 1));
    return line === undefined ? undefined : refusedAt(r, TOO_DEEP, line);
  },
);

const KEY_COLLECTION = message("yaml.key_not_string", { got: "a list or mapping" });
const isTooDeep = (reason: string): boolean => reason.startsWith(TOO_DEEP);

/**
 * A reader that checks what a collection is for before its depth (a list or mapping in key position is refused as
 * a key first, as an event reader that looks at each event's role before the stack might): a list key that is
 * itself the 65th level is refused as a non-string key, not for depth (R26).
 */
const keyKindBeforeDepth = onRefusal(isTooDeep, (r, _yaml, lines) =>
  // A flow collection right after a flow mapping's opening brace, or after an explicit key's '?': a collection key.
  /\{\s*[[{]|\?\s+[-[{]/.test(lines[r.line - 2] ?? "") ? refusedAt(r, KEY_COLLECTION, r.line) : undefined,
);

/**
 * A reader that knows an implicit key when it opens (reading ahead to its ':') and refuses a list or mapping there
 * before the depth inside it: 70 nested lists written as a key are refused as a non-string key (R26 gives depth).
 */
const implicitKeyKnownFirst = onRefusal(isTooDeep, (r, _yaml, lines) =>
  /^\s*[[{].*[\]}]:\s/.test(lines[r.line - 2] ?? "") ? refusedAt(r, KEY_COLLECTION, r.line) : undefined,
);

/**
 * A reader that, at the depth refusal, reads the text before the too-deep collection alone with a library and
 * takes its errors as the document's: the brackets still open there are reported unclosed at their last item,
 * on an earlier line, and that "syntax error" wins over depth (R26: the cut's own errors never count).
 */
const cutLeavesBracketsOpen = onRefusal(isTooDeep, (r, _yaml, lines) => {
  const before = [...lines.slice(0, r.line - 2), /^\s*/.exec(lines[r.line - 2] ?? "")?.[0] ?? ""].join("\n");
  const err = firstParseError(before);
  return err && err.line < r.line ? refusedAt(r, err.message, err.line) : undefined;
});

/**
 * A reader that, when reading the argument-hint line as text does not save the frontmatter, reports what the second
 * reading met instead of the first error (R19: the first error stands).
 */
const secondReadingStands = onRefusal(always, (r, _yaml, lines) => {
  const hint = lines[r.line - 2];
  if (!hint?.startsWith("argument-hint: ")) return undefined;
  const again = [...lines];
  again[r.line - 2] = `argument-hint: ${JSON.stringify(hint.slice("argument-hint: ".length).trim())}`;
  const err = firstParseError(again.join("\n"), true);
  return err ? refusedAt(r, err.message, err.line) : undefined;
});

/**
 * A reader that locates an empty key where its empty scalar is read, the next token (yaml-rust's own place for it):
 * `? ` alone on a line, then `: x`, is reported on the ':' line instead of the '?' one (R26).
 */
const emptyKeyAtItsValue = onRefusal(
  (reason) => reason.includes("an empty (null) key"),
  (r, _yaml, lines) => {
    const at = lines.slice(r.line - 1).findIndex((l) => l.trim() !== "");
    return /^\s*\?\s*$/.test(lines[r.line - 2] ?? "") && at >= 0 ? refusedAt(r, message("yaml.key_not_string", { got: "an empty (null) key" }), r.line + 1 + at) : undefined;
  },
);

/** A blank name or description (null) reported as a value of the wrong type, not as missing (R20). */
const blankRequiredAsTypeError: Mutation = {
  result: (r) => {
    if (r.kind !== "error") return r;
    const m = /^missing required field '(name|description)'$/.exec(String(r.reason));
    if (!m || r.line === 2) return r; // absent keys are at line 2: only a blank one has a line of its own here
    const reason = `field '${m[1]}' must be a string; got null`;
    return { ...r, reason, output: r.output.replace(/^Reason: .*$/m, `Reason: ${reason}`) } as SkillResult;
  },
};

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\s*\n\s*/g, " ");

const mutations: readonly MutantRow[] = [
  {
    kills: "F01", rule: "yaml.no-tags", id: "tags-resolved",
    description: "Frontmatter is read with the yaml package's defaults, which resolve !!set, !!omap, !!binary, !!timestamp into a Set, pairs, a Buffer and a Date: tagged values load, converted.",
    mutation: libraryDefaults,
  },
  {
    kills: "F02", rule: "yaml.core-schema", id: "lossy-scalars",
    description: "Frontmatter read as YAML 1.1: yes/no/on/off become booleans, 010 octal 8, 1_000 the number 1000, << a merge key; and, where the contract refuses, 12345678901234567890 becomes 12345678901234567000, .inf Infinity, the key 1.0 the string \"1\".",
    mutation: yaml11,
  },
  {
    kills: "F03", rule: "yaml.keys", id: "keys-unbounded",
    description: "No key length bound and no duplicate check (the last value wins): a 1,100-character key is accepted and renders as YAML no parser reads back.",
    mutation: reparsedBy({ uniqueKeys: false }),
  },
  {
    kills: "F04", rule: "yaml.depth", id: "no-depth-bound",
    description: "No nesting bound: 65 levels load (and a deep enough file overflows the stack). The same wrong implementation as F01's: the yaml package's defaults.",
    mutation: libraryDefaults,
  },
  {
    kills: "F05", rule: "yaml.aliases", id: "library-alias-counting",
    description: "Aliases counted as the yaml package's maxAliasCount counts them, not as R16 does: 100 uses of an anchor are already refused.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (r.kind !== "ok" || !name) return r;
        const a = readAuthored(ctx.config, name);
        if (!a) return r;
        try {
          YAML.parse(a.yaml, { maxAliasCount: 100, logLevel: "error" });
          return r;
        } catch (e) {
          // Only the library's alias refusal: any other error of its own is not this mutant's mistake.
          if (!/alias/i.test((e as Error).message)) return r;
          return errorResult("INVALID_FRONTMATTER", name, `skill "${name}": excessive alias count`);
        }
      },
    },
  },
  {
    kills: "F06", rule: "yaml.characters", id: "js-trim",
    description: "Values are trimmed with JavaScript's trim(), which also strips U+00A0, U+3000, U+2003, U+205F: a value changes silently.",
    mutation: { result: (r) => (r.kind === "ok" ? { ...r, frontmatter: jsTrimmed(r.frontmatter) as OkResult["frontmatter"] } : r) },
  },
  {
    kills: "F07", rule: "frontmatter.lenient-informational", id: "strict-informational-fields",
    description: "license, version and argument-hint must be strings: argument-hint: [apk-file-or-directory], as Claude Code's docs write it, drops the skill.",
    mutation: refusedWhen((fm) => INFORMATIONAL.some((k) => fm[k] !== undefined && fm[k] !== null && typeof fm[k] !== "string")),
  },
  {
    kills: "F07", rule: "frontmatter.lenient-informational", id: "second-reading-stands",
    description: "When the argument-hint line read as text does not save the frontmatter, the second reading's error is reported instead of the first (R19: the first error stands).",
    mutation: secondReadingStands,
  },
  {
    kills: "F08", rule: "frontmatter.blank-optional", id: "blank-fields-refused",
    description: "A blank optional field (license:, read as null) is a type error that drops the skill.",
    mutation: refusedWhen((fm) => OPTIONAL.some((k) => k in fm && fm[k] === null)),
  },
  {
    kills: "F09", rule: "catalog.token-budget", id: "full-catalog-descriptions",
    description: "Each catalog line carries the whole description (up to 1,024 characters, more once escaped): over the §1 budget of 100 tokens.",
    mutation: {
      catalog: (c) => rewriteCatalogLines(c, (e, attrs) => `<skill name="${e.name}"${attrs}>${escapeXml(e.description)}</skill>`),
    },
  },
  {
    kills: "F09", rule: "catalog.token-budget", id: "full-descriptions-in-a-list",
    description: "The catalog is a Markdown list, each skill's name on one line and its whole description on the next: over the §1 budget in a format the kit once measured only line by line, on lines in the reference's <skill name=\"…\"> form.",
    mutation: {
      catalog: (c) => rewriteCatalogLines(c, (e) => `- ${e.name}\n  ${e.description.replace(/\s*\n\s*/g, " ")}`),
    },
  },
  {
    kills: "F10", rule: "render.frontmatter-roundtrip", id: "raw-json-quoting",
    description: "Rendered strings are quoted with plain JSON, which leaves DEL and C1 characters raw: the <frontmatter> block no longer reads back under R13.",
    mutation: {
      result: (r: SkillResult) => (r.kind === "ok" ? { ...r, output: r.output.replace(/\\u(007f|008[0-9a-f]|009[0-9a-f])/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))) } : r),
    },
  },
  {
    kills: "F11", rule: "render.key-order", id: "plain-authored-key-order",
    description: "Mappings keep plain authored order, integer-like keys included (what an ordered map in another language does by default): the <frontmatter> block differs from every TypeScript implementation's (R24).",
    mutation: {
      // The <frontmatter> block written from the authored document with maps that keep insertion order.
      result: (r, _p, _o, ctx) => {
        const a = r.kind === "ok" ? readAuthored(ctx.config, r.name) : undefined;
        if (r.kind !== "ok" || !a) return r;
        const block = YAML.stringify(YAML.parseDocument(a.yaml).toJS({ mapAsMap: true }), { indent: 2 });
        return { ...r, output: r.output.replace(/(<frontmatter>\n)[\s\S]*?(<\/frontmatter>)/, (_m, open: string, close: string) => open + block + close) };
      },
    },
  },
  {
    kills: "F12", rule: "frontmatter.first-refusal", id: "syntax-checked-first",
    description: "The whole frontmatter is parsed for syntax before values are counted: a syntax error on a later line wins over the value bound passed before it (R25).",
    mutation: syntaxFirst((reason) => reason.startsWith(VALUE_BOUND)),
  },
  {
    kills: "F12", rule: "frontmatter.first-refusal", id: "bound-counted-first",
    description: "Values are counted on the parsed tree before its syntax errors are looked at: the value bound wins over a syntax error on its own line or before it (R25).",
    mutation: boundCountedFirst,
  },
  {
    kills: "F13", rule: "frontmatter.blank-required-reason", id: "blank-required-as-type-error",
    description: "A blank name or description (null) is reported as a value of the wrong type ('must be a string; got null'), not as the missing field R20 says it is.",
    mutation: blankRequiredAsTypeError,
  },
  {
    kills: "F14", rule: "frontmatter.first-refusal", id: "syntax-before-every-rule",
    description: "The whole frontmatter is parsed for syntax before any other rule of the contract is applied: a syntax error on a later line wins over a duplicate key, a long or non-string key, a tag, an unsafe number, an unknown alias or the depth bound met before it (R26).",
    mutation: syntaxFirst(() => true),
  },
  {
    kills: "F14", rule: "frontmatter.first-refusal", id: "rules-before-syntax",
    description: "The contract's rules are applied to the tree the parser recovers before its syntax errors are looked at: a duplicate key or the depth bound wins over a syntax error on its own line or before it (R26).",
    mutation: rulesBeforeSyntax,
  },
  {
    kills: "F14", rule: "frontmatter.first-refusal", id: "cut-leaves-brackets-open",
    description: "At the depth refusal the text before the too-deep collection is read alone and its errors taken as the document's: brackets still open there are reported unclosed on an earlier line, and that wins over depth (R26).",
    mutation: cutLeavesBracketsOpen,
  },
  {
    kills: "F15", rule: "frontmatter.first-refusal", id: "directives-first",
    description: "Directives are refused by a pre-scan before the document is read: a directive behind '...' wins over the first document's duplicate key, tag and depth and over a second document's earlier marker (R26).",
    mutation: directivesFirst,
  },
  {
    kills: "F15", rule: "frontmatter.first-refusal", id: "directives-last",
    description: "A document's directives are checked only after its content is read: a duplicate key inside the document a leading %YAML opens wins over the directive (R26).",
    mutation: directivesLast,
  },
  {
    kills: "F15", rule: "frontmatter.first-refusal", id: "depth-before-tag",
    description: "Nesting is bounded on the whole text before values are built (a parser's own nesting limit): 1,100 brackets after a tag answer depth, not the tag met first (R26).",
    mutation: depthBeforeTag,
  },
  {
    kills: "F15", rule: "frontmatter.first-refusal", id: "empty-key-at-its-value",
    description: "An empty key is located where its empty scalar is read (the next token): '? ' alone on a line is reported on the ':' line after it, not at the '?' (R26).",
    mutation: emptyKeyAtItsValue,
  },
  {
    kills: "F15", rule: "frontmatter.first-refusal", id: "implicit-key-known-first",
    description: "An implicit key is known when it opens (read ahead to its ':'): 70 nested lists written as a key are refused as a non-string key before the depth inside them (R26 gives depth).",
    mutation: implicitKeyKnownFirst,
  },
  {
    kills: "F15", rule: "frontmatter.first-refusal", id: "key-kind-before-depth",
    description: "What a collection is for is checked before its depth: a list key that is itself the 65th level is refused as a non-string key, not for depth (R26).",
    mutation: keyKindBeforeDepth,
  },
];

export const FRONTMATTER_MUTANTS: readonly Mutant[] = toMutants(mutations);
