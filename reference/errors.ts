// Builds error results (§3.4): a stable code, a one-line message that echoes the name, and the
// "Error [CODE]: message" text with Path / Reason / Hint lines the model reads.
import type { ErrorCode, ErrorResult } from "../schemas/index.ts";

export interface ErrorDetail {
  name?: string;
  path?: string;
  reason?: string;
  line?: number;
  hint?: string;
  warnings?: string[];
}

export function errorResult(code: ErrorCode, message: string, detail: ErrorDetail = {}): ErrorResult {
  const lines = [`Error [${code}]: ${message}`];
  if (detail.path !== undefined) lines.push(`Path: ${detail.path}`);
  if (detail.reason !== undefined) lines.push(`Reason: ${detail.reason}`);
  if (detail.hint !== undefined) lines.push(`Hint: ${detail.hint}`);
  const result: ErrorResult = { kind: "error", code, message, output: lines.join("\n") };
  if (detail.name !== undefined) result.name = detail.name;
  if (detail.path !== undefined) result.path = detail.path;
  if (detail.reason !== undefined) result.reason = detail.reason;
  if (detail.line !== undefined) result.line = detail.line;
  if (detail.hint !== undefined) result.hint = detail.hint;
  if (detail.warnings !== undefined && detail.warnings.length > 0) result.warnings = detail.warnings;
  return result;
}

/** A reason may quote user bytes (a huge name, a YAML line): keep the model-facing text bounded. */
export function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}
