// Validation of one Ollama /api/chat reply before the loop uses it. What the model produced is handed to the loop and
// judged: an answer (empty or not), an answer cut at the token limit (done_reason "length", judged on what was
// produced), a tool call whose arguments are not a JSON object (kept, marked malformed: the loop returns it to the
// model as a tool error). What is not a model turn is a ProviderError, so the trial is an error: a 200 body carrying
// `error`, a reply cut before its `done` line, a missing or null `message`, a tool call without a name (the server
// only reports calls it parsed), a `message.content` of null (the server always sends a string, "" for no text: only a
// broken server or proxy sends null, and an empty answer must not be made of it), a done_reason that is not a chat turn ("load", "unload", unknown). The table is in
// e2e/README.md ("What is judged"). Wire format: https://github.com/ollama/ollama/blob/main/docs/api.md.
// Owns: fromOllamaReply, unparsedToolCall.
import { decodeArguments } from "./arguments.ts";
import { ProviderError, type ChatResponse, type ToolCall } from "./types.ts";

type Parsed = Pick<ChatResponse, "text" | "toolCalls" | "stopReason" | "usage" | "raw" | "reasoning">;

const malformed = (why: string) =>
  new ProviderError(`malformed model response: ${why}`, false, undefined, { code: "bad_response" });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A tool call's arguments by R61 (providers/arguments.ts): an object, or a JSON string of one (recorded). Missing means
 * none. Anything else — text that is not JSON, a JSON array or number — is the model's malformed call: kept as sent
 * and marked, so the loop tells the model and the checker sees it.
 */
function argsOf(a: unknown): Pick<ToolCall, "arguments" | "argumentsEncoding" | "malformed"> {
  if (a === undefined || a === null) return { arguments: {} };
  return decodeArguments(a);
}

/** Tool calls of an Ollama message: the server's ids (synthesised per turn only when it sends none), arguments by R61. */
function toolCallsOf(message: Record<string, unknown>, turn: number): ToolCall[] {
  const raw = message["tool_calls"];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw malformed("message.tool_calls is not an array");
  return raw.map((c: unknown, i) => {
    const fn = isObject(c) ? c["function"] : undefined;
    if (!isObject(fn) || typeof fn["name"] !== "string" || fn["name"] === "")
      throw malformed(`tool call ${i} has no function name`);
    const own = isObject(c) && typeof c["id"] === "string" && c["id"] !== "" ? c["id"] : undefined;
    return {
      id: own ?? `call_${turn}_${i}`,
      idSource: own ? "provider" : "synthesised",
      name: fn["name"],
      ...argsOf(fn["arguments"]),
    };
  });
}

/** The reply as a ChatResponse, or a ProviderError saying why it is not a usable model turn. */
export function fromOllamaReply(res: unknown, turn: number): Parsed {
  if (!isObject(res)) throw malformed("the body is not a JSON object");
  if (res["error"] !== undefined && res["error"] !== null) {
    const e = res["error"];
    throw new ProviderError(
      `Ollama returned an error in a 200 body: ${typeof e === "string" ? e : JSON.stringify(e)}`,
      false,
      undefined,
      { code: "server" },
    );
  }
  if (res["done"] !== true)
    throw malformed(
      `the reply is not complete (done: ${JSON.stringify(res["done"] ?? null)}; a stream cut before its done line?)`,
    );
  const message = res["message"];
  if (!isObject(message))
    throw malformed(
      `message is ${message === null ? "null" : typeof message === "undefined" ? "missing" : "not an object"}`,
    );
  const content = message["content"];
  if (content === null)
    throw malformed(
      "message.content is null (Ollama always sends a string; a broken server or proxy?), not an empty answer",
    );
  if (content !== undefined && typeof content !== "string") throw malformed("message.content is not a string");
  const text = typeof content === "string" ? content : "";
  const toolCalls = toolCallsOf(message, turn);
  const reason = res["done_reason"];
  const usage = {
    ...(typeof res["prompt_eval_count"] === "number" ? { inputTokens: res["prompt_eval_count"] } : {}),
    ...(typeof res["eval_count"] === "number" ? { outputTokens: res["eval_count"] } : {}),
  };
  // The model's thinking is kept and replayed on its turn (R60).
  const reasoning =
    typeof message["thinking"] === "string" && message["thinking"] !== ""
      ? { reasoning: [{ text: message["thinking"] }] }
      : {};
  const out = (stopReason: Parsed["stopReason"]): Parsed => ({
    text,
    toolCalls,
    stopReason,
    usage,
    raw: { done_reason: reason },
    ...reasoning,
  });
  // Ollama only reports a tool call it parsed, whatever the done_reason.
  if (toolCalls.length) return out("tool_use");
  // Cut at the token limit: the model's answer as far as it got, judged like any other (R59).
  if (reason === "length") return out("max_tokens");
  if (reason !== undefined && reason !== null && reason !== "" && reason !== "stop")
    throw malformed(`done_reason ${JSON.stringify(reason)} is not a chat turn`);
  // An empty answer is the model's answer: the checker scores it (R59).
  return out("end");
}

/**
 * Ollama's answer when the model wrote a tool call the server could not parse: HTTP 500 `error parsing tool call:
 * raw='…', err=…` (ollama/ollama#12064, #17638). That is the model's own output, not a server fault: not retried, and
 * handed to the loop as an unusable reply so the model is told and goes on. The server's message, else undefined.
 */
export function unparsedToolCall(status: number | undefined, message: string): string | undefined {
  return status === 500 && /error parsing tool call/i.test(message) ? message : undefined;
}
