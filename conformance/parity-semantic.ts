// The `semantic` parity level (R30): a projection of what an implementation returned that keeps every
// structured fact and drops the wording. Kinds, codes, structured fields, body, frontmatter, resources,
// bytes, catalog entries, the catalog lines and the <skill> block's structure stay as they are; a prose
// field (message, hint, reason, a warning, an output line) becomes the list of FACTS it carries: which of
// the result's own values (the requested name, the path, the dir, the code, the line, the turn, the
// siblings, the byte count) and which paths it mentions. Two implementations that word their messages
// differently project to the same value; one that drops the name from a message, or changes a code, does not.
import YAML from "yaml";

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Fields whose text is prose: compared for the facts they carry, not their wording. */
export const PROSE_FIELDS = ["message", "hint", "reason"] as const;

/** `s` as a regular expression that matches it literally (parity.ts and parity-fuzz.ts use it too). */
export const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Paths a text mentions (after temp-path normalisation: <tmp>/…, or absolute), trailing punctuation cut. */
function pathsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[\s"'(=:])((?:<tmp>|\/)[^\s"'`,;()]*)/g)) {
    const p = m[1]!.replace(/[.:]+$/, "");
    if (p.length > 1) out.push(p);
  }
  return out;
}

/**
 * True when `value` occurs in `text` as a whole token: not inside a longer name, word or number, and a
 * name not as a segment of a path (so a message that drops the name but keeps the path does not carry it).
 */
function mentions(text: string, value: string): boolean {
  if (!value) return false;
  const before = value.includes("/") ? "(?<![A-Za-z0-9_-])" : "(?<![A-Za-z0-9_./-])";
  return new RegExp(`${before}${escapeRe(value)}(?![A-Za-z0-9_/-])`).test(text);
}

/** Values that are data wherever they appear in prose: the reason NOT_TRUSTED carries. */
const DATA_TOKENS = ["untrusted_project_skill"];

/** The values a result's prose may carry: its structured fields and the name the call asked for. */
export function vocabulary(result: unknown, params?: unknown): string[] {
  const v = new Set<string>();
  const add = (x: unknown) => {
    if (typeof x === "string" && x) v.add(x);
    else if (typeof x === "number") v.add(String(x));
  };
  if (isObj(result)) {
    for (const k of ["name", "dir", "path", "code", "line", "at_turn", "bytes"]) add(result[k]);
    if (Array.isArray(result.siblings)) result.siblings.forEach(add);
  }
  if (isObj(params)) add(params.name);
  DATA_TOKENS.forEach(add);
  return [...v];
}

/** The facts a prose text carries: which vocabulary values it mentions, and every path in it. */
export function factsIn(text: string, vocab: readonly string[]): { facts: string } {
  const facts = new Set<string>(vocab.filter((x) => mentions(text, x)));
  for (const p of pathsIn(text)) facts.add(`path ${p}`);
  // One sorted line, so a missing fact is one difference (with its position), not a shifted list.
  return { facts: [...facts].sort().join(" · ") };
}

/** §3.1's block, by structure: the tag's attributes, the sections in order, each section's content as data, and the note's facts. */
function projectSkillBlock(output: string, vocab: readonly string[]): unknown {
  const end = output.lastIndexOf("</skill>\n");
  if (!output.startsWith("<skill ") || end === -1) return { unparsed: factsIn(output, vocab) };
  const block = output.slice(0, end);
  const open = /^<skill ([^>\n]*)>\n/.exec(block);
  const attrs = Object.fromEntries([...(open?.[1] ?? "").matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  const sections: Obj = {};
  const order: string[] = [];
  for (const m of block.matchAll(/^<(frontmatter|instructions|resources)>\n([\s\S]*?)^<\/\1>$/gm)) {
    order.push(m[1]!);
    sections[m[1]!] = m[2]!;
  }
  if (typeof sections.frontmatter === "string") {
    try {
      sections.frontmatter = { yaml: YAML.parse(sections.frontmatter) as unknown };
    } catch {
      // not YAML: compared as text
    }
  }
  if (typeof sections.resources === "string") sections.resources = sections.resources.split("\n").filter(Boolean);
  return { skill: attrs, sections: order, ...sections, note: factsIn(output.slice(end + "</skill>\n".length), vocab) };
}

/** §3.4's text, by structure: the code on the first line, which labelled lines follow, the path line's value, and the facts. */
function projectErrorOutput(output: string, vocab: readonly string[]): unknown {
  const lines = output.split("\n");
  const code = /^Error \[([A-Z_]+)\]: /.exec(lines[0] ?? "")?.[1] ?? null;
  const labels = lines.slice(1).map((l) => /^([A-Z][a-z]+): /.exec(l)?.[1] ?? "(unlabelled)");
  const path = lines.find((l) => l.startsWith("Path: "))?.slice("Path: ".length);
  return { code, labels, ...(path !== undefined ? { path } : {}), ...factsIn(output, vocab) };
}

/** One result (a normalised `observed` entry) with its prose replaced by the facts it carries. */
export function projectResult(result: unknown, params?: unknown): unknown {
  if (!isObj(result)) return result;
  if ("concurrent" in result || "race" in result) return result; // a batch's or a race's compact observation holds no prose
  const vocab = vocabulary(result, params);
  const out: Obj = { ...result };
  for (const f of PROSE_FIELDS) if (typeof out[f] === "string") out[f] = factsIn(out[f] as string, vocab);
  if (Array.isArray(out.warnings))
    out.warnings = out.warnings.map((w) => (typeof w === "string" ? factsIn(w, vocab) : w));
  if (typeof out.output === "string") {
    const text = out.output;
    out.output =
      result.kind === "ok"
        ? projectSkillBlock(text, vocab)
        : result.kind === "error"
          ? projectErrorOutput(text, vocab)
          : factsIn(text, vocab);
  }
  return out;
}

/** The catalog: entries as they are, the <available_skills> lines as they are, the guidance and the warnings by facts. */
export function projectCatalog(catalog: unknown): unknown {
  if (!isObj(catalog)) return catalog;
  const entries = Array.isArray(catalog.entries) ? catalog.entries : [];
  const vocab = [
    ...new Set(
      entries.flatMap((e) => (isObj(e) ? [e.name, e.dir].filter((x): x is string => typeof x === "string") : [])),
    ),
  ];
  const out: Obj = { ...catalog };
  if (typeof catalog.tool_description === "string") {
    const text = catalog.tool_description;
    const at = text.indexOf("<available_skills>");
    out.tool_description = at === -1 ? { available_skills: null } : { available_skills: text.slice(at).split("\n") };
  }
  if (Array.isArray(catalog.warnings))
    out.warnings = catalog.warnings.map((w) => (typeof w === "string" ? factsIn(w, vocab) : w));
  return out;
}
