// Re-serialises parsed frontmatter for the <frontmatter> section (§3.1, R1) with a small, fixed set of
// rules any language can reproduce byte for byte: block mappings with two-space indents, block lists of
// scalars, a string bare when it reads back unchanged and JSON-quoted otherwise (JSON strings are YAML),
// lists and maps inside lists in JSON flow style, {} and [] for empty ones. Its input is JSON data as the
// contract parser produces it (R14), so the output always reads back as the same value (R17): quoted strings
// escape every character the contract refuses raw (DEL, C1, U+FEFF, U+FFFE/F), keys are short enough for
// YAML's 1024-character implicit keys, numbers are finite.
import { isPlainSafe } from "./yaml-subset.ts";

/** Characters JSON leaves raw that a frontmatter may not hold raw (R13): written as \uXXXX escapes. */
const RAW_FORBIDDEN = /[\x7f-\x9f\ufeff\ufffe\uffff]/g;
const HAS_RAW_FORBIDDEN = /[\x7f-\x9f\ufeff\ufffe\uffff]/;
const quote = (s: string): string => {
  const json = JSON.stringify(s);
  return HAS_RAW_FORBIDDEN.test(json) ? json.replace(RAW_FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : json;
};

const KEY_SAFE = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

/** Leading characters that make a bare string read as something else (YAML indicators, and what the reader declines: + . space). */
const LEADING = new Uint8Array(128);
for (const c of "-?:,[]{}#&*!|>'\"%@`+. ") LEADING[c.charCodeAt(0)] = 1;
/** Characters JavaScript's \s takes as space beyond ASCII (a bare string may not start with one); the reader's LEADING_INDICATOR has \s. */
const isWideSpace = (c: number): boolean => c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
/** Printable as the reader's PRINTABLE has it: no C0, DEL, C1, surrogate, U+FEFF, U+FFFE or U+FFFF. */
const isPrintable = (c: number): boolean => c >= 0x20 && (c < 0x7f || (c >= 0xa0 && (c < 0xd800 || (c >= 0xe000 && c !== 0xfeff && c < 0xfffe))));

/**
 * R1's bare-string rule (isPlainSafe's answer) in one pass over s: the characters and pairs that force
 * quoting are found here; a string that could read as true/false/null or a number (it starts with a digit,
 * or is at most five characters starting with t, f, n or ~) goes to isPlainSafe itself. Activation renders
 * every string of a frontmatter once, just after the syscalls have cooled the caches: one loop over the
 * string costs a fraction of the reader's regexes or a memo's hash table (R23). emit-yaml.test.ts checks
 * it against isPlainSafe.
 */
export function bareSafe(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  const c0 = s.charCodeAt(0);
  if (c0 < 128 ? LEADING[c0] === 1 : isWideSpace(c0)) return false;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (!isPrintable(c) || (c === 0x20 && prev === 0x3a) || (c === 0x23 && prev === 0x20)) return false; // not printable, ": " or " #"
    prev = c;
  }
  if (prev === 0x20 || prev === 0x3a) return false;
  const couldBeWord = n <= 5 && (c0 === 0x74 || c0 === 0x54 || c0 === 0x66 || c0 === 0x46 || c0 === 0x6e || c0 === 0x4e || c0 === 0x7e);
  return (c0 >= 0x30 && c0 <= 0x39) || couldBeWord ? isPlainSafe(s) : true;
}

/** Keys repeat across skills (name, description, allowed-tools, metadata's keys): a short key's text is kept once. */
const KEY_TEXTS_MAX = 4096;
const keyTexts = new Map<string, string>();
function keyText(k: string): string {
  let text = keyTexts.get(k);
  if (text === undefined) {
    text = KEY_SAFE.test(k) && bareSafe(k) ? k : quote(k);
    if (k.length <= 64 && keyTexts.size < KEY_TEXTS_MAX) keyTexts.set(k, text);
  }
  return text;
}
const stringText = (s: string): string => (bareSafe(s) ? s : quote(s));

function scalarText(v: unknown): string {
  if (typeof v === "string") return stringText(v);
  if (typeof v === "number") {
    // An integral double past ±(2^53-1) came from a float (R14 refuses such integers): it stays a float.
    const t = String(v);
    return Number.isSafeInteger(v) || !/^-?[0-9]+$/.test(t) ? t : `${t}.0`;
  }
  if (typeof v === "boolean") return String(v);
  if (v === null || v === undefined) return "null";
  return JSON.stringify(v) ?? "null";
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** JSON flow style for a list or mapping inside a list, with the same escapes as quoted scalars. */
function flow(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(flow).join(",")}]`;
  if (isMap(v)) return `{${Object.entries(v).map(([k, x]) => `${quote(k)}:${flow(x)}`).join(",")}}`;
  return typeof v === "string" ? quote(v) : scalarText(v);
}

/** The block lines of a mapping at an indent, each ending in a newline; "" for an empty one. One string, built as it goes. */
function emitMap(map: Record<string, unknown>, indent: string): string {
  let out = "";
  for (const k of Object.keys(map)) {
    const v = map[k];
    const key = `${indent}${keyText(k)}:`;
    if (typeof v !== "object" || v === null) out += `${key} ${scalarText(v)}\n`;
    else if (Array.isArray(v)) {
      if (v.length === 0) out += `${key} []\n`;
      else {
        out += `${key}\n`;
        for (const item of v) out += `${indent}  - ${typeof item === "object" && item !== null ? flow(item) : scalarText(item)}\n`;
      }
    } else {
      const inner = emitMap(v as Record<string, unknown>, `${indent}  `);
      out += inner === "" ? `${key} {}\n` : `${key}\n${inner}`;
    }
  }
  return out;
}

export function emitYaml(frontmatter: Record<string, unknown>): string {
  return emitMap(frontmatter, "") || "{}\n";
}
