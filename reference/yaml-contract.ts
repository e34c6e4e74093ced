// The frontmatter YAML contract (R12–R18), the authority every fast path is checked against: one YAML 1.2
// document, core schema, read into JSON data only. The `yaml` package lexes and composes; this module adds
// the bounds and conversions another language can reproduce from schemas/decisions/ alone: characters allowed,
// no directives or tags, string keys of bounded length, no duplicate keys, JSON-exact numbers, bounded
// nesting depth, alias expansions and expanded size. Work is linear in the input: the engine's recursive
// composer only ever sees a tree whose depth was bounded first, and duplicate keys are checked by a hash set.
// Against a syntax error, the first refusal by line wins, the syntax error on a tie (R25, R26): the lines before
// the syntax error's (or the too-deep collection's) are read again alone, as a streaming reader has them.
// Pure: text in, a JSON value (with the line of each top-level key) or a located refusal out; never throws.
// Every refusal is worded by schemas/messages.json (yaml.*; the engine's own errors through fm.yaml_parser, R30).
import type * as YamlLib from "yaml";
import type { CST, Document, Node as YamlNode } from "yaml";
import { LIMITS } from "../schemas/index.ts";
import { clip, message } from "../schemas/messages.ts";
import { lazyModule } from "./lazy-module.ts";

/** The engine, loaded with the first frontmatter read (lazy-module.ts says why). */
const yaml = lazyModule<typeof YamlLib>("yaml");

export type YamlOutcome =
  | { ok: true; data: unknown; keyLines: Map<string, number>; asText?: TextNote[] }
  | { ok: false; reason: string; line?: number };

/**
 * R93: the fields the contract types as strings. A plain scalar YAML would read as a number or a boolean, written
 * as the value of one of `top`'s keys or of a key of one of `within`'s mappings, is read as its source text (a
 * string) instead, and noted, so the frontmatter can warn. Without it (the fuzz, the fast path's checks) every
 * scalar resolves by the core schema.
 */
export interface TextFields {
  readonly top: ReadonlySet<string>;
  readonly within: ReadonlySet<string>;
}
/** One value read as its source text (R93): the field (`metadata.version` inside a mapping), the text, what YAML would have made of it. */
export interface TextNote {
  field: string;
  top: string;
  source: string;
  /** What the core schema reads it as: a finite or infinite number, or a boolean. */
  value: number | boolean;
  /** Where it is written (its offset while building; its 1-based line within the YAML text once read). */
  line: number;
}

/**
 * Characters a frontmatter may hold (R13): YAML 1.2's printable set (§5.1 c-printable) minus what it
 * treats ambiguously: no C0 but tab and LF, no DEL, no C1 (NEL included), no lone CR (CRLF was read as LF
 * before), no U+FEFF past the stripped leading BOM, no U+FFFE / U+FFFF. Astral characters arrive as
 * surrogate pairs and are allowed; a lone surrogate cannot come out of UTF-8 decoding.
 */
const FORBIDDEN_PRECISE =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** A plain character class first (fast, and enough for text with no astral characters), the precise pattern only on a hit. */
export const FORBIDDEN_OR_SURROGATE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\ufffe\uffff\ud800-\udfff]/;
export const FORBIDDEN_CHAR = {
  test: (text: string): boolean => FORBIDDEN_OR_SURROGATE.test(text) && FORBIDDEN_PRECISE.test(text),
  exec: (text: string): RegExpExecArray | null =>
    FORBIDDEN_OR_SURROGATE.test(text) ? FORBIDDEN_PRECISE.exec(text) : null,
};

/** YAML 1.2, core schema, no YAML 1.1 tags or merge keys; duplicates are the Builder's to find (a hash set, not pairwise). */
const COMPOSE_OPTIONS = {
  version: "1.2",
  schema: "core",
  uniqueKeys: false,
  resolveKnownTags: false,
  merge: false,
} as const;
const INT_RE = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

class Refusal {
  /**
   * deep: R15's depth bound on the syntax tree, final on its own line (R26): nothing after it is read. keys: for
   * that bound, the offsets of the implicit keys (no ?) holding the too-deep collection, whose ':' a reader never reaches.
   */
  constructor(
    readonly reason: string,
    readonly offset: number | undefined,
    readonly deep = false,
    readonly keys: ReadonlySet<number> = NO_KEYS,
  ) {}
}
const NO_KEYS: ReadonlySet<number> = new Set();

const SURROGATE = /[\ud800-\udfff]/;
/** Length in code points (the unit every length bound of the contract counts in). */
export function codePoints(s: string): number {
  if (!SURROGATE.test(s)) return s.length; // no pair to count once: one scan, no iterator
  let n = 0;
  for (const _ of s) n++;
  return n;
}
const hex = (c: string): string => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * Parse frontmatter YAML under the contract. Lines are 1-based within `text`. opts turn off the shortcuts to the same
 * answer, for the tests that hold them to it: speculation on prefixes (X5) and the lexer's guards (both on by default).
 */
export function parseYamlContract(
  text: string,
  textFields?: TextFields,
  opts: { speculate?: boolean; guards?: boolean } = {},
): YamlOutcome {
  const bad = FORBIDDEN_CHAR.exec(text);
  if (bad) {
    const reason = bad[0] === "\r" ? message("yaml.lone_cr") : message("yaml.forbidden_char", { char: hex(bad[0]) });
    return { ok: false, reason, line: lineAtOffset(text, bad.index) };
  }
  // The engine makes an Error per syntax error, and a hostile 1 MiB can hold half a million: no stack traces (X5).
  const traces = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return (
      (opts.speculate === false ? undefined : speculate(text, textFields)) ??
      (opts.guards === false ? undefined : lexerGuards(text)) ??
      readDocument(text, EVERYTHING, textFields) ?? { ok: true, data: null, keyLines: new Map() }
    );
  } catch (e) {
    if (e instanceof Refusal)
      return { ok: false, reason: e.reason, ...(e.offset === undefined ? {} : { line: lineAtOffset(text, e.offset) }) };
    return { ok: false, reason: parserMessage(e instanceof Error ? e.message : String(e)) };
  } finally {
    Error.stackTraceLimit = traces;
  }
}

/**
 * X5: a refusal near the start of a long text is found in a prefix, so the engine never composes the rest (a 1 MiB of
 * one error per line cost 10–50 s). Prefixes of SPECULATE_FIRST bytes, then four times more each round (not counting
 * a long last line), up to half the text, each cut at a line's end. A prefix answers only where the whole text must answer the same: the refusal
 * lies on a line before a point the rest of the text cannot change (settledBefore), and the prefix's own cut counts
 * for nothing (R25/R26, as readPrefix reads a prefix). Otherwise the whole text is read as before.
 */
const SPECULATE_FIRST = 256;
function speculate(text: string, textFields: TextFields | undefined): YamlOutcome | undefined {
  // Each prefix is about four times the one before, counted without its last line: a long line makes a prefix long,
  // and what follows it is still read a little at a time (a 32 KiB key, then entries: the key and a few more). The
  // first is small: a text dense in syntax errors costs the engine microseconds a line even in a prefix.
  let end = 0;
  let longLine = false;
  for (;;) {
    const lastLine = end === 0 ? 0 : text.lastIndexOf("\n", end - 2) + 1;
    const target = end + Math.max(SPECULATE_FIRST, 3 * lastLine);
    const nl = target < text.length ? text.indexOf("\n", target) : -1;
    if (nl === -1) return undefined;
    const start = text.lastIndexOf("\n", nl - 1) + 1;
    longLine ||= nl - start > start;
    // A prefix that is most of the text saves nothing: the whole reading (its guards first) is as cheap. Half the
    // text at most, or three quarters once a prefix was mostly its last line (a line that long cost little).
    if (nl + 1 > text.length * (longLine ? 0.75 : 0.5)) return undefined;
    end = nl + 1;
    const prefix = text.slice(0, end);
    // A guard that trips in the prefix trips at the same token of the whole text, whose lexer agrees with the prefix's
    // but maybe on its last line: an answer before that line is final; otherwise the whole reading's guards trip too.
    const guarded = refusalOrOutcome(text, () => lexerGuards(prefix));
    if (guarded)
      return !guarded.ok &&
        guarded.line !== undefined &&
        guarded.line < lineAtOffset(prefix, prefix.lastIndexOf("\n", prefix.length - 2) + 1)
        ? guarded
        : undefined;
    const tops = [...new (yaml().Parser)().parse(prefix)].filter((t) => !TRIVIA.has(t.type));
    // A collection past yaml_max_depth in the prefix's syntax tree is in the whole text's, and the first of them (in
    // document order) too: its depth is fixed by what opened before it. Final on its line (R26), on a line before the
    // prefix's last it is the whole reading's answer, or an earlier line's refusal (X12, as readDeepPrefix).
    const deep = checkTokens(tops);
    if (deep?.deep) {
      const at = lineAtOffset(prefix, deep.offset ?? 0);
      if (at >= lineAtOffset(prefix, prefix.lastIndexOf("\n", prefix.length - 2) + 1)) continue;
      const out = refusalOrOutcome(text, () => readDocument(prefix, EVERYTHING, textFields));
      return out && !out.ok && out.line !== undefined && out.line <= at ? out : undefined;
    }
    const run = headError(tops);
    if (run !== undefined) {
      // The whole text's first syntax error is the prefix's (X12): the prefix's own reading is the whole text's.
      const out = refusalOrOutcome(text, () => readDocument(prefix));
      return out && !out.ok && out.line !== undefined && out.line <= lineAtOffset(prefix, run) ? out : undefined;
    }
    const settled = settledBefore(tops);
    if (settled === undefined) continue;
    const settledLine = lineAtOffset(prefix, settled);
    const out = refusalOrOutcome(text, () =>
      readDocument(prefix, { syntax: settledLine, refusalEnd: settled }, textFields),
    );
    if (out && !out.ok && out.line !== undefined && out.line < settledLine) return out;
  }
}

/** The tokens a run of node properties is made of: a property, and the space, line breaks and comments between them. */
const PROP_RUN = new Set(["anchor", "tag", "newline", "space", "comment"]);

/**
 * X12: (given a prefix's top-level tokens, trivia left out) the offset of the prefix's first syntax error when the
 * whole text is certain to have it as its first too, or undefined. That error belongs to the head of the last entry
 * of the first document's top-level block mapping, met before anything the rest of the text could add to that entry:
 * a second anchor (or tag) in a run of node properties with nothing after them yet (`&a` on a line, `&a` on the next:
 * a node can have only one), on a line the prefix ends after; or a block sequence begun as the entry's implicit key
 * (lines of `-` after the last key), refused before its content is looked at; or a plain or quoted scalar key that
 * already spans lines (lines of `@x`, or `"a` lines: one scalar), refused as a key on more than one line whatever it
 * goes on to hold (a quote the prefix leaves open is refused after that, when the key is read). The engine's parser is streaming, so
 * the entries before are the whole text's, and so are the entry's properties and the kind of its key once begun
 * (what follows the prefix only adds tokens after them); its composer meets them in order, the entries first, then
 * the properties one by one, then the key's kind, so the error it makes there comes before any the rest could cause.
 * The prefix's reading (readDocument) then answers with it, or with a refusal on the lines before it, both from text
 * the prefix holds.
 */
const SCALAR_KEYS = new Set(["scalar", "single-quoted-scalar", "double-quoted-scalar"]);
function headError(tops: readonly Token[]): number | undefined {
  const doc = tops[0];
  if (tops.length !== 1 || doc?.type !== "document" || doc.value?.type !== "block-map") return undefined;
  const item = doc.value.items[doc.value.items.length - 1] as Item & { key?: Token | null; sep?: unknown };
  if (!item) return undefined;
  const seqKey = item.key?.type === "block-seq";
  const key = item.key && SCALAR_KEYS.has(item.key.type) ? (item.key as CST.FlowScalar) : undefined;
  const lineKey = key !== undefined && key.source.includes("\n");
  const props = !item.key && !item.sep && !item.value && item.start.every((t) => PROP_RUN.has(t.type));
  if (!seqKey && !lineKey && !props) return undefined;
  const err = [...new (yaml().Composer)(COMPOSE_OPTIONS).compose(tops)].flatMap((d) => d.errors)[0];
  if (!err) return undefined;
  if (seqKey) return err.code === "BLOCK_AS_IMPLICIT_KEY" ? err.pos[0] : undefined;
  if (lineKey) return err.code === "MULTILINE_IMPLICIT_KEY" && err.pos[0] === key.offset ? err.pos[0] : undefined;
  if (err.code !== "MULTIPLE_ANCHORS" && err.code !== "MULTIPLE_TAGS") return undefined;
  const at = item.start.findIndex((t) => t.offset === err.pos[0] && (t.type === "anchor" || t.type === "tag"));
  // Its line ends inside the prefix: nothing after it joins the property's token.
  return at !== -1 && item.start.slice(at + 1).some((t) => t.type === "newline") ? err.pos[0] : undefined;
}

/** A reading's outcome, its thrown refusal as an outcome (lines of `text`), anything else thrown on. */
function refusalOrOutcome(text: string, read: () => YamlOutcome | undefined): YamlOutcome | undefined {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return { ok: false, reason: e.reason, ...(e.offset === undefined ? {} : { line: lineAtOffset(text, e.offset) }) };
  }
}

const TRIVIA = new Set(["newline", "space", "comment"]);

/** The start of the deepest last entry, along the chain of last entries of block collections, that follows another entry (walked, not recursed: a chain can be thousands deep). */
function lastEntryStart(root: Token): number | undefined {
  let found: number | undefined;
  for (let node: Token | undefined = root; node && (node.type === "block-map" || node.type === "block-seq");) {
    const item: Item | undefined = node.items[node.items.length - 1];
    if (item === undefined) break;
    if (node.items.length >= 2) {
      const first =
        item.start[0] ??
        ("key" in item ? item.key : undefined) ??
        ("sep" in item ? item.sep?.[0] : undefined) ??
        item.value;
      if (first && "offset" in first) found = first.offset;
    }
    node = item.value ?? undefined;
  }
  return found;
}

/**
 * (Given a prefix's top-level tokens, trivia left out) the offset in the prefix before which nothing after it can change the text's tokens, nodes or refusals: the
 * engine's parser is streaming, so a top-level token followed by another is final, and so is an entry of the first
 * document's top-level block mapping followed by another entry (the parser opened the next one at indent 0, which
 * closes every node before it). The start of the last top-level token, or, when that is the first document, of the
 * deepest last entry of its block collections that follows another entry (lastEntryStart). Undefined: nothing is settled.
 */
function settledBefore(tops: readonly Token[]): number | undefined {
  const last = tops[tops.length - 1];
  if (last === undefined) return undefined;
  if (tops.length >= 2) return last.offset;
  if (last.type !== "document") return undefined;
  return last.value ? lastEntryStart(last.value) : undefined;
}

/**
 * Which errors of a text still count (R25/R26): a syntax error on a line before `syntax`, a refusal of the
 * contract at an offset before `refusalEnd`. A prefix read again counts only what lies before where it was
 * cut (the cut's own errors never do: a null value where the text stops, a bracket it leaves open), and the
 * prefix of a syntax error counts no syntax error at all.
 */
interface Counted {
  syntax: number;
  refusalEnd: number;
  /** Implicit keys cut before their ':' (Refusal.keys): known as keys only there, so their kind is never refused. */
  cutKeys?: ReadonlySet<number>;
}
const EVERYTHING: Counted = { syntax: Number.POSITIVE_INFINITY, refusalEnd: Number.POSITIVE_INFINITY };

/**
 * R25/R26: read `text` under the full rules and answer with the refusal met first by line (a syntax error
 * on a tie; a depth refusal is final on its own line), or the value. A refusal comes back thrown (Refusal)
 * or as a syntax-error outcome; undefined means nothing that counts (a prefix read again) or, for a whole
 * text, an empty document.
 */
function readDocument(text: string, counted: Counted = EVERYTHING, textFields?: TextFields): YamlOutcome | undefined {
  const { Composer, LineCounter, Parser } = yaml();
  const lc = new LineCounter();
  const tokens = [...new Parser(lc.addNewLine).parse(text)];
  const lineOf = (offset: number | undefined): number => (offset === undefined ? 1 : lc.linePos(offset).line);
  const pre = checkTokens(tokens);
  if (pre?.deep) {
    // The composer recurses once per level: only the text before the too-deep collection is read again. A syntax
    // error on an earlier line, or a refusal before the collection (on an earlier line, or on its own: a tag, a
    // duplicate key whose value it is), is met first (R26). The brackets still open there are closed where the
    // text is cut: the engine would report each unclosed one at its last item, maybe on an earlier line.
    const cut = pre.offset ?? 0;
    if (cut >= counted.refusalEnd) return undefined;
    const line = lineOf(cut);
    const prefix = text.slice(0, cut);
    const earlier = readDocument(
      prefix + closingBrackets(prefix),
      { syntax: Math.min(counted.syntax, line), refusalEnd: cut, cutKeys: pre.keys },
      textFields,
    );
    if (earlier !== undefined) return earlier;
    throw pre;
  }
  const docs = [...new Composer(COMPOSE_OPTIONS).compose(tokens)];
  const err = docs.flatMap((d) => d.errors)[0]; // a second document's syntax errors count too (R26)
  const errLine = err ? lineOf(err.pos[0]) : undefined;
  if (err && errLine !== undefined && errLine < counted.syntax) {
    // The lines before the syntax error's, read alone (as a streaming reader has them), may hold an earlier refusal
    // of the contract; their own syntax errors are not looked at again (one re-read at most: linear, R21).
    const before = errLine > 1 ? cutBefore(text, errLine) : "";
    const earlier = before ? readDocument(before, { syntax: 0, refusalEnd: before.length }, textFields) : undefined;
    return earlier ?? { ok: false, reason: parserMessage(err.message), line: errLine };
  }
  const built = buildValue(docs, text, pre, counted.cutKeys ?? NO_KEYS, textFields);
  if (built instanceof Refusal) {
    if ((built.offset ?? 0) < counted.refusalEnd) throw built;
    return undefined;
  }
  if (counted !== EVERYTHING || !built) return undefined;
  const keyLines = new Map<string, number>();
  for (const [k, off] of built.topKeys) keyLines.set(k, lineOf(off));
  for (const note of built.asText) note.line = lineOf(note.line);
  return built.asText.length > 0
    ? { ok: true, data: built.data, keyLines, asText: built.asText }
    : { ok: true, data: built.data, keyLines };
}

/**
 * The first document's value, or the refusal of the contract met first in document order (R26): a directive
 * that opens the first document before its content; the value's own refusals; then, after the first document,
 * a second document's marker or a directive opening a later one, whichever comes first. Undefined: no document.
 */
function buildValue(
  docs: readonly Document.Parsed[],
  text: string,
  directive: Refusal | undefined,
  cutKeys: ReadonlySet<number>,
  textFields: TextFields | undefined,
): Refusal | { data: unknown; topKeys: Map<string, number | undefined>; asText: TextNote[] } | undefined {
  const doc = docs[0];
  if (directive && (!doc || (directive.offset ?? 0) < doc.range[0])) return directive;
  let data: unknown = null;
  const builder = doc ? new Builder(doc, text, cutKeys, textFields) : undefined;
  if (doc && builder) {
    try {
      data = builder.value(doc.contents, 0);
    } catch (e) {
      if (e === CUT) return undefined;
      if (!(e instanceof Refusal)) throw e;
      return e;
    }
  }
  const second = docs[1] ? new Refusal(message("yaml.second_document"), docs[1].range[0]) : undefined;
  const after = directive && (!second || (directive.offset ?? 0) < (second.offset ?? 0)) ? directive : second;
  return after ?? (builder ? { data, topKeys: builder.topKeys, asText: builder.asText } : undefined);
}

/** The text's lines before line `line` (1-based), each with its line feed. */
function cutBefore(text: string, line: number): string {
  let end = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", end);
    if (nl === -1) return text;
    end = nl + 1;
  }
  return text.slice(0, end);
}

/** The closers of the flow collections still open where `prefix` ends, innermost first (the lexer tells brackets from text). */
function closingBrackets(prefix: string): string {
  const open: string[] = [];
  for (const tok of new (yaml().Lexer)().lex(prefix)) {
    if (tok === "[" || tok === "{") open.push(tok === "[" ? "]" : "}");
    else if ((tok === "]" || tok === "}") && open[open.length - 1] === tok) open.pop();
  }
  return open.reverse().join("");
}

/**
 * The syntax errors the contract words itself (R25, R35; a second parser renders them from the table): the
 * engine's first line, read back into the table's ids. Its words are the table's, so nothing changes but the source.
 */
const CONTRACT_SYNTAX: readonly (readonly [RegExp, (m: RegExpExecArray) => string])[] = [
  [/^Missing closing (["'])quote$/, (m) => message("yaml.unclosed_quote", { quote: m[1] as string })],
  [/^Tabs are not allowed as indentation$/, () => message("yaml.tab_indent")],
  [/^Nested mappings are not allowed in compact mappings$/, () => message("yaml.compact_mapping")],
  [
    /^Flow sequence in block collection must be sufficiently indented and end with a \]$/,
    () => message("yaml.flow_sequence"),
  ],
  [/^Flow map in block collection must be sufficiently indented and end with a \}$/, () => message("yaml.flow_map")],
  [
    /^Plain value cannot start with reserved character ([@`])$/,
    (m) => message("yaml.reserved", { indicator: m[1] as string }),
  ],
  [/^Plain value cannot start with directive indicator character %$/, () => message("yaml.directive_in_document")],
];

/** A syntax error's reason: the contract's words where it has them, else the YAML engine's own (R30's one implementation-defined text), its first line, clipped. */
function parserMessage(text: string): string {
  const first = text.split("\n")[0] || "invalid YAML";
  for (const [re, word] of CONTRACT_SYNTAX) {
    const m = re.exec(first);
    if (m) return word(m);
  }
  return message("fm.yaml_parser", { parser_message: clip(first) });
}

/** The offset of the tag property that belongs to the node starting at `offset`: the last tag token at or before it. */
function tagOffsetBefore(text: string, offset: number): number {
  let found = offset;
  let pos = 0;
  let scalarNext = false;
  for (const tok of new (yaml().Lexer)().lex(text)) {
    if (pos > offset) break;
    // A token right after the lexer's scalar marker is scalar text, never a tag.
    if (tok.charCodeAt(0) === 0x21 && !scalarNext) found = pos;
    scalarNext = tok === "\x1f";
    if (!(tok.length === 1 && LEXER_CONTROL.has(tok))) pos += tok.length;
  }
  return found;
}

function lineAtOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Cheap guards on the lexer's token stream (linear, before any tree is built): the engine's syntax-tree
 * builder slows down quadratically with flow nesting and costs microseconds per node, so a document that
 * certainly breaks a bound is caught here. Each counter is a lower bound of what the full rules count:
 * flow nesting (never more than the value's depth), runs of "- " on one line (each opens a nested list),
 * scalars, flow collections and aliases (each at least one value of the built value; every alias at least
 * one expansion). On a trip, the lines up to the token's are read under the full rules (readPrefix), which
 * refuse at the very node the whole document would be refused at: the line is the same.
 */
/**
 * Flow nesting past the depth bound: every open bracket the lexer yields opens a flow collection of the syntax tree,
 * nested in those still open, so this many is a collection past yaml_max_depth there (readDeepPrefix confirms it on
 * the prefix before answering). Tripping at the first one past the bound, not later, keeps the prefix the engine
 * builds (quadratic in flow nesting) small: 1,000 levels cost 60 ms per file (issue 26 item 6).
 */
const FLOW_GUARD = LIMITS.yaml_max_depth;
function lexerGuards(text: string): YamlOutcome | undefined {
  let flow = 0;
  let dashes = 0;
  let nodes = 0;
  let aliases = 0;
  let offset = 0;
  for (const tok of new (yaml().Lexer)().lex(text)) {
    const c = tok.charCodeAt(0);
    // The lexer's control tokens are single characters the contract forbids in text (R13): they take no room.
    if (tok.length === 1 && LEXER_CONTROL.has(tok)) {
      if (tok === "\x1f") nodes++; // a plain or block scalar follows
      continue;
    }
    let trip = false;
    let deep = false;
    if (tok === "[" || tok === "{") {
      nodes++;
      deep = ++flow > FLOW_GUARD;
    } else if ((tok === "]" || tok === "}") && flow > 0) flow--;
    else if (c === 0x27 || c === 0x22)
      nodes++; // a quoted scalar
    else if (c === 0x2a) trip = ++aliases > LIMITS.yaml_max_aliases || ++nodes > LIMITS.yaml_max_nodes; // *alias
    if (tok === "-") deep ||= ++dashes > LIMITS.yaml_max_depth;
    else if (tok === "\n") dashes = 0;
    else if (tok !== " " && tok !== "-") dashes = tok.trim() === "" ? dashes : 0;
    // Depth is final on its line (R26): the text up to this token holds the too-deep collection, and nothing
    // after it is read, so one long line of nesting costs what its prefix does (R21), not the engine's pass
    // over the whole line. The cut's own syntax errors sit on that line or later: they never outweigh depth.
    if (deep) return readDeepPrefix(text.slice(0, offset + tok.length));
    // A trip the prefix does not confirm (never expected) leaves the decision to the full reading.
    if (trip || nodes > LIMITS.yaml_max_nodes) return readPrefix(text, offset + tok.length);
    offset += tok.length;
  }
  return undefined;
}

/**
 * The text up to a depth guard's trip, read under the full rules when its syntax tree does hold a collection
 * past yaml_max_depth or a directive (then the answer is the whole document's: that refusal, or an earlier
 * line's); anything else (never expected) is left to the full reading.
 */
function readDeepPrefix(prefix: string): YamlOutcome | undefined {
  // A directive met first (checkTokens reports it before depth) is on a line of its own before the trip: that prefix answers too.
  return checkTokens([...new (yaml().Parser)().parse(prefix)]) ? readDocument(prefix) : undefined;
}

/**
 * Read the text's lines up to the one where offset `end` falls, under the full rules (readDocument): they
 * throw (or, for a syntax error that comes first under R25/R26, return) the refusal the whole document gets;
 * the guards trip only on a certain one. A syntax error the cut itself causes (an unclosed quote or bracket)
 * is located at the end of the prefix, the line after the last one read, so it never counts.
 */
function readPrefix(text: string, end: number): YamlOutcome | undefined {
  const nl = text.indexOf("\n", Math.max(0, end - 1));
  if (nl === -1) return readDocument(text);
  const prefix = text.slice(0, nl + 1);
  return readDocument(prefix, { syntax: lineAtOffset(text, nl + 1), refusalEnd: prefix.length });
}
const LEXER_CONTROL = new Set(["\x02", "\x18", "\x1f", "\ufeff"]);

type Token = CST.Token;
type Collection = Extract<Token, { type: "block-map" | "block-seq" | "flow-collection" }>;
type Item = Collection["items"][number];

/**
 * Before the engine composes (it recurses once per level): the first, in document order, of a directive and a
 * collection nested past yaml_max_depth on the concrete syntax tree (walked iteratively). Collection depth in
 * the syntax tree never exceeds the value's depth, so this refuses nothing the depth rule (R15) would accept.
 * A directive found here is not final: readDocument weighs it against the first document's refusals (R26).
 */
function checkTokens(tokens: readonly Token[]): Refusal | undefined {
  // In document order (R26): a directive after a first document is met after that document's collections. A
  // directive found first leaves the documents after it unchecked here: the composer still recurses over them,
  // bounded by the lexer's guards (FLOW_GUARD open brackets, yaml_max_depth dashes on a line; indentation costs
  // a byte per level per line, so a 1 MiB file nests about 1,400 levels: measured safe).
  for (const t of tokens) {
    if (t.type === "directive") return new Refusal(message("yaml.directive"), t.offset);
    const deep = t.type === "document" && t.value ? tooDeep(t.value) : undefined;
    if (deep) return deep;
  }
  return undefined;
}

/** The first collection, in document order, nested past yaml_max_depth within one document's syntax tree. */
function tooDeep(root: Token): Refusal | undefined {
  // A pair inside a flow sequence ([a: b], [? a]) is a mapping of its own (R15 counts it): it opens where it starts.
  type PairMap = { type: "pair-map"; offset: number; item: Item };
  // keys: the offsets of the implicit keys (no ?) on the path from the root, shared until one more is entered.
  type Entry = { token: Token | PairMap; depth: number; keys: readonly number[] };
  const stack: Entry[] = [{ token: root, depth: 0, keys: [] }];
  const max = LIMITS.yaml_max_depth;
  while (stack.length > 0) {
    const { token, depth, keys } = stack.pop() as Entry;
    if (
      token.type !== "block-map" &&
      token.type !== "block-seq" &&
      token.type !== "flow-collection" &&
      token.type !== "pair-map"
    )
      continue;
    const d = depth + 1;
    if (d > max) return new Refusal(message("yaml.too_deep", { max }), token.offset, true, new Set(keys));
    const items = token.type === "pair-map" ? [token.item] : ((token as Collection).items as Item[]);
    const pairs = token.type === "flow-collection" && token.start.source === "[";
    // Pushed in reverse, so nodes pop in document order and the first collection past the bound is found first.
    for (let i = items.length - 1; i >= 0; i--) {
      const it = items[i] as Item & { key?: Token | null; value?: Token | null; sep?: CST.SourceToken[] };
      const explicit = it.start.some((t) => t.source === "?");
      if (pairs && (it.key || explicit || it.sep?.some((t) => t.source === ":"))) {
        const at =
          it.start.find((t) => t.source === "?")?.offset ?? it.key?.offset ?? it.sep?.[0]?.offset ?? token.offset;
        stack.push({ token: { type: "pair-map", offset: at, item: it }, depth: d, keys });
        continue;
      }
      if (it.value) stack.push({ token: it.value, depth: d, keys });
      if (it.key)
        stack.push({
          token: it.key,
          depth: d,
          keys: explicit || !("offset" in it.key) ? keys : [...keys, it.key.offset],
        });
    }
  }
  return undefined;
}

/** Thrown by the Builder at an implicit key cut before its ':' (see map): nothing from there on counts. */
const CUT = Symbol("cut");

/** Builds the JSON value from the composed document, enforcing R14–R17 as it goes. */
class Builder {
  readonly topKeys = new Map<string, number | undefined>();
  readonly asText: TextNote[] = [];
  /** The top-level key whose value is being built (R93's `within`). */
  private topKey = "";
  /** R160: inside a list or mapping that is a text field's value, the path of that collection (`version`, `metadata.v[0]`). */
  private textPath: string | undefined;
  private readonly anchors = new Map<string, YamlNode>();
  private expanding = 0;
  private aliases = 0;
  private nodes = 0;
  private stringBytes = 0;
  /** Inside an expanded alias, every refusal is reported at the alias (the copy has no place of its own). */
  private aliasAt: number | undefined;

  /** cutKeys: the implicit keys a prefix read again at a depth refusal was cut inside (Refusal.keys). */
  constructor(
    private readonly doc: Document,
    private readonly text: string,
    private readonly cutKeys: ReadonlySet<number> = NO_KEYS,
    private readonly textFields?: TextFields,
  ) {}

  private refuse(reason: string, offset: number | undefined): Refusal {
    return new Refusal(reason, this.aliasAt ?? offset);
  }

  value(node: unknown, depth: number): unknown {
    if (node === null || node === undefined) return this.count(null, undefined);
    const { isAlias, isMap, isScalar, isSeq } = yaml();
    if (isAlias(node)) return this.alias(node.source, node.range?.[0], depth);
    const n = node as YamlNode;
    const offset = n.range?.[0];
    if (n.tag !== undefined) {
      // R26: a tag is met at the tag property itself, which may sit lines before a block collection's content.
      const tag = clip(n.tag.replace(/^tag:yaml\.org,2002:/, "!!"), 64);
      throw this.refuse(
        message("yaml.tag", { tag }),
        offset === undefined ? offset : tagOffsetBefore(this.text, offset),
      );
    }
    // R97: a quoted scalar left open is the unclosed quote's to report (the syntax error found where the text ends):
    // what a parser makes of the text after an open quote (a key of 279 characters, a duplicate) is its own, so
    // nothing from here on counts in a prefix read again (CUT), and a whole text holding one is a syntax error anyway.
    if (
      isScalar(n) &&
      (n.type === "QUOTE_SINGLE" || n.type === "QUOTE_DOUBLE") &&
      offset !== undefined &&
      !this.closedQuote(offset, n.type === "QUOTE_DOUBLE")
    )
      throw CUT;
    let out: unknown;
    if (isMap(n)) out = this.map(n, depth + 1);
    else if (isSeq(n)) out = this.seq(n, depth + 1);
    else if (isScalar(n)) out = this.scalar(n.value, n.source, n.type, offset);
    else throw this.refuse(message("yaml.not_json"), offset);
    if (n.anchor && this.expanding === 0) this.anchors.set(n.anchor, n); // after the node: an alias inside its own anchor finds nothing
    return out;
  }

  private count<T>(v: T, offset: number | undefined): T {
    if (++this.nodes > LIMITS.yaml_max_nodes) {
      throw this.refuse(message("yaml.too_many_values", { max: LIMITS.yaml_max_nodes }), offset);
    }
    return v;
  }

  private depthCheck(depth: number, offset: number | undefined): void {
    // The syntax tree's bound (tooDeep) sees every collection written out: past it here, only an alias's copy nests.
    if (depth > LIMITS.yaml_max_depth)
      throw this.refuse(
        message(this.expanding > 0 ? "yaml.too_deep_expanded" : "yaml.too_deep", { max: LIMITS.yaml_max_depth }),
        offset,
      );
  }

  private alias(name: string, offset: number | undefined, depth: number): unknown {
    const target = this.anchors.get(name);
    if (!target) throw this.refuse(message("yaml.unknown_alias", { anchor: clip(name, 64) }), offset);
    if (++this.aliases > LIMITS.yaml_max_aliases) {
      throw this.refuse(message("yaml.too_many_aliases", { max: LIMITS.yaml_max_aliases }), offset);
    }
    if (this.expanding === 0) this.aliasAt = offset;
    this.expanding++;
    try {
      return this.value(target, depth);
    } finally {
      if (--this.expanding === 0) this.aliasAt = undefined;
    }
  }

  private map(n: YamlNode & { items: { key: unknown; value: unknown }[] }, depth: number): Record<string, unknown> {
    const { isMap, isSeq } = yaml();
    const offset = n.range?.[0];
    this.depthCheck(depth, offset);
    this.count(null, offset);
    const out: Record<string, unknown> = {};
    for (const pair of n.items) {
      const keyNode = pair.key as YamlNode | null;
      const keyOffset = keyNode?.range?.[0] ?? offset;
      if ((isMap(keyNode) || isSeq(keyNode)) && keyNode.tag === undefined) {
        // Holding the too-deep collection the text was cut at, it is an implicit key whose ':' lies past the cut:
        // the reader stopped at depth before it knew a key (R26); only what its content holds before the cut counts.
        if (keyOffset !== undefined && this.cutKeys.has(keyOffset)) {
          this.value(keyNode, depth);
          throw CUT;
        }
        // A collection key is refused where it opens, before anything inside it (R26's document order).
        throw this.refuse(message("yaml.key_not_string", { got: "a list or mapping" }), keyOffset);
      }
      const key = this.value(keyNode, depth);
      if (typeof key !== "string") {
        const got =
          key === null
            ? "an empty (null) key"
            : typeof key === "object"
              ? "a list or mapping"
              : `${typeof key} ${clip(String(key), 40)}`;
        throw this.refuse(message("yaml.key_not_string", { got }), keyOffset);
      }
      if (codePoints(key) > LIMITS.yaml_max_key_length) {
        throw this.refuse(
          message("yaml.key_too_long", { length: codePoints(key), max: LIMITS.yaml_max_key_length }),
          keyOffset,
        );
      }
      if (Object.prototype.hasOwnProperty.call(out, key))
        throw this.refuse(message("yaml.duplicate_key", { key: clip(key, 64) }), keyOffset);
      if (depth === 1) this.topKey = key;
      const inText = this.textPath !== undefined && this.expanding === 0;
      const asText =
        inText ||
        (this.textFields !== undefined &&
          this.expanding === 0 &&
          (depth === 1 ? this.textFields.top.has(key) : depth === 2 && this.textFields.within.has(this.topKey)));
      const v = asText
        ? this.textValue(
            pair.value,
            depth,
            inText ? `${this.textPath}.${key}` : depth === 1 ? key : `${this.topKey}.${key}`,
          )
        : this.value(pair.value, depth);
      // defineProperty: a "__proto__" key is data, never the prototype setter (S10).
      Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      if (depth === 1 && this.expanding === 0) this.topKeys.set(key, keyOffset);
    }
    return out;
  }

  /** R93: a plain, untagged scalar of a field typed as a string keeps its source text when YAML would read a number or a boolean. */
  private textValue(node: unknown, depth: number, field: string): unknown {
    const { isAlias, isMap, isScalar, isSeq } = yaml();
    // An alias of such a scalar is its anchor's text too (counted as an expansion, like any alias).
    const target = isAlias(node) ? this.anchors.get(node.source) : node;
    if (!isAlias(node) && (isMap(node) || isSeq(node))) {
      // R160: a list or mapping there keeps its scalars as text too, at any depth (version: [1.10] is ["1.10"]).
      const outer = this.textPath;
      this.textPath = field;
      try {
        return this.value(node, depth);
      } finally {
        this.textPath = outer;
      }
    }
    if (!isScalar(target) || target.type !== "PLAIN" || target.tag !== undefined || typeof target.source !== "string")
      return this.value(node, depth);
    const v = target.value;
    if (typeof v !== "number" && typeof v !== "boolean") return this.value(node, depth);
    const source = target.source;
    const offset = (node as YamlNode).range?.[0];
    if (isAlias(node) && ++this.aliases > LIMITS.yaml_max_aliases)
      throw this.refuse(message("yaml.too_many_aliases", { max: LIMITS.yaml_max_aliases }), offset);
    this.count(null, offset);
    this.stringBytes += Buffer.byteLength(source, "utf8");
    if (target === node && target.anchor) this.anchors.set(target.anchor, target);
    this.asText.push({ field, top: this.topKey, source, value: v, line: offset ?? 0 });
    return source;
  }

  private seq(n: YamlNode & { items: unknown[] }, depth: number): unknown[] {
    const offset = n.range?.[0];
    this.depthCheck(depth, offset);
    this.count(null, offset);
    const path = this.expanding === 0 ? this.textPath : undefined;
    return path === undefined
      ? n.items.map((item) => this.value(item, depth))
      : n.items.map((item, i) => this.textValue(item, depth, `${path}[${i}]`));
  }

  private scalar(v: unknown, source: unknown, type: unknown, offset: number | undefined): unknown {
    this.count(null, offset);
    if (typeof v === "string") {
      this.stringBytes += Buffer.byteLength(v, "utf8");
      if (this.stringBytes > LIMITS.skill_md_max_bytes) {
        throw this.refuse(message("yaml.strings_too_large", { max: LIMITS.skill_md_max_bytes }), offset);
      }
      if (
        type === "QUOTE_DOUBLE" &&
        /[\ud800-\udfff]/.test(v) &&
        offset !== undefined &&
        SURROGATE_ESCAPE.test(this.quotedSource(offset))
      ) {
        throw this.refuse(message("yaml.surrogate_escape"), offset);
      }
      return v;
    }
    if (typeof v === "number") {
      const src = typeof source === "string" ? source : String(v);
      if (!Number.isFinite(v)) throw this.refuse(message("yaml.not_finite", { number: clip(src, 40) }), offset);
      if (INT_RE.test(src) && !Number.isSafeInteger(v)) {
        throw this.refuse(message("yaml.unsafe_integer", { number: clip(src, 40) }), offset);
      }
      return Object.is(v, -0) ? 0 : v;
    }
    if (typeof v === "boolean" || v === null) return v;
    throw this.refuse(message("yaml.not_json"), offset);
  }

  /** Whether the quoted scalar opening at offset has its closing quote (a backslash escapes in double quotes, '' in single). */
  private closedQuote(offset: number, double: boolean): boolean {
    const t = this.text;
    const q = double ? '"' : "'";
    let i = offset + 1;
    while (i < t.length) {
      const c = t[i];
      if (double && c === "\\") i += 2;
      else if (c === q) {
        if (!double && t[i + 1] === "'") i += 2;
        else return true;
      } else i++;
    }
    return false;
  }

  /** The double-quoted scalar's source text, from its opening quote to the closing one. */
  private quotedSource(offset: number): string {
    let i = offset + 1;
    while (i < this.text.length) {
      const c = this.text[i];
      if (c === "\\") i += 2;
      else if (c === '"') break;
      else i++;
    }
    return this.text.slice(offset, i + 1);
  }
}
