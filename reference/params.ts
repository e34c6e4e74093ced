// Tool-input validation (§2, §2.1, design.md D3, R4): alias pushback first, then unknown keys,
// then name, then the shape of arguments. Pure; never throws, whatever the input.
import { ALIASES, LIMITS } from "../schemas/index.ts";
import type { ErrorResult } from "../schemas/index.ts";
import { clip, errorResult } from "./errors.ts";

export type Arguments = string | Record<string, string>;
export interface ToolParams {
  name: string;
  arguments?: Arguments;
}

const ALIAS = new Map(ALIASES.map((row) => [row.alias, row]));
const NAME_RE = new RegExp(LIMITS.name_pattern);
const HINT = 'Call skill with {"name": "<name from the catalog>"} and, only if the skill takes them, "arguments".';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function invalid(message: string, name?: string): ErrorResult {
  return errorResult("INVALID_PARAM", message, { hint: HINT, ...(name !== undefined ? { name } : {}) });
}

export function parseParams(raw: unknown): { ok: true; value: ToolParams } | { ok: false; error: ErrorResult } {
  if (!isPlainObject(raw)) {
    const got = raw === null ? "null" : Array.isArray(raw) ? "an array" : typeof raw;
    return { ok: false, error: invalid(`skill input must be a JSON object with a "name"; got ${got}`) };
  }
  const keys = Object.keys(raw);
  for (const key of keys) {
    const alias = ALIAS.get(key);
    if (alias === undefined) continue;
    const message =
      alias.action === "rename"
        ? `unknown parameter "${key}": ${alias.note}`
        : `parameter "${key}" is not supported: ${alias.note}`;
    return { ok: false, error: invalid(message) };
  }
  for (const key of keys) {
    if (key !== "name" && key !== "arguments") {
      return { ok: false, error: invalid(`unknown parameter "${clip(key, 64)}": the skill tool takes only "name" and "arguments"`) };
    }
  }
  const name = raw["name"];
  if (name === undefined) return { ok: false, error: invalid('missing required parameter "name"') };
  if (typeof name !== "string") return { ok: false, error: invalid(`"name" must be a string; got ${name === null ? "null" : Array.isArray(name) ? "an array" : typeof name}`) };
  if (name.length === 0) return { ok: false, error: invalid('"name" must not be empty') };
  if (name.length > LIMITS.name_max_length) {
    return { ok: false, error: invalid(`skill name must be at most ${LIMITS.name_max_length} characters; got ${name.length}`) };
  }
  if (!NAME_RE.test(name)) return { ok: false, error: invalid(`skill name must be lowercase-kebab-case; got "${name}"`) };

  const args = raw["arguments"];
  if (args === undefined) return { ok: true, value: { name } };
  if (typeof args === "string") return { ok: true, value: { name, arguments: args } };
  if (isPlainObject(args)) {
    const copy: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries(args)) {
      if (typeof v !== "string") {
        return { ok: false, error: invalid(`argument "${clip(k, 64)}" of skill ${name} must be a string; v1 arguments are strings only`, name) };
      }
      copy[k] = v;
    }
    return { ok: true, value: { name, arguments: copy } };
  }
  const got = args === null ? "null" : Array.isArray(args) ? "an array" : typeof args;
  return { ok: false, error: invalid(`"arguments" must be a string or an object of strings; got ${got}`, name) };
}
