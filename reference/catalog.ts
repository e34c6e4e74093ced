// The catalog the model sees (§2.2, §7 step 1, R9): the model-facing tool description followed by one
// escaped line per installed skill, each within the §1 budget of 100 tokens (R22: a long description is
// shown cut, in full on activation), and its size in bytes and estimated tokens per skill.
import { LIMITS } from "../schemas/index.ts";
import type { Catalog, CatalogEntry } from "../schemas/index.ts";
import { UNSAFE_CHARACTER, escapeUnsafe, message } from "../schemas/messages.ts";

/** The §2.2 guidance, verbatim (R34), from the message table like every other model-facing text (R30). */
export const TOOL_GUIDANCE = message("tool_description.guidance");

/**
 * R9, written as it is done: entities for & < > " ', then each run of spaces, tabs and line breaks (LF, CR,
 * U+2028, U+2029) that holds a line break becomes one space, each tab left becomes a space, every other unsafe
 * character (rules.unsafe_characters, R91) is shown as a \uXXXX escape, and spaces at both ends are removed.
 * So a description cannot open a tag, start a line, or hide text.
 */
const NEEDS_ESCAPE = new RegExp(`[&<>"']|${UNSAFE_CHARACTER.source}`);
const LINE_BREAK_RUN = /[ \t]*[\r\n\u2028\u2029][ \t\r\n\u2028\u2029]*/g;
const trimSpaces = (s: string): string => {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) === 0x20) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
};

export function escapeCatalogText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return trimSpaces(text); // the common case: one scan instead of eight
  const folded = text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(LINE_BREAK_RUN, " ")
    .replace(/\t/g, " ");
  return trimSpaces(escapeUnsafe(folded));
}

const UNIT =
  /&(?:amp|lt|gt|quot|#39);|\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}|\\u[0-9a-f]{4}|[\ud800-\udbff][\udc00-\udfff]|[^]/y;

/** End of the longest run of whole units of escaped[start…] within maxBytes UTF-8 bytes (R22's unit). */
function unitsWithin(escaped: string, start: number, maxBytes: number): number {
  let bytes = 0;
  let end = start;
  UNIT.lastIndex = start;
  for (let m = UNIT.exec(escaped); m !== null; m = UNIT.exec(escaped)) {
    const b = Buffer.byteLength(m[0], "utf8");
    if (bytes + b > maxBytes) break;
    bytes += b;
    end = UNIT.lastIndex;
  }
  return end;
}

/**
 * R95: the phrase that says when to use a skill, as real descriptions write it ("Use when …", "Use this skill
 * whenever …", "This skill should be used when …", "… when the user asks …", "Trigger when …"), case-insensitive.
 */
export const TRIGGER =
  /\b(?:use (?:this skill |this |it )?(?:when|whenever|for|if|before|after)\b|should be used (?:when|whenever|for|if|before|at)\b|when (?:the )?users?\b|whenever\b|triggers? (?:on|when)\b)/i;
/** A sentence ends at '.', '!' or '?' followed by whitespace or the end of the text. */
const SENTENCE_END = /[.!?](?=\s|$)/g;

/** The sentence holding the first TRIGGER match in escaped text: [start, end), end after its closing punctuation. */
export function triggerSentence(escaped: string): { start: number; end: number } | undefined {
  const m = TRIGGER.exec(escaped);
  if (m === null) return undefined;
  let start = 0;
  let end = escaped.length;
  SENTENCE_END.lastIndex = 0;
  for (let e = SENTENCE_END.exec(escaped); e !== null; e = SENTENCE_END.exec(escaped)) {
    if (e.index < m.index) start = e.index + 1;
    else if (e.index >= m.index + m[0].length) {
      end = e.index + 1;
      break;
    }
  }
  while (start < m.index && escaped.charCodeAt(start) === 0x20) start++;
  return { start, end };
}

/**
 * R22, R95: the escaped description, cut to catalog_entry_description_max_bytes of whole units (an entity, a
 * \uXXXX escape, or one code point) then "…" (format.catalog_cut) when longer, so a catalog line stays within the
 * token budget. When that cut would lose the sentence saying when to use the skill (it starts after the text's
 * first character and ends past the cut), that sentence is kept. R161: the cut form only where something is cut:
 * when the whole text before the sentence and catalog_trigger_sentence_max_bytes of it fit, the plain cut shows
 * both (and the sentence gets all the room the head leaves); only a head that must be cut is shown cut, then "… "
 * and the sentence (cut to catalog_trigger_sentence_max_bytes), then "…" if text follows (format.catalog_cut_trigger).
 * The full description stays in the entry and reaches the model on activation.
 */
export function shownDescription(escaped: string): string {
  const max = LIMITS.catalog_entry_description_max_bytes;
  if (escaped.length <= max / 3 || Buffer.byteLength(escaped, "utf8") <= max) return escaped;
  const plainEnd = unitsWithin(escaped, 0, max);
  const plainCut = () => message("format.catalog_cut", { head: escaped.slice(0, plainEnd) });
  const t = triggerSentence(escaped);
  if (t === undefined || t.start === 0 || t.end <= plainEnd) return plainCut();
  const sentenceEnd = Math.min(t.end, unitsWithin(escaped, t.start, LIMITS.catalog_trigger_sentence_max_bytes));
  const sentenceBytes = Buffer.byteLength(escaped.slice(t.start, sentenceEnd), "utf8");
  // Both bounds in UTF-8 bytes: the room left, and the bytes before the trigger sentence (the head ends no later than it starts).
  const before = Buffer.byteLength(escaped.slice(0, t.start), "utf8");
  // The whole head and the sentence's share fit: the plain cut shows them, and as much more of the sentence as fits.
  if (before + sentenceBytes <= max) return plainCut();
  const headRoom =
    max - sentenceBytes - Buffer.byteLength(message("format.catalog_cut_trigger", { head: "", trigger: "" }), "utf8");
  const head = escaped.slice(0, unitsWithin(escaped, 0, Math.min(headRoom, before))).replace(/ +$/, "");
  if (head === escaped.slice(0, t.start).replace(/ +$/, "")) {
    // Only spaces before the sentence are left out: no cut mark there; one space, and the sentence gets the rest.
    const end = Math.min(t.end, unitsWithin(escaped, t.start, max - Buffer.byteLength(head, "utf8") - 1));
    const joined = `${head} ${escaped.slice(t.start, end)}`;
    return end < escaped.length ? message("format.catalog_cut", { head: joined }) : joined;
  }
  const shown = message("format.catalog_cut_trigger", { head, trigger: escaped.slice(t.start, sentenceEnd) });
  return sentenceEnd < escaped.length ? message("format.catalog_cut", { head: shown }) : shown;
}

/** Appends the pieces of entry's catalog line, `<skill name="…"[ user-only="true"]>…</skill>`, to out. */
function pushCatalogLine(out: string[], entry: CatalogEntry): void {
  const open = entry.frontmatter["disable-model-invocation"] === true ? '" user-only="true">' : '">';
  out.push(
    '<skill name="',
    escapeCatalogText(entry.name),
    open,
    shownDescription(escapeCatalogText(entry.description)),
    "</skill>",
  );
}

export function catalogLine(entry: CatalogEntry): string {
  const parts: string[] = [];
  pushCatalogLine(parts, entry);
  return parts.join("");
}

/**
 * The tool description: the guidance, then `<available_skills>`, each entry's line and a newline, and
 * `</available_skills>`. Built by one join over every line's pieces: at 10,000 skills (~2 MB) a string per
 * line, joined again, is as much work twice.
 */
export function toolDescription(entries: readonly CatalogEntry[]): string {
  const parts: string[] = ["<available_skills>\n"];
  for (const e of entries) {
    pushCatalogLine(parts, e);
    parts.push("\n");
  }
  parts.push("</available_skills>");
  return message("tool_description.layout", { guidance: TOOL_GUIDANCE, available_skills: parts.join("") });
}

export function buildCatalog(entries: CatalogEntry[], warnings: string[]): Catalog {
  return { tool_description: toolDescription(entries), entries, warnings };
}

export interface CatalogSize {
  bytes: number;
  tokens: number;
  guidance: { bytes: number; tokens: number };
  per_skill: { name: string; bytes: number; tokens: number; over_budget: boolean }[];
}

const tokensOf = (bytes: number): number => Math.ceil(bytes / LIMITS.bytes_per_token_estimate);

/** Size of what the model pays for the catalog: bytes of UTF-8, tokens estimated at 4 bytes each. */
export function catalogSize(catalog: Catalog): CatalogSize {
  const bytes = Buffer.byteLength(catalog.tool_description, "utf8");
  const guidance = Buffer.byteLength(TOOL_GUIDANCE, "utf8");
  const per_skill = catalog.entries.map((e) => {
    const b = Buffer.byteLength(catalogLine(e), "utf8") + 1;
    const t = tokensOf(b);
    return { name: e.name, bytes: b, tokens: t, over_budget: t > LIMITS.catalog_tokens_per_skill_budget };
  });
  return { bytes, tokens: tokensOf(bytes), guidance: { bytes: guidance, tokens: tokensOf(guidance) }, per_skill };
}
