// One rule for tool-call arguments on every provider (decision R61), so the same model behaviour scores the same
// whether it came over Ollama or Bedrock. Owns: decodeArguments (wire → ToolCall) and replayArguments (ToolCall → the
// object a wire accepts).
import type { ToolCall } from "./types.ts";

/**
 * A JSON object is kept as is. A string that parses as a JSON object is decoded (some models emit the arguments
 * JSON-encoded; both wires can carry that) and marked "json-string". Anything else (a string that is not a JSON
 * object, an array, a number, null) is kept exactly as sent, marked "not-an-object" and `malformed` with the problem:
 * the loop returns it to the model as a tool error and the checker sees it.
 */
export function decodeArguments(raw: unknown): Pick<ToolCall, "arguments" | "argumentsEncoding" | "malformed"> {
  if (isObject(raw)) return { arguments: raw };
  if (typeof raw === "string") {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObject(parsed)) return { arguments: parsed, argumentsEncoding: "json-string" };
    } catch {
      // not JSON: kept as sent, below
    }
  }
  return { arguments: raw, argumentsEncoding: "not-an-object", malformed: notAnObject(raw) };
}

/** The problem with arguments that are not a JSON object, in words the model can act on. */
export function notAnObject(raw: unknown): string {
  const shown = (typeof raw === "string" ? raw : (JSON.stringify(raw) ?? String(raw))).slice(0, 80);
  const what =
    typeof raw === "string"
      ? "text that is not a JSON object"
      : Array.isArray(raw)
        ? "a JSON array"
        : raw === null
          ? "null"
          : `a ${typeof raw}`;
  return `its arguments are ${what} (${shown}), not a JSON object`;
}

/**
 * What goes back on the wire in the history. Both wires require an object (Ollama `function.arguments`, Converse
 * `toolUse.input` for a JSON-schema tool), so a call whose arguments were not an object is replayed as `{}`; the
 * transcript keeps what the model really sent, and the tool result the model got back already told it the call was
 * malformed.
 */
export function replayArguments(call: ToolCall): Record<string, unknown> {
  return isObject(call.arguments) ? call.arguments : {};
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
