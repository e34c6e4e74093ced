// SKILL.md parsing (§4.5, frontmatter-fields.md, R2): split the --- fenced YAML from the body, read it under
// the YAML contract (yaml-contract.ts, R12–R18), validate every known field with the leniency of R19–R20,
// normalise allowed-tools. Common frontmatter takes a verified fast path (yaml-subset.ts). Pure: text in, a
// parsed skill (with its warnings) or a located failure out; never throws. Reasons and warnings are rendered
// from schemas/messages.json (fm.*, R30). A caller may pass a skill's memo slot: the same YAML text under the
// same dir name then gives a copy of the last result without parsing again (R86).
import { FRONTMATTER_FIELDS, LIMITS } from "../schemas/index.ts";
import type { SkillFrontmatter } from "../schemas/index.ts";
import { normalizeAllowedTools } from "./allowed-tools.ts";
import { clip, message } from "./errors.ts";
import { isPlainObject } from "./params.ts";
import { FORBIDDEN_CHAR, codePoints, parseYamlContract, type TextFields, type TextNote } from "./yaml-contract.ts";
import { parseSubset } from "./yaml-subset.ts";

export interface ParsedSkill {
  ok: true;
  frontmatter: SkillFrontmatter;
  body: string;
  /** What was accepted leniently (R19, R20): shown as catalog warnings at discovery. */
  warnings: string[];
}
export interface ParseFailure {
  ok: false;
  code: "INVALID_FRONTMATTER" | "NAME_MISMATCH";
  /** "yaml" for a syntax problem, "field" for a schema problem (the message differs). */
  kind: "yaml" | "field" | "fence";
  reason: string;
  line?: number;
}

const NAME_RE = new RegExp(LIMITS.name_pattern);
/** The optional fields of §4.2–§4.3, in the order their blank form is reported. */
const OPTIONAL_FIELDS = FRONTMATTER_FIELDS.filter((f) => f !== "name" && f !== "description");
/**
 * R93: the fields the contract types as strings (frontmatter.schema.json: name, description, compatibility; R19's
 * license, version, argument-hint) and the values of metadata (frontmatter-fields.md: a map of strings): a plain
 * scalar YAML reads as a number or boolean keeps its source text there (version: 1.10 is "1.10").
 */
const TEXT_FIELDS: TextFields = {
  top: new Set(["name", "description", "compatibility", "license", "version", "argument-hint"]),
  within: new Set(["metadata"]),
};
/** A boolean or a number anywhere in a value (R160: inside a text field's list or mapping too). */
function holdsTyped(v: unknown): boolean {
  if (typeof v === "boolean" || typeof v === "number") return true;
  if (Array.isArray(v)) return v.some(holdsTyped);
  return isPlainObject(v) && Object.values(v).some(holdsTyped);
}
/** Whether the fast path's value holds a boolean or a number (only a flow list's integer) where R93/R160 want text: then the contract reader reads it. */
function holdsTypedText(data: Record<string, unknown>): boolean {
  for (const key of TEXT_FIELDS.top) if (holdsTyped(data[key])) return true;
  for (const key of TEXT_FIELDS.within) {
    const m = data[key];
    if (isPlainObject(m) && holdsTyped(m)) return true;
  }
  return false;
}

/** Whether text[start, end) is a fence line (R2): ---, then only spaces. */
function isFence(text: string, start: number, end: number): boolean {
  if (
    end - start < 3 ||
    text.charCodeAt(start) !== 0x2d ||
    text.charCodeAt(start + 1) !== 0x2d ||
    text.charCodeAt(start + 2) !== 0x2d
  )
    return false;
  for (let i = start + 3; i < end; i++) if (text.charCodeAt(i) !== 0x20) return false;
  return true;
}

/**
 * One skill's last frontmatter that parsed, kept by the registry between discovery and activation:
 * parsing is a pure function of the YAML text and the dir name, so the same text gets the same result
 * without reading it again (R86). parseSkillMd fills it and, on a hit, takes its content out; nothing it
 * hands out aliases what it keeps. Empty until a parse succeeds, and again once taken.
 */
export interface MemoSlot {
  yaml?: string;
  /** A private copy; its name is the dir name it was parsed under (a parse succeeds only when they agree). */
  frontmatter?: SkillFrontmatter;
  warnings?: readonly string[];
}
const NO_WARNINGS: readonly string[] = Object.freeze([]);

export function parseSkillMd(text: string, dirName: string, slot?: MemoSlot): ParsedSkill | ParseFailure {
  try {
    return parseUnsafe(text, dirName, slot);
  } catch (err) {
    // The yaml package can throw on pathological input (alias bombs at toJS, deep nesting): a bound, not a crash.
    const text = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      code: "INVALID_FRONTMATTER",
      kind: "yaml",
      reason: message("fm.yaml_parser", { parser_message: clip(text) }),
    };
  }
}

function parseUnsafe(raw: string, dirName: string, slot: MemoSlot | undefined): ParsedSkill | ParseFailure {
  const unbommed = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  const text = unbommed.includes("\r") ? unbommed.replace(/\r\n/g, "\n") : unbommed;
  const firstEnd = text.indexOf("\n");
  if (!isFence(text, 0, firstEnd === -1 ? text.length : firstEnd)) {
    // §4.5 rule 1: no opening --- means no frontmatter; then the required fields are missing (rule 2).
    return fail("fence", message("fm.no_frontmatter"), 1);
  }
  let pos = firstEnd + 1;
  let lineNo = 2;
  let closeStart = -1;
  let closeEnd = -1;
  while (firstEnd !== -1 && pos <= text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    if (isFence(text, pos, end)) {
      closeStart = pos;
      closeEnd = nl === -1 ? text.length : nl + 1;
      break;
    }
    if (nl === -1) break;
    pos = nl + 1;
    lineNo++;
  }
  if (closeStart === -1) return fail("fence", message("fm.not_closed"), 1);

  const yamlText = text.slice(firstEnd + 1, closeStart);
  const body = text.slice(closeEnd);
  if (slot?.frontmatter !== undefined && slot.yaml === yamlText && slot.frontmatter.name === dirName) {
    // Taken, not copied: the slot is emptied, so what is handed out aliases nothing it keeps (a skill is
    // activated once per session; a later read of the same dir parses again and refills it).
    const frontmatter = slot.frontmatter;
    const warnings = [...(slot.warnings ?? NO_WARNINGS)];
    slot.yaml = slot.frontmatter = slot.warnings = undefined;
    return { ok: true, frontmatter, body, warnings };
  }
  const result = parseYamlPart(yamlText, dirName);
  if (!result.ok) return result;
  if (slot !== undefined) {
    slot.yaml = yamlText;
    slot.frontmatter = copyJson(result.frontmatter) as SkillFrontmatter;
    slot.warnings = result.warnings.length > 0 ? [...result.warnings] : NO_WARNINGS;
  }
  return { ok: true, frontmatter: result.frontmatter, body, warnings: result.warnings };
}

type FrontmatterRead = { ok: true; frontmatter: SkillFrontmatter; warnings: string[] } | ParseFailure;

/** The YAML between the fences: read under the contract, then every known field validated. */
function parseYamlPart(yamlText: string, dirName: string): FrontmatterRead {
  const leniency: string[] = [];
  const fast = parseSubset(yamlText);
  if (fast?.ok && !holdsTypedText(fast.data)) return validate(fast.data, fast, dirName, leniency, undefined);
  // A refusal the fast path certified is the authority's own (R18), and gets the same R20 second reading.
  let parsed = fast !== null && !fast.ok ? fast : parseYamlContract(yamlText, TEXT_FIELDS);
  const hint = parsed.ok ? null : hintAsText(yamlText, parsed.line);
  if (hint) {
    // R19: read again with the line as text; if that fails too, the first error stands (not the second read's).
    const again = parseYamlContract(hint.text, TEXT_FIELDS);
    if (again.ok) {
      parsed = again;
      leniency.push(
        message("fm.argument_hint_as_text", { line: hint.line + 1, text: clip(JSON.stringify(hint.value)) }),
      );
    }
  }
  if (!parsed.ok)
    return {
      ok: false,
      code: "INVALID_FRONTMATTER",
      kind: "yaml",
      reason: parsed.reason,
      ...optLine(parsed.line === undefined ? undefined : parsed.line + 1),
    };
  return validate(parsed.data, parsed, dirName, leniency, parsed.asText);
}

/** Where the line of each top-level key is: asked only to word a failure or a warning (the fast path builds its map then). */
type KeyLines = { readonly keyLines: ReadonlyMap<string, number> };

/** Line of a top-level key in SKILL.md: lines within the YAML text are 1-based; +1 for the opening --- line. */
function keyLineIn(lines: KeyLines, key: string): number | undefined {
  const l = lines.keyLines.get(key);
  return l === undefined ? undefined : l + 1;
}
/** A field failure at its key's line (line 2 when the key has none). */
function fieldFail(lines: KeyLines, key: string, reason: string): ParseFailure {
  return fail("field", reason, keyLineIn(lines, key) ?? 2);
}
/** " at line N" for a warning, or nothing when the key has no line. */
function atLine(lines: KeyLines, key: string): string {
  const l = keyLineIn(lines, key);
  return l === undefined ? "" : message("format.at_line", { line: l });
}

/** Every known field checked (frontmatter-fields.md, R19, R20); the frontmatter as the tool keeps it. */
function validate(
  data: unknown,
  lines: KeyLines,
  dirName: string,
  leniency: string[],
  asText: readonly TextNote[] | undefined,
): FrontmatterRead {
  if (data === null || data === undefined) return fail("field", message("fm.empty"), 2);
  if (!isPlainObject(data))
    return fail("field", message("fm.not_mapping", { got: Array.isArray(data) ? "a list" : typeof data }), 2);

  const name = data["name"];
  // R20: a blank (null) name is missing too, at its key's line; an absent one has no line, so line 2 (fieldFail).
  if (name === undefined || name === null) return fieldFail(lines, "name", message("fm.missing", { field: "name" }));
  if (typeof name !== "string")
    return fieldFail(lines, "name", message("fm.not_string", { field: "name", got: describe(name) }));
  if (name.length === 0 || name.length > LIMITS.name_max_length) {
    return fieldFail(
      lines,
      "name",
      message("fm.name_length", { max: LIMITS.name_max_length, length: codePoints(name) }),
    );
  }
  if (!NAME_RE.test(name)) return fieldFail(lines, "name", message("fm.name_pattern", { value: clip(name, 64) }));
  const description = data["description"];
  if (description === undefined || description === null)
    return fieldFail(lines, "description", message("fm.missing", { field: "description" }));
  if (typeof description !== "string")
    return fieldFail(
      lines,
      "description",
      message("fm.not_string", { field: "description", got: describe(description) }),
    );
  if (description.trim().length === 0) return fieldFail(lines, "description", message("fm.description_empty"));
  const descriptionLength = codePoints(description);
  if (descriptionLength > LIMITS.description_max_length) {
    return fieldFail(
      lines,
      "description",
      message("fm.description_length", { max: LIMITS.description_max_length, length: descriptionLength }),
    );
  }
  if (name !== dirName) {
    return {
      ok: false,
      code: "NAME_MISMATCH",
      kind: "field",
      reason: message("fm.name_mismatch", { value: name, dir_name: clip(dirName, 64) }),
      ...optLine(keyLineIn(lines, "name")),
    };
  }

  const compat = data["compatibility"];
  if (
    compat !== undefined &&
    compat !== null &&
    (typeof compat !== "string" || compat.length === 0 || codePoints(compat) > LIMITS.compatibility_max_length)
  ) {
    return fieldFail(lines, "compatibility", message("fm.compatibility", { max: LIMITS.compatibility_max_length }));
  }
  if (data["metadata"] !== undefined && data["metadata"] !== null && !isPlainObject(data["metadata"])) {
    return fieldFail(lines, "metadata", message("fm.metadata", { got: describe(data["metadata"]) }));
  }
  for (const key of ["disable-model-invocation", "user-invocable"]) {
    if (data[key] !== undefined && data[key] !== null && typeof data[key] !== "boolean")
      return fieldFail(lines, key, message("fm.boolean", { field: key, got: describe(data[key]) }));
  }
  const args = data["arguments"];
  if (args !== undefined && args !== null) {
    if (!isPlainObject(args)) return fieldFail(lines, "arguments", message("fm.arguments", { got: describe(args) }));
    for (const [argName, decl] of Object.entries(args)) {
      if (!isPlainObject(decl))
        return fieldFail(lines, "arguments", message("fm.argument_mapping", { arg: clip(argName, 64) }));
      if (decl["type"] !== undefined && decl["type"] !== "string")
        return fieldFail(
          lines,
          "arguments",
          message("fm.argument_type", { arg: clip(argName, 64), got: describe(decl["type"]) }),
        );
      if (decl["required"] !== undefined && typeof decl["required"] !== "boolean")
        return fieldFail(lines, "arguments", message("fm.argument_required", { arg: clip(argName, 64) }));
      if (decl["description"] !== undefined && typeof decl["description"] !== "string")
        return fieldFail(lines, "arguments", message("fm.argument_description", { arg: clip(argName, 64) }));
    }
  }
  const warnings: string[] = leniency;
  // data is this parse's own fresh mapping (either reader's), used for nothing else: kept as the frontmatter, not copied.
  const frontmatter = data as SkillFrontmatter;
  // R20: a blank optional field (`license:` reads as null) is as if absent: dropped, with a warning.
  // disable-model-invocation is the exception: its default grants more than a blank can mean (fail closed).
  for (const key of OPTIONAL_FIELDS) {
    if (data[key] !== null) continue;
    if (key === "disable-model-invocation") return fieldFail(lines, key, message("fm.disable_model_invocation_empty"));
    delete (frontmatter as Record<string, unknown>)[key];
    warnings.push(message("fm.blank_ignored", { field: key, at: atLine(lines, key) }));
  }
  // R93: what was read as its source text says so, in document order, with what YAML would have read.
  for (const note of asText ?? []) {
    const read =
      typeof note.value === "number" ? `the number ${String(note.value)}` : `the boolean ${String(note.value)}`;
    warnings.push(
      message("fm.kept_as_text", {
        field: note.field,
        source: clip(note.source, 40),
        read: clip(read, 40),
        at: message("format.at_line", { line: note.line + 1 }),
      }),
    );
  }
  // R19: informational fields nothing in the tool acts on are kept as authored, whatever their JSON type.
  for (const key of ["license", "version", "argument-hint"]) {
    const v = data[key];
    if (v !== undefined && v !== null && typeof v !== "string") {
      warnings.push(
        message(Array.isArray(v) ? "fm.kept_list" : "fm.kept_not_string", {
          field: key,
          got: describe(v),
          at: atLine(lines, key),
        }),
      );
    }
  }
  if (data["allowed-tools"] !== undefined && data["allowed-tools"] !== null) {
    const authored = data["allowed-tools"];
    const tools = normalizeAllowedTools(authored);
    if (!tools.ok) return fieldFail(lines, "allowed-tools", tools.reason);
    frontmatter["allowed-tools"] = tools.tools;
    // R94: bounds apply after normalisation. A string split into a list holds one value per tool plus the list: the
    // frontmatter as kept must still be within R16's value bound, or its <frontmatter> would not read back (R17).
    if (
      typeof authored === "string" &&
      tools.tools.length > 1 &&
      valueCount(frontmatter, LIMITS.yaml_max_nodes) > LIMITS.yaml_max_nodes
    ) {
      return fieldFail(lines, "allowed-tools", message("fm.allowed_tools_too_many", { max: LIMITS.yaml_max_nodes }));
    }
  }
  return { ok: true, frontmatter, warnings };
}

const HINT_LINE = /^argument-hint:[ \t]+(.*?)[ \t]*$/;

/**
 * R19: Claude Code's docs write argument-hint unquoted (`[pr-number] [priority] [assignee]`, `[--flag] <file>`),
 * which is not YAML. When the YAML error is on a top-level argument-hint line, that line's value is read as
 * its literal text (spaces and tabs around it stripped) and the frontmatter is read again.
 */
function hintAsText(
  yamlText: string,
  errorLine: number | undefined,
): { text: string; line: number; value: string } | null {
  if (errorLine === undefined || errorLine < 1) return null;
  // Only the error's line is looked at (a refusal of a 1 MiB frontmatter is no reason to split all of it).
  let start = 0;
  for (let l = 1; l < errorLine; l++) {
    const nl = yamlText.indexOf("\n", start);
    if (nl === -1) return null;
    start = nl + 1;
  }
  const nl = yamlText.indexOf("\n", start);
  const end = nl === -1 ? yamlText.length : nl;
  const m = HINT_LINE.exec(yamlText.slice(start, end));
  const value = m?.[1];
  if (!value || value.startsWith('"') || value.startsWith("'") || FORBIDDEN_CHAR.test(value)) return null; // R13 still holds
  return {
    text: `${yamlText.slice(0, start)}argument-hint: ${JSON.stringify(value)}${yamlText.slice(end)}`,
    line: errorLine,
    value,
  };
}

/** R16's count of a JSON value (every mapping, sequence and scalar, keys included), stopping once past `max`. */
function valueCount(value: unknown, max: number): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && n <= max) {
    const v = stack.pop();
    n++;
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === "object") {
      for (const x of Object.values(v)) {
        n++; // its key
        stack.push(x);
      }
    }
  }
  return n;
}

function fail(kind: ParseFailure["kind"], reason: string, line?: number): ParseFailure {
  return { ok: false, code: "INVALID_FRONTMATTER", kind, reason, ...optLine(line) };
}
function optLine(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${clip(JSON.stringify(value) ?? String(value), 40)}`;
}

/**
 * A deep copy of JSON data (what the contract yields, R14): arrays and plain mappings rebuilt with their own
 * keys in order, a "__proto__" key kept as data (S10), scalars shared. So no caller can change a memo.
 */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (value === null || typeof value !== "object") return value;
  // Spread copies own keys in order as data ("__proto__" included) into an object sized for them.
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(out)) {
    const v = out[key];
    if (v !== null && typeof v === "object") out[key] = copyJson(v);
  }
  return out;
}
