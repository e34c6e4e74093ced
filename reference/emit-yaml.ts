// Re-serialises parsed frontmatter for the <frontmatter> section (§3.1, R1) with a small, fixed set of
// rules any language can reproduce byte for byte: block mappings with two-space indents, block lists of
// scalars, a string bare when it reads back unchanged and JSON-quoted otherwise (JSON strings are YAML),
// lists and maps inside lists in JSON flow style, {} and [] for empty ones.
import { isPlainSafe } from "./yaml-subset.ts";

const KEY_SAFE = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

function scalarText(v: unknown): string {
  if (typeof v === "string") return isPlainSafe(v) ? v : JSON.stringify(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : v > 0 ? ".inf" : v < 0 ? "-.inf" : ".nan";
  if (typeof v === "boolean") return String(v);
  if (v === null || v === undefined) return "null";
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  return JSON.stringify(v) ?? "null";
}

function keyText(k: string): string {
  return KEY_SAFE.test(k) && isPlainSafe(k) ? k : JSON.stringify(k);
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

function emitMap(map: Record<string, unknown>, indent: string, out: string[]): void {
  for (const [k, v] of Object.entries(map)) {
    const key = `${indent}${keyText(k)}:`;
    if (isMap(v) && Object.keys(v).length > 0) {
      out.push(key);
      emitMap(v, `${indent}  `, out);
    } else if (Array.isArray(v) && v.length > 0) {
      out.push(key);
      for (const item of v) out.push(`${indent}  - ${isMap(item) || Array.isArray(item) ? JSON.stringify(item) : scalarText(item)}`);
    } else if (isMap(v)) out.push(`${key} {}`);
    else if (Array.isArray(v)) out.push(`${key} []`);
    else out.push(`${key} ${scalarText(v)}`);
  }
}

export function emitYaml(frontmatter: Record<string, unknown>): string {
  const out: string[] = [];
  emitMap(frontmatter, "", out);
  return out.length > 0 ? `${out.join("\n")}\n` : "{}\n";
}
