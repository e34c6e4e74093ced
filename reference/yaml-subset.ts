// A fast path for the YAML that SKILL.md frontmatter almost always is: a flat mapping of plain, quoted,
// boolean, block (| |- > >-) and flow-list scalars, with a few nested levels of mappings or lists. Anything
// outside that subset returns null and goes to the contract parser (yaml-contract.ts), which stays the
// authority: property tests and `npm run fuzz` check that whenever this returns a value, the authority
// returns the same one with the same key lines (R18), and that its one refusal, R16's value bound, is the
// authority's reason and line (R90). Whitespace is YAML's: space (and tab, which this path
// declines), never JavaScript's \s or trim(), which also strip U+00A0, U+3000, VT and more. It exists
// because discovery parses every SKILL.md, and the general parser costs more than reading the files.
import { LIMITS } from "../schemas/index.ts";
import { message } from "../schemas/messages.ts";
import { FORBIDDEN_CHAR } from "./yaml-contract.ts";

export interface SubsetResult {
  ok: true;
  data: Record<string, unknown>;
  /** 1-based line of each top-level key within the YAML text. */
  keyLines: Map<string, number>;
}
/** The one refusal the fast path certifies (R16's value count, R21): exactly the authority's reason and line. */
export interface SubsetRefusal {
  ok: false;
  reason: string;
  line: number;
}

// Keys of at most yaml_max_key_length (128) characters; longer ones are the authority's to refuse.
const KEY = /^([A-Za-z_][A-Za-z0-9_-]{0,127}):(?: +(.*))?$/;
const PRINTABLE = /^[\x20-\x7e\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;
const LEADING_INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`+.\s]/;
const NUMBERISH = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
const NULLISH = /^(?:~|null|Null|NULL)$/;
const TRUE = /^(?:true|True|TRUE)$/;
const FALSE = /^(?:false|False|FALSE)$/;
const SINGLE = /^'([^'\x00-\x1f]*)'$/;
const FAIL = Symbol("fail");
/** Keys that read as something other than their text (TRUE, FALSE, NULLISH), or set the prototype: declined. One lookup, not three regexes. */
const NOT_PLAIN_KEYS = new Set(["__proto__", "true", "True", "TRUE", "false", "False", "FALSE", "~", "null", "Null", "NULL"]);
/** Strip YAML spaces only (never JavaScript's wider trim()). */
const stripSpaces = (s: string): string => {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 32) a++;
  while (b > a && s.charCodeAt(b - 1) === 32) b--;
  return s.slice(a, b);
};
type Value = unknown | typeof FAIL;

/** A plain scalar we can type with certainty: a string or a boolean; FAIL for anything else. */
function plain(s: string, inFlow: boolean): Value {
  if (s.length === 0 || LEADING_INDICATOR.test(s) || s.endsWith(" ") || s.endsWith(":")) return FAIL;
  if (s.includes(": ") || s.includes(" #") || s.includes("\t")) return FAIL;
  if (inFlow && /[,[\]{}:#]/.test(s)) return FAIL;
  if (TRUE.test(s)) return true;
  if (FALSE.test(s)) return false;
  if (NULLISH.test(s) || NUMBERISH.test(s)) return FAIL;
  return s;
}

/** True when s, written bare, reads back as exactly the string s (used by the emitter). */
export function isPlainSafe(s: string): boolean {
  return PRINTABLE.test(s) && plain(s, false) === s;
}

function scalar(s: string): Value {
  if (!PRINTABLE.test(s)) return FAIL;
  const c = s[0];
  if (c === '"') return doubleQuoted(s);
  if (c === "'") {
    const m = SINGLE.exec(s);
    return m ? m[1] : FAIL;
  }
  if (c === "[") {
    if (!s.endsWith("]")) return FAIL;
    const inner = stripSpaces(s.slice(1, -1));
    if (inner.length === 0) return [];
    const items: unknown[] = [];
    for (const part of inner.split(",")) {
      const v = plain(stripSpaces(part), true);
      if (v === FAIL || typeof v !== "string") return FAIL;
      items.push(v);
    }
    return items;
  }
  return plain(s, false);
}

/**
 * The escapes of YAML 1.2 §5.7 that name one fixed character (the yaml package's table, less the literal
 * tab PRINTABLE already refuses), as UTF-16 code by escape letter; \x, \u, \U and escaped line breaks are
 * left to the authority.
 */
const ESCAPES = new Uint16Array(128);
for (const [e, c] of Object.entries({ "0": "\0", a: "\x07", b: "\b", e: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", N: "\u0085", _: "\u00a0", L: "\u2028", P: "\u2029", " ": " ", '"': '"', "/": "/", "\\": "\\" })) {
  ESCAPES[e.charCodeAt(0)] = c.charCodeAt(0) || 0xffff; // 0xffff (never printable) stands for \0's NUL, so 0 means "no such escape"
}
const escapeOf = (code: number): number => (code < 128 ? (ESCAPES[code] as number) : 0);

/**
 * A one-line double-quoted scalar (s is printable, so BMP only): its value, or FAIL. Decoded into code
 * units in one pass: linear at any size, where string concatenation or a replace callback is not.
 */
function doubleQuoted(s: string): Value {
  let escapes = 0;
  let i = 1;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) break;
    if (c === 0x5c) {
      if (escapeOf(s.charCodeAt(i + 1)) === 0) return FAIL;
      escapes++;
      i++;
    }
  }
  if (i !== s.length - 1) return FAIL; // no closing quote, or text after it
  if (escapes === 0) return s.slice(1, -1);
  const out = new Uint16Array(s.length - 2 - escapes);
  for (let j = 1, n = 0; j < i; j++, n++) {
    const c = s.charCodeAt(j);
    const e = c === 0x5c ? escapeOf(s.charCodeAt(++j)) : c;
    out[n] = e === 0xffff ? 0 : e;
  }
  const parts: string[] = [];
  for (let k = 0; k < out.length; k += 4096) parts.push(String.fromCharCode(...out.subarray(k, k + 4096)));
  return parts.join("");
}

const indentOf = (line: string): number => {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  return i;
};

/** The indented lines after a `key:` line (or a block scalar header), up to the next top-level line. */
function blockLines(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && ((lines[i] as string) === "" || (lines[i] as string).startsWith(" "))) i++;
  return i;
}

function blockScalar(header: string, body: readonly string[]): Value {
  // Trailing empty lines are chomped; leading ones, whitespace-only lines and tabs are left to `yaml`.
  let end = body.length;
  while (end > 0 && body[end - 1] === "") end--;
  const content = body.slice(0, end);
  if (content.length === 0 || (content[0] as string) === "") return FAIL;
  const n = indentOf(content[0] as string);
  if (n === 0) return FAIL;
  const out: string[] = [];
  for (const line of content) {
    if (line === "") {
      if (header[0] === ">") return FAIL;
      out.push("");
      continue;
    }
    if (/^[ \t]*$/.test(line) || line.includes("\t") || !PRINTABLE.test(line) || indentOf(line) < n) return FAIL;
    if (header[0] === ">" && (indentOf(line) !== n || line.endsWith(" "))) return FAIL;
    out.push(line.slice(n));
  }
  const text = out.join(header[0] === ">" ? " " : "\n");
  return header.endsWith("-") ? text : `${text}\n`;
}

/** A nested block: a list of scalars, or a mapping whose values may nest further (up to a few levels). */
function nested(body: readonly string[], depth = 1): Value {
  const content = body.filter((l) => l !== "");
  if (content.length === 0 || depth > 4) return FAIL;
  const n = indentOf(content[0] as string);
  if (n === 0 || content.some((l) => indentOf(l) < n || l.includes("\t"))) return FAIL;
  if (content[0]?.slice(n).startsWith("- ")) {
    const list: unknown[] = [];
    for (const line of content) {
      const item = line.slice(n);
      const text = item.slice(2);
      if (indentOf(line) !== n || !item.startsWith("- ") || text.startsWith(" ")) return FAIL;
      const v = scalar(text);
      if (v === FAIL || Array.isArray(v)) return FAIL;
      list.push(v);
    }
    return list;
  }
  const map: Record<string, unknown> = {};
  let i = 0;
  while (i < content.length) {
    const line = content[i] as string;
    if (indentOf(line) !== n) return FAIL;
    const m = KEY.exec(line.slice(n));
    const k = m?.[1];
    if (!m || k === undefined || NOT_PLAIN_KEYS.has(k)) return FAIL;
    if (Object.prototype.hasOwnProperty.call(map, k)) return FAIL;
    const rest = m[2] ?? "";
    let v: Value;
    if (rest === "") {
      let j = i + 1;
      while (j < content.length && indentOf(content[j] as string) > n) j++;
      v = nested(content.slice(i + 1, j), depth + 1);
      i = j;
    } else {
      v = scalar(rest);
      i++;
    }
    if (v === FAIL) return FAIL;
    map[k] = v;
  }
  return map;
}

/**
 * Frontmatter in the subset: its value and key lines, or null to let the authority decide. A frontmatter
 * past yaml_max_nodes is refused here (R16, R21) only where the authority is certain to give the same
 * reason and line: once the entry holding the node counted past the bound is complete (the entry after it is
 * in the subset too, or the text ends), every line up to that node's is YAML, so no syntax error can come
 * first (R25), whatever follows.
 */
export function parseSubset(text: string): SubsetResult | SubsetRefusal | null {
  if (FORBIDDEN_CHAR.test(text)) return null; // the authority refuses it, with the line
  // Strings are never longer than their source: past skill_md_max_bytes of text, R16's string bound is the authority's.
  if (text.length * 3 > LIMITS.skill_md_max_bytes && Buffer.byteLength(text) > LIMITS.skill_md_max_bytes) return null;
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const data: Record<string, unknown> = {};
  const keyLines = new Map<string, number>();
  const max = LIMITS.yaml_max_nodes;
  // R16's count, from the top-level mapping.
  const count = { nodes: 1 };
  let pastLine = 0; // the line of the node counted past yaml_max_nodes, once met
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line === "" || line.startsWith("#")) {
      i++;
      continue;
    }
    const m = KEY.exec(line);
    if (!m) return null;
    const key = m[1] as string;
    if (NOT_PLAIN_KEYS.has(key) || keyLines.has(key)) return null;
    const rest = m[2] ?? "";
    const from = i;
    let value: Value;
    if (rest === "|" || rest === "|-" || rest === ">" || rest === ">-") {
      const end = blockLines(lines, i + 1);
      value = blockScalar(rest, lines.slice(i + 1, end));
      keyLines.set(key, i + 1);
      i = end;
    } else if (rest === "") {
      const end = blockLines(lines, i + 1);
      value = nested(lines.slice(i + 1, end));
      keyLines.set(key, i + 1);
      i = end;
    } else {
      value = scalar(rest);
      keyLines.set(key, i + 1);
      i++;
    }
    if (value === FAIL) return null;
    if (pastLine > 0) return tooManyValues(pastLine);
    const before = count.nodes;
    count.nodes++; // the key
    tally(value, count);
    if (pastLine === 0 && count.nodes > max) pastLine = nodeLine(lines, from, i, max - before + 1);
    if (pastLine === 0) data[key] = value;
  }
  // The whole text is in the subset: the authority reads all of it, and refuses at the same node.
  if (pastLine > 0) return tooManyValues(pastLine);
  return keyLines.size === 0 ? null : { ok: true, data, keyLines };
}

const tooManyValues = (line: number): SubsetRefusal => ({ ok: false, reason: message("yaml.too_many_values", { max: LIMITS.yaml_max_nodes }), line });

/**
 * The 1-based line of node number n (counted as R16 counts, in document order) of the entry on lines
 * [from, to), which the subset has read. Every node lies on the line it starts on: a key, an inline or
 * block scalar or flow list on the key's line, a nested mapping or list on its first line.
 */
function nodeLine(lines: readonly string[], from: number, to: number, n: number): number {
  if ((KEY.exec(lines[from] as string)?.[2] ?? "") !== "") return from + 1; // a scalar or a flow list: all on the key's line
  let seen = 0;
  let opens = false; // a `key:` whose mapping or list starts on the next line that is not blank
  for (let j = from; j < to; j++) {
    const line = lines[j] as string;
    if (line === "") continue;
    const body = line.slice(indentOf(line));
    seen += opens ? 1 : 0;
    opens = false;
    if (body.startsWith("- ")) seen += 1; // a nested list's item: one scalar
    else {
      const rest = KEY.exec(body)?.[2] ?? "";
      opens = rest === "";
      seen += opens ? 1 : 1 + countNodes(scalar(rest));
    }
    if (seen >= n) return j + 1;
  }
  return from + 1;
}

/** Adds v's values as R16 counts them (every mapping, list and scalar, keys included) to t.nodes. */
function tally(v: unknown, t: { nodes: number }): void {
  t.nodes++;
  if (Array.isArray(v)) {
    for (const x of v) tally(x, t);
  } else if (v !== null && typeof v === "object") {
    for (const x of Object.values(v)) {
      t.nodes++; // the key
      tally(x, t);
    }
  }
}

/** Values as R16 counts them: every mapping, list and scalar, keys included. */
function countNodes(v: unknown): number {
  const t = { nodes: 0 };
  tally(v, t);
  return t.nodes;
}
