// A fast path for the YAML that SKILL.md frontmatter almost always is: a flat mapping of plain, quoted,
// boolean, block (| |- > >-) and flow-list scalars, with a few nested levels of mappings or lists; and, so that the
// hostile shapes of bench/hostile.ts cost what ordinary frontmatter does (X12), integers in flow lists, anchored
// values, top-level flow lists over lines with comments, and lines of white between entries. Anything
// outside that subset returns null and goes to the contract parser (yaml-contract.ts), which stays the
// authority: property tests and `npm run fuzz` check that whenever this returns a value, the authority
// returns the same one with the same key lines (R18), and that its one refusal, R16's value bound, is the
// authority's reason and line (R90). Whitespace is YAML's: space (and tab, which this path
// declines), never JavaScript's \s or trim(), which also strip U+00A0, U+3000, VT and more. It exists
// because discovery parses every SKILL.md, and the general parser costs more than reading the files; so it
// reads the text in place, by index, and makes no string until it takes a key or a value.
import { FRONTMATTER_FIELDS, LIMITS } from "../schemas/index.ts";
import { message } from "../schemas/messages.ts";
import { FORBIDDEN_CHAR, FORBIDDEN_OR_SURROGATE } from "./yaml-contract.ts";

export interface SubsetResult {
  ok: true;
  data: Record<string, unknown>;
  /** 1-based line of each top-level key within the YAML text. */
  readonly keyLines: Map<string, number>;
}
/** The one refusal the fast path certifies (R16's value count, R21): exactly the authority's reason and line. */
export interface SubsetRefusal {
  ok: false;
  reason: string;
  line: number;
}

const PRINTABLE = /^[\x20-\x7e\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;
const LEADING_INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`+.\s]/;
const NUMBERISH = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
const FLOW_INDICATOR = /[,[\]{}:#]/;
/**
 * What this path must look for inside a line, in text that passed FORBIDDEN_CHAR: there, a line is
 * PRINTABLE unless it holds a tab or a surrogate (an astral character), and KEY's old `.*` matched a line
 * unless it held U+2028 or U+2029. Most frontmatter holds none of them: one test then spares every range check.
 */
const MAYBE_UNPRINTABLE = /[\t\u2028\u2029\ud800-\udfff]/;
/**
 * FORBIDDEN_CHAR's plain class and MAYBE_UNPRINTABLE's in one, built from both (so R13's class lives only in
 * yaml-contract.ts): when it finds nothing (the common case), neither needs its own scan.
 */
const FORBIDDEN_OR_UNPRINTABLE = new RegExp(
  FORBIDDEN_OR_SURROGATE.source.slice(0, -1) + MAYBE_UNPRINTABLE.source.slice(1),
);
const FAIL = Symbol("fail");
/** Keys that read as something other than their text (true, false, null), or set the prototype: declined. */
const NOT_PLAIN_KEYS = new Set([
  "__proto__",
  "true",
  "True",
  "TRUE",
  "false",
  "False",
  "FALSE",
  "~",
  "null",
  "Null",
  "NULL",
]);
type Value = unknown | typeof FAIL;

const NL = 0x0a;
const SP = 0x20;
const HASH = 0x23;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const AMPERSAND = 0x26;
const COMMA = 0x2c;
const DASH = 0x2d;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;

/** Where a flow list item's text stops: a flow indicator or a line break (ASCII codes; anything else is text). */
const FLOW_STOP = new Uint8Array(128);
for (const ch of ",[]{}\n") FLOW_STOP[ch.charCodeAt(0)] = 1;

/** ASCII tables by char code: a key's first character [A-Za-z_], its others [A-Za-z0-9_-], a plain scalar's forbidden first character. */
const KEY_START = new Uint8Array(128);
const KEY_CHAR = new Uint8Array(128);
const INDICATOR_START = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  KEY_START[c] = /[A-Za-z_]/.test(ch) ? 1 : 0;
  KEY_CHAR[c] = /[A-Za-z0-9_-]/.test(ch) ? 1 : 0;
  INDICATOR_START[c] = LEADING_INDICATOR.test(ch) ? 1 : 0;
}

/** The text being read and where: one per parse, so no reader allocates to say how far it got. */
interface Scan {
  readonly text: string;
  /** False when MAYBE_UNPRINTABLE finds nothing: then no range needs checking for tabs, surrogates or U+2028/9. */
  readonly dirty: boolean;
  /** Start of the next line to read, and its 0-based number. */
  pos: number;
  line: number;
}

/** A plain scalar we can type with certainty: a string or a boolean; FAIL for anything else. */
function plain(s: string, inFlow: boolean): Value {
  const n = s.length;
  if (n === 0) return FAIL;
  const first = s.charCodeAt(0);
  if (first < 128 ? INDICATOR_START[first] === 1 : LEADING_INDICATOR.test(s)) return FAIL;
  const last = s.charCodeAt(n - 1);
  if (last === SP || last === COLON) return FAIL;
  if (s.includes(": ") || s.includes(" #") || s.includes("\t")) return FAIL;
  if (inFlow && FLOW_INDICATOR.test(s)) return FAIL;
  if (n <= 5) {
    if (s === "true" || s === "True" || s === "TRUE") return true;
    if (s === "false" || s === "False" || s === "FALSE") return false;
    if (s === "~" || s === "null" || s === "Null" || s === "NULL") return FAIL;
  }
  // Past the indicator check, a number can only start with a digit.
  if (first >= 0x30 && first <= 0x39 && NUMBERISH.test(s)) return FAIL;
  return s;
}

/** True when s, written bare, reads back as exactly the string s (used by the emitter). */
export function isPlainSafe(s: string): boolean {
  return PRINTABLE.test(s) && plain(s, false) === s;
}

/** End of the line starting at p (its "\n", or b): regions end at a line's end, so the search stops by b. */
function lineEnd(text: string, p: number, b: number): number {
  const e = text.indexOf("\n", p);
  return e === -1 || e > b ? b : e;
}
const indentAt = (text: string, p: number, e: number): number => {
  let i = p;
  while (i < e && text.charCodeAt(i) === SP) i++;
  return i - p;
};
/** Whether text[a, b) holds a tab or a surrogate: what PRINTABLE refuses in a line that passed FORBIDDEN_CHAR. */
function unprintable(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x09 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}
/** Whether text[a, b) holds U+2028 or U+2029 (a `key: value` line with one is declined). */
function lineSeparator(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}

/** Index of the ':' ending a key at p ([A-Za-z_][A-Za-z0-9_-]*, at most yaml_max_key_length characters), or -1. */
function keyEnd(text: string, p: number, e: number): number {
  const c = text.charCodeAt(p);
  if (!(c < 128 && KEY_START[c] === 1)) return -1;
  let q = p + 1;
  while (q < e) {
    const k = text.charCodeAt(q);
    if (k >= 128 || KEY_CHAR[k] !== 1) break;
    q++;
  }
  return q - p <= LIMITS.yaml_max_key_length && q < e && text.charCodeAt(q) === COLON ? q : -1;
}

/**
 * The fields of schemas/frontmatter.schema.json, by length: a key that is one of them is taken as the
 * constant, so the common case makes no string and its property key is already internalised. Only a
 * speed-up: any other key is sliced from the text, with the same result.
 */
const FIELD_KEYS: string[][] = [];
for (const k of FRONTMATTER_FIELDS) {
  (FIELD_KEYS[k.length] ??= []).push(k);
}
/** The key text[start, colon), as a string. Compared by char code: startsWith at an offset costs more here. */
function keyText(text: string, start: number, colon: number): string {
  const fields = FIELD_KEYS[colon - start];
  if (fields !== undefined) {
    for (const k of fields) {
      let i = 0;
      while (i < k.length && k.charCodeAt(i) === text.charCodeAt(start + i)) i++;
      if (i === k.length) return k;
    }
  }
  return text.slice(start, colon);
}

/** Start of the value after a key's ':' (e when there is none: end of line, or spaces only), or -1 unless spaces separate them. */
function valueStart(scan: Scan, colon: number, e: number): number {
  const text = scan.text;
  let q = colon + 1;
  if (q === e) return e;
  if (text.charCodeAt(q) !== SP) return -1;
  while (q < e && text.charCodeAt(q) === SP) q++;
  return scan.dirty && lineSeparator(text, q, e) ? -1 : q;
}

function scalar(scan: Scan, a: number, b: number): Value {
  const text = scan.text;
  if (a === b || (scan.dirty && unprintable(text, a, b))) return FAIL;
  const c = text.charCodeAt(a);
  if (c === DQUOTE) return doubleQuoted(text, a, b);
  if (c === SQUOTE) {
    // 'text': no quote inside (a doubled one is the authority's), no control character (only a tab can be here).
    return b - a >= 2 && text.charCodeAt(b - 1) === SQUOTE && text.indexOf("'", a + 1) === b - 1
      ? text.slice(a + 1, b - 1)
      : FAIL;
  }
  if (c === LBRACKET) return flowList(text, a, b);
  if (c === AMPERSAND) return anchored(scan, a, b);
  return plain(text.slice(a, b), false);
}

/**
 * `&name value`: an anchor on a scalar or a flow list (R18). No alias can follow in the subset (a `*` never starts a
 * plain scalar or a list item here), so the anchor names nothing and the value is the value's; R16 counts no node
 * for it. The name is held to [A-Za-z0-9_-] (the engine refuses an empty one and warns of one ending in ':'), a
 * space separates it, and what follows is a value of this path that is not itself anchored.
 */
function anchored(scan: Scan, a: number, b: number): Value {
  const text = scan.text;
  let q = a + 1;
  while (q < b) {
    const k = text.charCodeAt(q);
    if (k >= 128 || KEY_CHAR[k] !== 1) break;
    q++;
  }
  if (q === a + 1 || q >= b || text.charCodeAt(q) !== SP) return FAIL;
  while (q < b && text.charCodeAt(q) === SP) q++;
  return q < b && text.charCodeAt(q) !== AMPERSAND ? scalar(scan, q, b) : FAIL;
}

/**
 * A flow list item text[a, b): a plain string, or a decimal integer without sign or leading zero of at most 15
 * digits (exactly the core schema's int, always a safe integer: R17 has nothing to refuse); FAIL for anything else.
 */
function listItem(text: string, a: number, b: number): Value {
  const first = text.charCodeAt(a);
  if (b - a <= 15 && first >= 0x31 && first <= 0x39) {
    let i = a + 1;
    while (i < b && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === b) return Number(text.slice(a, b));
  } else if (b - a === 1 && first === 0x30) return 0;
  const v = plain(text.slice(a, b), true);
  return typeof v === "string" ? v : FAIL;
}

/** A one-line flow list of plain strings and integers, sized exactly (no spare capacity kept with the frontmatter). */
function flowList(text: string, a: number, b: number): Value {
  if (text.charCodeAt(b - 1) !== RBRACKET) return FAIL;
  let p = a + 1;
  let q = b - 1;
  while (p < q && text.charCodeAt(p) === SP) p++;
  while (q > p && text.charCodeAt(q - 1) === SP) q--;
  if (p === q) return [];
  let commas = 0;
  for (let i = p; i < q; i++) if (text.charCodeAt(i) === COMMA) commas++;
  const items: unknown[] = new Array(commas + 1);
  for (let k = 0, s = p; k <= commas; k++) {
    const e = k === commas ? q : text.indexOf(",", s);
    let ps = s;
    let pe = e;
    while (ps < pe && text.charCodeAt(ps) === SP) ps++;
    while (pe > ps && text.charCodeAt(pe - 1) === SP) pe--;
    const v = listItem(text, ps, pe);
    if (v === FAIL) return FAIL;
    items[k] = v;
    s = e + 1;
  }
  return items;
}

/**
 * The escapes of YAML 1.2 §5.7 that name one fixed character (the yaml package's table, less the literal
 * tab PRINTABLE already refuses), as UTF-16 code by escape letter; \x, \u, \U and escaped line breaks are
 * left to the authority.
 */
const ESCAPES = new Uint16Array(128);
for (const [e, c] of Object.entries({
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
})) {
  ESCAPES[e.charCodeAt(0)] = c.charCodeAt(0) || 0xffff; // 0xffff (never printable) stands for \0's NUL, so 0 means "no such escape"
}
const escapeOf = (code: number): number => (code < 128 ? (ESCAPES[code] as number) : 0);

/**
 * A one-line double-quoted scalar at text[a, b) (printable, so BMP only): its value, or FAIL. Decoded into
 * code units in one pass: linear at any size, where string concatenation or a replace callback is not.
 */
function doubleQuoted(text: string, a: number, b: number): Value {
  let escapes = 0;
  let i = a + 1;
  for (; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c === DQUOTE) break;
    if (c === BACKSLASH) {
      if (i + 1 >= b || escapeOf(text.charCodeAt(i + 1)) === 0) return FAIL;
      escapes++;
      i++;
    }
  }
  if (i !== b - 1) return FAIL; // no closing quote, or text after it
  if (escapes === 0) return text.slice(a + 1, i);
  const out = new Uint16Array(i - a - 1 - escapes);
  for (let j = a + 1, n = 0; j < i; j++, n++) {
    const c = text.charCodeAt(j);
    const e = c === BACKSLASH ? escapeOf(text.charCodeAt(++j)) : c;
    out[n] = e === 0xffff ? 0 : e;
  }
  const parts: string[] = [];
  for (let k = 0; k < out.length; k += 4096) parts.push(String.fromCharCode(...out.subarray(k, k + 4096)));
  return parts.join("");
}

/** Block scalar headers this path reads, as flags: the header's own bit, folded (>) and strip (-). */
const BLOCK = 1;
const FOLDED = 2;
const STRIP = 4;
function blockHeader(text: string, a: number, e: number): number {
  const c = text.charCodeAt(a);
  if ((c !== 0x7c && c !== 0x3e) || e - a > 2 || (e - a === 2 && text.charCodeAt(a + 1) !== DASH)) return 0;
  return BLOCK | (c === 0x3e ? FOLDED : 0) | (e - a === 2 ? STRIP : 0);
}
/** "\n" and n spaces: what joins two lines of a block scalar indented by n. */
const LINE_JOINS: string[] = Array.from({ length: 16 }, (_, n) => `\n${" ".repeat(n)}`);

/** The block scalar whose lines are text[a, b) (a `key: |` line's indented lines), or FAIL. */
function blockScalar(scan: Scan, header: number, a: number, b: number): Value {
  const text = scan.text;
  const folded = (header & FOLDED) !== 0;
  // Trailing empty lines are chomped; leading ones, whitespace-only lines and tabs are left to `yaml`.
  let q = b;
  while (q > a && text.charCodeAt(q - 1) === NL) q--;
  if (q === a || text.charCodeAt(a) === NL) return FAIL;
  const n = indentAt(text, a, q);
  let lines = 0;
  for (let p = a; p < q; lines++) {
    const e = lineEnd(text, p, q);
    if (e === p) {
      if (folded) return FAIL;
    } else {
      const ind = indentAt(text, p, e);
      if (ind === e - p || ind < n || (scan.dirty && unprintable(text, p, e))) return FAIL;
      if (folded && (ind !== n || text.charCodeAt(e - 1) === SP)) return FAIL;
    }
    p = e + 1;
  }
  // Every line but an empty one starts with n spaces, so "\n" and n spaces is exactly where two lines meet.
  const keep = (header & STRIP) === 0;
  const stop = keep && q < text.length ? q + 1 : q; // the kept final line break is the source's own
  let value = text.slice(a + n, stop);
  if (lines > 1) value = value.replaceAll(LINE_JOINS[n] ?? `\n${" ".repeat(n)}`, folded ? " " : "\n");
  return keep && stop === q ? `${value}\n` : value;
}

/** Whether text[p, e) is `- ` and more at column p: a block list item. */
const isItem = (text: string, p: number, e: number): boolean =>
  p + 1 < e && text.charCodeAt(p) === DASH && text.charCodeAt(p + 1) === SP;

/**
 * A nested block, text[a, b): a list of scalars, or a mapping whose values may nest further (up to a few
 * levels). Empty lines are skipped; every other line is at least as indented as the first, and tab-free.
 */
function nested(scan: Scan, a: number, b: number, depth: number): Value {
  if (depth > 4) return FAIL;
  const text = scan.text;
  let n = -1;
  let first = a;
  let count = 0;
  for (let p = a; p < b;) {
    const e = lineEnd(text, p, b);
    if (e > p) {
      const ind = indentAt(text, p, e);
      if (n < 0) ((n = ind), (first = p));
      else if (ind < n) return FAIL;
      count++;
    }
    p = e + 1;
  }
  // No line at all, or one at the margin (cannot happen below a key); a tab anywhere (a surrogate fails as a scalar anyway).
  if (n <= 0 || (scan.dirty && unprintable(text, a, b))) return FAIL;
  return isItem(text, first + n, lineEnd(text, first, b))
    ? nestedList(scan, a, b, n, count)
    : nestedMap(scan, a, b, n, depth);
}

/** The list of a nested block whose count lines are all `- item` at indent n; sized exactly. */
function nestedList(scan: Scan, a: number, b: number, n: number, count: number): Value {
  const text = scan.text;
  const list: unknown[] = new Array(count);
  let k = 0;
  for (let p = a; p < b;) {
    const e = lineEnd(text, p, b);
    if (e > p) {
      const s = p + n + 2;
      if (indentAt(text, p, e) !== n || !isItem(text, p + n, e) || text.charCodeAt(s) === SP) return FAIL;
      const v = scalar(scan, s, e);
      if (v === FAIL || Array.isArray(v)) return FAIL;
      list[k++] = v;
    }
    p = e + 1;
  }
  return list;
}

/** The mapping of a nested block at indent n: `key: scalar`, or `key:` over a block indented deeper. */
function nestedMap(scan: Scan, a: number, b: number, n: number, depth: number): Value {
  const text = scan.text;
  const map: Record<string, unknown> = {};
  for (let p = a; p < b;) {
    const e = lineEnd(text, p, b);
    if (e === p) {
      p = e + 1;
      continue;
    }
    if (indentAt(text, p, e) !== n) return FAIL;
    const colon = keyEnd(text, p + n, e);
    const vs = colon < 0 ? -1 : valueStart(scan, colon, e);
    if (vs < 0) return FAIL;
    const k = keyText(text, p + n, colon);
    if (NOT_PLAIN_KEYS.has(k) || Object.hasOwn(map, k)) return FAIL;
    let v: Value;
    p = e + 1;
    if (vs === e) {
      // Its block: the following lines indented deeper than n, and the empty lines among them.
      let end = p;
      while (end < b) {
        const re = lineEnd(text, end, b);
        if (re > end && indentAt(text, end, re) <= n) break;
        end = re + 1;
      }
      end = Math.min(end, b);
      v = nested(scan, p, end, depth + 1);
      p = end;
    } else v = scalar(scan, vs, e);
    if (v === FAIL) return FAIL;
    map[k] = v;
  }
  return map;
}

/** Past a `key:` line: its block, the lines that are empty or start with a space. */
function skipBlock(scan: Scan): void {
  const text = scan.text;
  while (scan.pos < text.length) {
    const c = text.charCodeAt(scan.pos);
    if (c !== NL && c !== SP) return;
    scan.pos = lineEnd(text, scan.pos, text.length) + 1;
    scan.line++;
  }
}

/**
 * A flow list a top-level entry opens on its key line and closes on a later one (`key: [`, lines of `item,`, ` ]`),
 * from text[vs] (its '['; the key line ends at e), scan at the line after the key's; scan moves past the closing line.
 * Items are a one-line list's (listItem), each followed on its own line by ',' or the closing ']' (a trailing comma
 * is YAML 1.2's); a comment starts after a space; every line after the key's is indented and holds something (the
 * engine refuses a flow line at the block's indent). itemLines, when given, gets each item's 0-based line.
 */
function flowBlock(scan: Scan, vs: number, e: number, itemLines?: number[]): Value {
  if (scan.dirty) return FAIL;
  const text = scan.text;
  const items: unknown[] = [];
  let line = scan.line - 1; // the key's line, where text[p, e) is read first
  let p = vs + 1;
  for (;;) {
    while (p < e && text.charCodeAt(p) === SP) p++;
    const c = p < e ? text.charCodeAt(p) : NL;
    if (c === NL || (c === HASH && text.charCodeAt(p - 1) === SP)) {
      // The line ends (after a comment): the list goes on on the next, indented, line.
      if (scan.pos >= text.length) return FAIL;
      p = scan.pos;
      e = lineEnd(text, p, text.length);
      line = scan.line;
      scan.pos = e + 1;
      scan.line++;
      const ind = indentAt(text, p, e);
      if (ind === 0 || p + ind === e) return FAIL;
      p += ind;
    } else if (c === RBRACKET) {
      while (++p < e) if (text.charCodeAt(p) !== SP) return FAIL;
      return items;
    } else if (c === COMMA)
      return FAIL; // an empty item: no item before this ','
    else {
      let q = p;
      while (q < e && !FLOW_STOP[text.charCodeAt(q)]) q++;
      if (q === e || (text.charCodeAt(q) !== COMMA && text.charCodeAt(q) !== RBRACKET)) return FAIL; // not ended on its line
      let t = q;
      while (t > p && text.charCodeAt(t - 1) === SP) t--;
      const v = listItem(text, p, t);
      if (v === FAIL) return FAIL;
      items.push(v);
      itemLines?.push(line);
      p = text.charCodeAt(q) === COMMA ? q + 1 : q; // past the ',', or at the ']'
    }
  }
}

/**
 * Whether text[p, e), a line between top-level entries that starts with a space or a tab, holds only spaces and tabs,
 * then maybe a comment: YAML's empty or comment line (l-comment), nothing to any value. A plain scalar it follows
 * could go on only on a later indented line, which this path never reads as a key: it declines there.
 */
function blankLine(text: string, p: number, e: number): boolean {
  let i = p;
  for (let c = text.charCodeAt(i); i < e && (c === SP || c === 0x09); c = text.charCodeAt(++i));
  return i > p && (i === e || text.charCodeAt(i) === HASH);
}

/** The value of the top-level entry whose key line ends at e, its value starting at vs; scan moves past the entry. */
function entryValue(scan: Scan, vs: number, e: number): Value {
  const header = vs < e ? blockHeader(scan.text, vs, e) : 0;
  scan.pos = e + 1;
  scan.line++;
  if (vs < e && scan.text.charCodeAt(vs) === LBRACKET && scan.text.charCodeAt(e - 1) !== RBRACKET)
    return flowBlock(scan, vs, e);
  if (vs < e && header === 0) return scalar(scan, vs, e);
  const a = Math.min(scan.pos, scan.text.length); // past the end when the key line is the last, unterminated
  skipBlock(scan);
  const b = Math.min(scan.pos, scan.text.length);
  return header === 0 ? nested(scan, a, b, 1) : blockScalar(scan, header, a, b);
}

/**
 * Frontmatter in the subset: its value and key lines, or null to let the authority decide. A frontmatter
 * past yaml_max_nodes is refused here (R16, R21) only where the authority is certain to give the same
 * reason and line: once the entry holding the node counted past the bound is complete (the entry after it is
 * in the subset too, or the text ends), every line up to that node's is YAML, so no syntax error can come
 * first (R25), whatever follows.
 */
export function parseSubset(text: string): SubsetResult | SubsetRefusal | null {
  const suspect = FORBIDDEN_OR_UNPRINTABLE.test(text);
  if (suspect && FORBIDDEN_CHAR.test(text)) return null; // the authority refuses it, with the line
  // Strings are never longer than their source: past skill_md_max_bytes of text, R16's string bound is the authority's.
  if (text.length * 3 > LIMITS.skill_md_max_bytes && Buffer.byteLength(text) > LIMITS.skill_md_max_bytes) return null;
  const scan: Scan = { text, dirty: suspect && MAYBE_UNPRINTABLE.test(text), pos: 0, line: 0 };
  const data: Record<string, unknown> = {};
  const keys: string[] = []; // in the order read, with their lines: the key lines' Map is built only when asked
  const lines: number[] = [];
  const max = LIMITS.yaml_max_nodes;
  // R16's count, from the top-level mapping.
  let nodes = 1;
  let pastLine = 0; // the line of the node counted past yaml_max_nodes, once met
  while (scan.pos < text.length) {
    const start = scan.pos;
    const e = lineEnd(text, start, text.length);
    if (e === start || text.charCodeAt(start) === HASH || blankLine(text, start, e)) {
      scan.pos = e + 1;
      scan.line++;
      continue;
    }
    const colon = keyEnd(text, start, e);
    const vs = colon < 0 ? -1 : valueStart(scan, colon, e);
    if (vs < 0) return null;
    const key = keyText(text, start, colon);
    if (NOT_PLAIN_KEYS.has(key) || Object.hasOwn(data, key)) return null;
    const from = scan.line;
    const value = entryValue(scan, vs, e);
    if (value === FAIL) return null;
    if (pastLine > 0) return tooManyValues(pastLine);
    const before = nodes;
    nodes += 1 + countNodes(value); // the key, then its value
    if (nodes > max) pastLine = nodeLine(scan, start, Math.min(scan.pos, text.length), from, max - before + 1);
    data[key] = value;
    keys.push(key);
    lines.push(from + 1);
  }
  // The whole text is in the subset: the authority reads all of it, and refuses at the same node.
  if (pastLine > 0) return tooManyValues(pastLine);
  return keys.length === 0 ? null : new SubsetAnswer(data, keys, lines);
}

/**
 * An answer with its key lines as a Map built on first use: only a refusal or a warning names a line, so
 * most parses never build it. The keys are kept apart from data, which the caller may go on to change.
 */
class SubsetAnswer implements SubsetResult {
  readonly ok = true;
  #keys: readonly string[];
  #lines: readonly number[];
  #map: Map<string, number> | undefined;
  constructor(
    readonly data: Record<string, unknown>,
    keys: readonly string[],
    lines: readonly number[],
  ) {
    this.#keys = keys;
    this.#lines = lines;
  }
  get keyLines(): Map<string, number> {
    this.#map ??= new Map(this.#keys.map((k, i) => [k, this.#lines[i] as number]));
    return this.#map;
  }
}

const tooManyValues = (line: number): SubsetRefusal => ({
  ok: false,
  reason: message("yaml.too_many_values", { max: LIMITS.yaml_max_nodes }),
  line,
});

/**
 * The 1-based line of node number n (counted as R16 counts, in document order) of the entry at text[start,
 * end), whose key is on line `from` (0-based) and which the subset has read. Every node lies on the line it
 * starts on: a key, an inline or block scalar or flow list on the key's line, a nested mapping or list on its first line.
 */
function nodeLine(scan: Scan, start: number, end: number, from: number, n: number): number {
  const text = scan.text;
  const keyLineEnd = lineEnd(text, start, end);
  const vs = valueStart(scan, keyEnd(text, start, keyLineEnd), keyLineEnd);
  if (n > 2 && text.charCodeAt(vs) === LBRACKET && text.charCodeAt(keyLineEnd - 1) !== RBRACKET) {
    // A flow list over lines (flowBlock): the key, the list, then its items, each on the line it was read on.
    const lines: number[] = [];
    flowBlock({ ...scan, pos: keyLineEnd + 1, line: from + 1 }, vs, keyLineEnd, lines);
    return (lines[n - 3] ?? from) + 1;
  }
  if (valueStart(scan, keyEnd(text, start, keyLineEnd), keyLineEnd) !== keyLineEnd) return from + 1; // a scalar or a flow list: all on the key's line
  let seen = 0;
  let opens = false; // a `key:` whose mapping or list starts on the next line that is not blank
  for (let p = start, line = from; p < end; line++) {
    const e = lineEnd(text, p, end);
    if (e > p) {
      const body = p + indentAt(text, p, e);
      seen += opens ? 1 : 0;
      opens = false;
      if (isItem(text, body, e))
        seen += 1; // a nested list's item: one scalar
      else {
        const colon = keyEnd(text, body, e);
        const vs = colon < 0 ? -1 : valueStart(scan, colon, e);
        opens = vs < 0 || vs === e;
        seen += opens ? 1 : 1 + countNodes(scalar(scan, vs, e));
      }
      if (seen >= n) return line + 1;
    }
    p = e + 1;
  }
  return from + 1;
}

/** Values as R16 counts them: every mapping, list and scalar, keys included. */
function countNodes(v: unknown): number {
  let n = 1;
  if (Array.isArray(v)) for (const x of v) n += countNodes(x);
  else if (v !== null && typeof v === "object") for (const x of Object.values(v)) n += 1 + countNodes(x); // the key, then its value
  return n;
}
