// Owns what the compatibility page shows of a rule beside its id: its source, level, statement and citations,
// taken from the rules table as schemas/index.ts reads it (the kit's one reader of schemas/rules.json).
import { rules, type Rule } from "../../schemas/index.ts";
import type { CompatResult } from "./types.ts";

/** Rule id → its source, level, statement and citations. Pure over the rows given (the kit's table by default). */
export function ruleIndex(table: readonly Rule[] = rules()): NonNullable<CompatResult["rules"]> {
  return Object.fromEntries(
    table.map((r) => [r.id, { source: r.source, level: r.level, text: r.statement, cite: r.cites.join(", ") }]),
  );
}
