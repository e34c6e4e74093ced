// Owns reading what the rule table (schemas/rules.json, issue 19 item 1) says of each rule, so the page
// can show a failing rule's statement and citation beside its id. Tolerant of the table's exact layout
// (an array of rows, or { rules: [...] }); without the table the page shows ids only.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CompatResult } from "./types.ts";

type Row = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : Array.isArray(v) && v.every((x) => typeof x === "string") && v.length ? v.join(", ") : undefined);

/** Rule id → its source, level, statement and citation, from the table's rows. Pure. */
export function ruleIndex(table: unknown): NonNullable<CompatResult["rules"]> {
  const rows: unknown[] = Array.isArray(table) ? table : Array.isArray((table as { rules?: unknown })?.rules) ? (table as { rules: unknown[] }).rules : [];
  const out: NonNullable<CompatResult["rules"]> = {};
  for (const r of rows) {
    if (!r || typeof r !== "object" || typeof (r as Row).id !== "string") continue;
    const row = r as Row;
    const entry: NonNullable<CompatResult["rules"]>[string] = {};
    const source = str(row.source), level = str(row.level);
    const text = str(row.statement) ?? str(row.text) ?? str(row.title) ?? str(row.summary);
    const cite = str(row.cites) ?? str(row.cite) ?? str(row.section) ?? str(row.spec) ?? str(row.ref);
    if (source) entry.source = source;
    if (level) entry.level = level;
    if (text) entry.text = text;
    if (cite) entry.cite = cite;
    out[row.id as string] = entry;
  }
  return out;
}

export function readRuleTable(root: string): CompatResult["rules"] | undefined {
  const file = join(root, "schemas", "rules.json");
  if (!existsSync(file)) return undefined;
  try {
    return ruleIndex(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return undefined;
  }
}
