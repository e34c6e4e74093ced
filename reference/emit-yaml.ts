// Re-serialises parsed frontmatter for the <frontmatter> section (§3.1, R1) with a small, fixed set of
// rules any language can reproduce byte for byte: block mappings with two-space indents, block lists of
// scalars, a string bare when it reads back unchanged and JSON-quoted otherwise (JSON strings are YAML),
// lists and maps inside lists in JSON flow style, {} and [] for empty ones. Its input is JSON data as the
// contract parser produces it (R14), so the output always reads back as the same value (R17): quoted strings
// escape every character the contract refuses raw (DEL, C1, U+FEFF, U+FFFE/F), keys are short enough for
// YAML's 1024-character implicit keys, numbers are finite.
import { hexUnits, UNSAFE_CHARACTER } from "../schemas/messages.ts";
import { isPlainSafe } from "./yaml-subset.ts";

/**
 * Characters JSON leaves raw that a frontmatter may not hold raw (R13), and the unsafe characters of R91
 * (U+2028, U+2029, the bidi controls) that would start a line or reorder text in the <frontmatter> the model
 * reads: written as \uXXXX escapes.
 */
const RAW_FORBIDDEN = new RegExp(`[\\x7f-\\x9f\\ufeff\\ufffe\\uffff]|${UNSAFE_CHARACTER.source}`, "g");
/** R147: a character above U+FFFF as YAML's \U and eight hex digits (the contract reads no \u surrogate escape back, R13); one unit as \uXXXX. */
const yamlEscape = (c: string): string =>
  c.length === 2 ? `\\U${(c.codePointAt(0) ?? 0).toString(16).padStart(8, "0")}` : hexUnits(c);
const HAS_RAW_FORBIDDEN = new RegExp(RAW_FORBIDDEN.source);
const quote = (s: string): string => {
  const json = JSON.stringify(s);
  return HAS_RAW_FORBIDDEN.test(json) ? json.replace(RAW_FORBIDDEN, yamlEscape) : json;
};

const KEY_SAFE = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

/** Keys repeat across skills (name, description, allowed-tools, metadata's keys): a short key's text is kept once. */
const KEY_TEXTS_MAX = 4096;
const keyTexts = new Map<string, string>();
function keyText(k: string): string {
  let text = keyTexts.get(k);
  if (text === undefined) {
    text = KEY_SAFE.test(k) && isPlainSafe(k) ? k : quote(k);
    if (k.length <= 64 && keyTexts.size < KEY_TEXTS_MAX) keyTexts.set(k, text);
  }
  return text;
}
/** R1/R92: bare when it reads back unchanged and holds no unsafe character (R91); JSON-quoted otherwise. */
const stringText = (s: string): string => (isPlainSafe(s) && !UNSAFE_CHARACTER.test(s) ? s : quote(s));

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
  if (isMap(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${quote(k)}:${flow(x)}`)
      .join(",")}}`;
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
        for (const item of v)
          out += `${indent}  - ${typeof item === "object" && item !== null ? flow(item) : scalarText(item)}\n`;
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
