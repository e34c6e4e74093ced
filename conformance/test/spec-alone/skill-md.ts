// A SKILL.md read from the spec alone (§4, docs/spec/frontmatter-fields.md): the fences of §4.5 rule 1, YAML into a
// mapping (rule 2), the field rules of §4.1–§4.3, allowed-tools normalised (rule 4), unknown fields kept (rule 5), the
// body verbatim (rule 6, §12 "byte-exact from disk"). Part of the spec-alone implementation (index.ts says which
// choices it makes where the spec is silent); it imports nothing of the kit's reference or decisions.
import { parseDocument } from "yaml";

export type Parsed =
  | { ok: true; frontmatter: Record<string, unknown>; body: string }
  | { ok: false; code: "INVALID_FRONTMATTER"; reason: string };

const bad = (reason: string): Parsed => ({ ok: false, code: "INVALID_FRONTMATTER", reason });
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Choice S1: a fence line is exactly `---`, with an optional CR before its LF (§13.1 case 30: CRLF files parse). */
function fenceEnd(text: string, from: number): number | undefined {
  for (const nl of ["---\n", "---\r\n"]) if (text.startsWith(nl, from)) return from + nl.length;
  if (text.slice(from) === "---") return text.length;
  return undefined;
}

/** §4.5 rule 1: the frontmatter between two --- lines at the top; none opening → no frontmatter; none closing → refused. */
function split(text: string): { yaml: string | undefined; body: string } | undefined {
  const start = fenceEnd(text, 0);
  if (start === undefined) return { yaml: undefined, body: text };
  for (let at = start; at <= text.length;) {
    const end = fenceEnd(text, at);
    if (end !== undefined) return { yaml: text.slice(start, at), body: text.slice(end) };
    const nl = text.indexOf("\n", at);
    if (nl < 0) return undefined;
    at = nl + 1;
  }
  return undefined;
}

/** §4.2: string form split on top-level commas when there are any, else on whitespace; never inside parentheses. */
export function splitTools(value: string): string[] {
  const sep = /,/.test(value.replace(/\([^)]*\)/g, "")) ? "," : "ws";
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of value) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    const cut = depth === 0 && (sep === "," ? ch === "," : /\s/.test(ch));
    if (cut) {
      if (cur.trim()) out.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** The field rules of §4.1–§4.3 (frontmatter-fields.md); the first broken one is the reason. */
function validate(fm: Record<string, unknown>): string | undefined {
  for (const f of ["name", "description"]) if (!(f in fm) || fm[f] === null) return `missing required field '${f}'`;
  if (typeof fm.name !== "string" || fm.name.length < 1 || fm.name.length > 64 || !KEBAB.test(fm.name))
    return "name must be 1-64 characters of lowercase-kebab-case";
  if (typeof fm.description !== "string" || fm.description.trim() === "" || fm.description.length > 1024)
    return "description must be a non-blank string of at most 1024 characters";
  if (
    "compatibility" in fm &&
    (typeof fm.compatibility !== "string" || fm.compatibility.length < 1 || fm.compatibility.length > 500)
  )
    return "compatibility must be a string of 1-500 characters";
  if ("metadata" in fm && !isMap(fm.metadata)) return "metadata must be a mapping";
  for (const f of ["disable-model-invocation", "user-invocable"])
    if (f in fm && typeof fm[f] !== "boolean") return `${f} must be a boolean`;
  if ("arguments" in fm) {
    // §4.3's table: a map name → { type: "string", required?: boolean, description?: string } (§15: strings only).
    if (!isMap(fm.arguments)) return "arguments must be a mapping of names";
    for (const [k, d] of Object.entries(fm.arguments)) {
      if (!isMap(d) || d.type !== "string")
        return `arguments.${k} must be a declaration { type: "string", required?, description? }`;
      if ("required" in d && typeof d.required !== "boolean") return `arguments.${k}.required must be a boolean`;
      if ("description" in d && typeof d.description !== "string") return `arguments.${k}.description must be a string`;
    }
  }
  if ("allowed-tools" in fm) {
    const t = fm["allowed-tools"];
    if (typeof t !== "string" && !(Array.isArray(t) && t.every((x) => typeof x === "string")))
      return "allowed-tools must be a string or a list of strings";
  }
  return undefined;
}

/**
 * Choice S2: the YAML is read by the `yaml` package with its defaults (YAML 1.2 core schema, unique keys, its alias
 * cap); any error it reports, a stack it overflows, or a document that is not a mapping is INVALID_FRONTMATTER.
 */
function load(yaml: string): Record<string, unknown> | string {
  try {
    const doc = parseDocument(yaml);
    if (doc.errors.length) return doc.errors[0]!.message.split("\n")[0]!;
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return {};
    return isMap(value) ? value : "frontmatter is not a mapping";
  } catch (e) {
    return `the YAML could not be read: ${(e as Error).message}`;
  }
}

export function parseSkillMd(text: string): Parsed {
  const parts = split(text);
  if (!parts) return bad("no closing --- line");
  const fm = parts.yaml === undefined ? {} : load(parts.yaml);
  if (typeof fm === "string") return bad(fm);
  const why = validate(fm);
  if (why) return bad(why);
  const tools = fm["allowed-tools"];
  if (typeof tools === "string") fm["allowed-tools"] = splitTools(tools);
  else if (Array.isArray(tools)) fm["allowed-tools"] = tools.map((t: string) => t.trim());
  return { ok: true, frontmatter: fm, body: parts.body };
}
