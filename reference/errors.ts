// Builds error results (§3.4): a stable code, a one-line message that echoes the name, and the
// "Error [CODE]: message" text with Path / Reason / Hint lines the model reads. Every line's wording
// comes from schemas/messages.json (R30, rules.error_output).
import type { ErrorCode, ErrorResult } from "../schemas/index.ts";
import { message } from "../schemas/messages.ts";

export { clip, message } from "../schemas/messages.ts";

export interface ErrorDetail {
  name?: string;
  path?: string;
  reason?: string;
  line?: number;
  hint?: string;
  warnings?: string[];
}

export function errorResult(code: ErrorCode, text: string, detail: ErrorDetail = {}): ErrorResult {
  const lines = [message("output.error", { code, message: text })];
  if (detail.path !== undefined) lines.push(message("output.error_path", { path: detail.path }));
  if (detail.reason !== undefined) lines.push(message("output.error_reason", { reason: detail.reason }));
  if (detail.hint !== undefined) lines.push(message("output.error_hint", { hint: detail.hint }));
  const result: ErrorResult = { kind: "error", code, message: text, output: lines.join("\n") };
  if (detail.name !== undefined) result.name = detail.name;
  if (detail.path !== undefined) result.path = detail.path;
  if (detail.reason !== undefined) result.reason = detail.reason;
  if (detail.line !== undefined) result.line = detail.line;
  if (detail.hint !== undefined) result.hint = detail.hint;
  if (detail.warnings !== undefined && detail.warnings.length > 0) result.warnings = detail.warnings;
  return result;
}
