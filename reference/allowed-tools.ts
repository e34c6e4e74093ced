// Normalises allowed-tools (§4.5 rule 4, frontmatter-fields.md §4.2, R3) to string[]:
// split on top-level commas if any, else top-level whitespace; never inside parentheses.
import { message } from "../schemas/messages.ts";
export function splitAllowedTools(text: string): string[] {
  let depth = 0;
  let hasTopComma = false;
  for (const ch of text) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (ch === "," && depth === 0) hasTopComma = true;
  }
  const parts: string[] = [];
  let current = "";
  depth = 0;
  for (const ch of text) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    const isSep = depth === 0 && (hasTopComma ? ch === "," : /\s/.test(ch));
    if (isSep) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Returns the normalised list, or a reason when the value has the wrong type. */
export function normalizeAllowedTools(value: unknown): { ok: true; tools: string[] } | { ok: false; reason: string } {
  if (typeof value === "string") return { ok: true, tools: splitAllowedTools(value) };
  if (Array.isArray(value)) {
    const tools: string[] = [];
    for (const [i, item] of value.entries()) {
      if (typeof item !== "string") return { ok: false, reason: message("fm.allowed_tools_item", { index: i }) };
      const t = item.trim();
      if (t.length > 0) tools.push(t);
    }
    return { ok: true, tools };
  }
  return { ok: false, reason: message("fm.allowed_tools_type") };
}
