// The reference reworded, for parity (issue 22 item 5): the reference's behaviour, decisions included, but every
// message, reason, hint, warning and output note in its own words (the facts kept: names, paths,
// codes, lines, bytes), §3.4's labelled lines kept, and every result's and catalog entry's keys in the order
// result.schema.json and catalog-entry.schema.json list them. Parity must find no contract difference with it:
// key order is not contract outside a frontmatter (R24), and wording is allowed at the semantic level (R30).
// It follows the kit's decisions, so it is no test of the spec profile: the implementation written from the spec
// alone, with its own choices where the spec is silent, is spec-alone/ (run by spec-alone.test.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Catalog, SkillResult } from "../../schemas/index.ts";
import { wrapReference } from "../mutants/wrap.ts";
import { REPO_ROOT } from "../runner/workspace.ts";

type Obj = Record<string, unknown>;
const schema = (file: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, "schemas", file), "utf8")) as {
    properties?: Obj;
    $defs?: Record<string, { properties?: Obj }>;
  };
const RESULT = schema("result.schema.json");
const ORDER: Record<string, string[]> = {
  ok: Object.keys(RESULT.$defs?.ok?.properties ?? {}),
  already_loaded: Object.keys(RESULT.$defs?.alreadyLoaded?.properties ?? {}),
  not_found: Object.keys(RESULT.$defs?.notFound?.properties ?? {}),
  error: Object.keys(RESULT.$defs?.error?.properties ?? {}),
};
const ENTRY_ORDER = Object.keys(schema("catalog-entry.schema.json").properties ?? {});

/** The keys of `o` in `order`, then any others (from the end, so the difference from the reference's order shows). */
function ordered(o: Obj, order: readonly string[]): Obj {
  const out: Obj = {};
  for (const k of order) if (k in o) out[k] = o[k];
  for (const k of Object.keys(o).reverse()) if (!(k in out)) out[k] = o[k];
  return out;
}

/** Other words around the same facts: a prefix, and a few words of the table's in capitals. */
export const ownWords = (text: string): string =>
  `In other words: ${text.replace(/\b(must|is|has|not|the|a|an|skill|field|line|could|be)\b/g, (w) => w.toUpperCase())}`;

function reword(r: SkillResult): SkillResult {
  const o = { ...(r as unknown as Obj) };
  if (Array.isArray(o.warnings)) o.warnings = (o.warnings as string[]).map(ownWords);
  if (o.kind === "error") {
    for (const f of ["message", "reason", "hint"]) if (typeof o[f] === "string") o[f] = ownWords(o[f] as string);
    // §3.4's structure: the code line, then Path / Reason / Hint, each in these words.
    const lines = [`Error [${String(o.code)}]: ${String(o.message)}`];
    if (o.path !== undefined) lines.push(`Path: ${String(o.path)}`);
    if (o.reason !== undefined) lines.push(`Reason: ${String(o.reason)}`);
    if (o.hint !== undefined) lines.push(`Hint: ${String(o.hint)}`);
    o.output = lines.join("\n");
  } else if (o.kind === "ok") {
    const out = String(o.output);
    const end = out.lastIndexOf("</skill>\n") + "</skill>\n".length;
    o.output = out.slice(0, end) + ownWords(out.slice(end));
  } else {
    o.output = ownWords(String(o.output));
  }
  return ordered(o, ORDER[String(o.kind)] ?? []) as unknown as SkillResult;
}

function rewordCatalog(c: Catalog): Catalog {
  // The tool description is §2.2 verbatim (R34) and the catalog lines are R9's: only warnings are prose.
  return {
    ...c,
    entries: c.entries.map((e) => ordered(e as unknown as Obj, ENTRY_ORDER) as unknown as typeof e),
    warnings: c.warnings.map(ownWords),
  };
}

export const openOwnWords = () => wrapReference("own-words", { result: reword, catalog: rewordCatalog });
