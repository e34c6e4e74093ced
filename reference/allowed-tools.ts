// Normalises allowed-tools (§4.5 rule 4, frontmatter-fields.md §4.2, R3) to string[]:
// split on top-level commas if any, else top-level whitespace; never inside parentheses.
import { message } from "../schemas/messages.ts";
const WHITESPACE = /\s/;
/** JavaScript's \s for one UTF-16 unit: ASCII by its code, the rest by the regex (no per-character string). */
const isSpace = (text: string, i: number, c: number): boolean =>
  c < 0x80 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) : WHITESPACE.test(text[i] as string);

export function splitAllowedTools(text: string): string[] {
  let depth = 0;
  let hasTopComma = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x28) depth++;
    else if (c === 0x29) depth = Math.max(0, depth - 1);
    else if (c === 0x2c && depth === 0) hasTopComma = true;
  }
  // The pieces between top-level separators, sliced rather than built a character at a time.
  const tools: string[] = [];
  let start = 0;
  depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x28) depth++;
    else if (c === 0x29) depth = Math.max(0, depth - 1);
    if (depth === 0 && (hasTopComma ? c === 0x2c : isSpace(text, i, c))) {
      pushTrimmed(tools, text, start, i);
      start = i + 1;
    }
  }
  pushTrimmed(tools, text, start, text.length);
  return tools.slice(); // exactly sized: a pushed-to [] keeps spare slots, and the frontmatter keeps this list for the session
}

/** Pushes text[start, end) with trim()'s whitespace cut from both ends, unless nothing is left: one string, sliced once. */
function pushTrimmed(tools: string[], text: string, start: number, end: number): void {
  let a = start;
  let b = end;
  while (a < b && isSpace(text, a, text.charCodeAt(a))) a++;
  while (b > a && isSpace(text, b - 1, text.charCodeAt(b - 1))) b--;
  if (b > a) tools.push(text.slice(a, b));
}

/** Returns the normalised list, or a reason when the value has the wrong type. */
export function normalizeAllowedTools(value: unknown): { ok: true; tools: string[] } | { ok: false; reason: string } {
  if (typeof value === "string") return { ok: true, tools: splitAllowedTools(value) };
  if (Array.isArray(value)) {
    const tools: string[] = [];
    for (const [i, item] of value.entries()) {
      if (typeof item !== "string") return { ok: false, reason: message("fm.allowed_tools_item", { index: i }) };
      pushTrimmed(tools, item, 0, item.length);
    }
    return { ok: true, tools: tools.slice() }; // exactly sized, as above
  }
  return { ok: false, reason: message("fm.allowed_tools_type") };
}
