// The prose table at run time (R30): loads schemas/messages.json and fills its templates. Every
// model-facing text of the reference comes through `message()`, so the table is the only copy of the
// wording, and an implementation in another language that loads the same file renders the same bytes.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MessageTable } from "./types.gen.ts";

export const MESSAGES: MessageTable = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), "messages.json"), "utf8")) as MessageTable;

export type MessageVars = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** Fill one template: one left-to-right pass, values never re-scanned (rules.substitution). */
export function fill(template: string, vars: MessageVars): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => {
    const v = vars[key];
    if (v === undefined) throw new Error(`message placeholder {${key}} has no value`);
    return String(v);
  });
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
