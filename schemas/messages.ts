// The prose table at run time (R30): loads schemas/messages.json and fills its templates. Every
// model-facing text of the reference comes through `message()`, so the table is the only copy of the
// wording, and an implementation in another language that loads the same file renders the same bytes.
import { readFileSync } from "node:fs";
import { dataPath } from "../package-root.ts";
import type { MessageTable } from "./types.gen.ts";

// Through package-root.ts like every data file: compiled, this module sits in dist/schemas/, the table in schemas/.
export const MESSAGES: MessageTable = JSON.parse(
  readFileSync(dataPath("schemas", "messages.json"), "utf8"),
) as MessageTable;

export type MessageVars = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** A template split at its placeholders: literal text at even indexes, placeholder names at odd ones. */
const splitTemplates = new Map<string, readonly string[]>();
const SPLIT_TEMPLATES_MAX = 2048;

function partsOf(template: string): readonly string[] {
  let parts = splitTemplates.get(template);
  if (parts === undefined) {
    parts = template.split(PLACEHOLDER); // the capture group keeps the names between the literal pieces
    if (splitTemplates.size < SPLIT_TEMPLATES_MAX) splitTemplates.set(template, parts);
  }
  return parts;
}

/**
 * rules.unsafe_characters (R91, R147): the characters no value may carry into model-facing text raw. Line breaks
 * (LF, CR, VT, FF, NEL, U+2028, U+2029) would let a value start a line of the tool's own ("Hint: …"); the
 * other C0 and C1 controls, DEL, the bidi controls and every format character (Cf, as a fixed list: the tag block
 * U+E0000–U+E007F smuggles text a reader never sees) would hide or reorder text; a lone surrogate is no character
 * at all. One pattern, shared by the message table, the catalog (R9), the <skill> block (R1), the <frontmatter>
 * section (R92) and substituted argument values (R146). Written for UTF-16 code units (no u flag): a character above
 * U+FFFF is matched as its pair.
 */
export const UNSAFE_CHARACTER =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|\ud804[\udcbd\udccd]|\ud80d[\udc30-\udc3f]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, "g");
/** Each UTF-16 code unit of a match as \u and four lowercase hex digits (a pair is two escapes, as JSON writes it). */
export const hexUnits = (c: string): string => {
  let out = "";
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
};

/** rules.values (R91, R147): each unsafe character of a value written as \u and four lowercase hex digits per UTF-16 code unit; anything else unchanged. */
export function escapeUnsafe(text: string): string {
  return UNSAFE_CHARACTER.test(text) ? text.replace(UNSAFE_CHARACTERS, hexUnits) : text;
}

/** The two placeholders whose values are the tool's own multi-line text (§2.2), not values: filled as they are. */
const OWN_TEXT = new Set(["guidance", "available_skills"]);

/** Fill one template: one left-to-right pass, values never re-scanned (rules.substitution), each escaped (rules.values). */
export function fill(template: string, vars: MessageVars): string {
  const parts = partsOf(template);
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i] as string;
    const v = vars[key];
    if (v === undefined) throw new Error(`message placeholder {${key}} has no value`);
    out += (typeof v === "number" || OWN_TEXT.has(key) ? String(v) : escapeUnsafe(v)) + (parts[i + 1] as string);
  }
  return out;
}

/** The text of message `id` with its placeholders filled. An unknown id is a bug of the caller: it throws. */
export function message(id: string, vars: MessageVars = {}): string {
  const m = MESSAGES.messages[id];
  if (m === undefined) throw new Error(`no message ${id} in schemas/messages.json`);
  return fill(m.text, vars);
}

/** The placeholders a template uses, in order (for the table's own tests and for implementers' tooling). */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** rules.clip: at most `max` code points, else the head and the whole length (format.clip). */
export function clip(text: string, max = 200): string {
  if (text.length <= max) return text; // UTF-16 length ≤ max implies code points ≤ max
  const points = [...text];
  if (points.length <= max) return text;
  return message("format.clip", { head: points.slice(0, max).join(""), length: points.length });
}
