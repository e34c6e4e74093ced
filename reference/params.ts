// Tool-input validation (§2, §2.1, design.md D3, R4): alias pushback first, then unknown keys,
// then name, then the shape of arguments. Pure; never throws, whatever the input. Wording: schemas/messages.json.
import { ALIASES, LIMITS } from "../schemas/index.ts";
import type { ErrorResult } from "../schemas/index.ts";
import { clip, errorResult, message } from "./errors.ts";

export type Arguments = string | Record<string, string>;
export interface ToolParams {
  name: string;
  arguments?: Arguments;
}

const ALIAS = new Map(ALIASES.map((row) => [row.alias, row]));
const NAME_RE = new RegExp(LIMITS.name_pattern);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function invalid(text: string, name?: string): ErrorResult {
  return errorResult("INVALID_PARAM", text, { hint: message("param.hint"), ...(name !== undefined ? { name } : {}) });
}

export function parseParams(raw: unknown): { ok: true; value: ToolParams } | { ok: false; error: ErrorResult } {
  if (!isPlainObject(raw)) {
    return { ok: false, error: invalid(message("param.not_object", { got: jsonType(raw) })) };
  }
  const keys = Object.keys(raw);
  for (const key of keys) {
    const alias = ALIAS.get(key);
    if (alias === undefined) continue;
    return {
      ok: false,
      error: invalid(
        message(alias.action === "rename" ? "param.alias_rename" : "param.alias_drop", { key, note: alias.note }),
      ),
    };
  }
  for (const key of keys) {
    if (key !== "name" && key !== "arguments") {
      return { ok: false, error: invalid(message("param.unknown", { key: clip(key, 64) })) };
    }
  }
  const name = raw["name"];
  if (name === undefined) return { ok: false, error: invalid(message("param.name_missing")) };
  if (typeof name !== "string")
    return { ok: false, error: invalid(message("param.name_type", { got: jsonType(name) })) };
  if (name.length === 0) return { ok: false, error: invalid(message("param.name_empty")) };
  if (name.length > LIMITS.name_max_length) {
    return {
      ok: false,
      error: invalid(message("param.name_too_long", { max: LIMITS.name_max_length, length: [...name].length })),
    };
  }
  if (!NAME_RE.test(name)) return { ok: false, error: invalid(message("param.name_pattern", { name })) };

  const args = raw["arguments"];
  if (args === undefined) return { ok: true, value: { name } };
  if (typeof args === "string") return withinBound(name, args, Buffer.byteLength(args, "utf8"));
  if (isPlainObject(args)) {
    const copy: Record<string, string> = Object.create(null) as Record<string, string>;
    let size = 0;
    for (const [k, v] of Object.entries(args)) {
      if (typeof v !== "string") {
        return { ok: false, error: invalid(message("param.argument_type", { key: clip(k, 64), name }), name) };
      }
      copy[k] = v;
      size += Buffer.byteLength(k, "utf8") + Buffer.byteLength(v, "utf8");
    }
    return withinBound(name, copy, size);
  }
  return { ok: false, error: invalid(message("param.arguments_type", { got: jsonType(args) }), name) };
}

/** R144: arguments of at most arguments_max_bytes (a string's UTF-8 bytes, or a map's keys and values summed); the last parameter check. */
function withinBound(
  name: string,
  args: Arguments,
  size: number,
): { ok: true; value: ToolParams } | { ok: false; error: ErrorResult } {
  if (size <= LIMITS.arguments_max_bytes) return { ok: true, value: { name, arguments: args } };
  return {
    ok: false,
    error: errorResult(
      "INVALID_PARAM",
      message("param.arguments_too_large", { size, limit: LIMITS.arguments_max_bytes }),
      { name, hint: message("args.too_large_hint") },
    ),
  };
}

/** The {got} of param.* messages: the JSON type of a value (placeholders.got). */
function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
