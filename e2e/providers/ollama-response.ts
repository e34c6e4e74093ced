// Validation of one Ollama /api/chat reply before the loop uses it: only a finished answer (done: true, a known
// done_reason, some text) or a tool use becomes a ChatResponse; anything else — a 200 body carrying `error`, a reply
// cut before its `done` line, a missing or null `message`, an empty answer, a reply truncated at the token limit, a
// malformed tool call — is a ProviderError, so the trial is an error and never scored as the model's behaviour.
// Wire format: https://github.com/ollama/ollama/blob/main/docs/api.md (POST /api/chat). Owns: fromOllamaReply.
import { ProviderError, type ChatResponse, type ToolCall } from "./types.ts";

type Parsed = Pick<ChatResponse, "text" | "toolCalls" | "stopReason" | "usage" | "raw">;

const malformed = (why: string) => new ProviderError(`malformed model response: ${why}`, false, undefined, { code: "bad_response" });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function parseArgs(a: unknown): unknown {
  if (typeof a !== "string") return a;
  try {
    return JSON.parse(a);
  } catch {
    return a;
  }
}

/** Tool calls of an Ollama message; ids are synthesised per turn (Ollama may send none). */
function toolCallsOf(message: Record<string, unknown>, turn: number): ToolCall[] {
  const raw = message["tool_calls"];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw malformed("message.tool_calls is not an array");
  return raw.map((c: unknown, i) => {
    const fn = isObject(c) ? c["function"] : undefined;
    if (!isObject(fn) || typeof fn["name"] !== "string" || fn["name"] === "") throw malformed(`tool call ${i} has no function name`);
    const id = isObject(c) && typeof c["id"] === "string" && c["id"] !== "" ? c["id"] : `call_${turn}_${i}`;
    return { id, name: fn["name"], arguments: parseArgs(fn["arguments"]) };
  });
}

/** The reply as a ChatResponse, or a ProviderError saying why it is not a usable model turn. */
export function fromOllamaReply(res: unknown, turn: number): Parsed {
  if (!isObject(res)) throw malformed("the body is not a JSON object");
  if (res["error"] !== undefined && res["error"] !== null) {
    const e = res["error"];
    throw new ProviderError(`Ollama returned an error in a 200 body: ${typeof e === "string" ? e : JSON.stringify(e)}`, false, undefined, { code: "server" });
  }
  if (res["done"] !== true) throw malformed(`the reply is not complete (done: ${JSON.stringify(res["done"] ?? null)}; a stream cut before its done line?)`);
  const message = res["message"];
  if (!isObject(message)) throw malformed(`message is ${message === null ? "null" : typeof message === "undefined" ? "missing" : "not an object"}`);
  const content = message["content"];
  if (content !== undefined && content !== null && typeof content !== "string") throw malformed("message.content is not a string");
  const text = typeof content === "string" ? content : "";
  const toolCalls = toolCallsOf(message, turn);
  const reason = res["done_reason"];
  const usage = {
    ...(typeof res["prompt_eval_count"] === "number" ? { inputTokens: res["prompt_eval_count"] } : {}),
    ...(typeof res["eval_count"] === "number" ? { outputTokens: res["eval_count"] } : {}),
  };
  const thinking = typeof message["thinking"] === "string" && message["thinking"] !== "" ? { thinking: message["thinking"] } : {};
  const out = (stopReason: Parsed["stopReason"]): Parsed => ({ text, toolCalls, stopReason, usage, raw: { done_reason: reason, ...thinking } });
  // Ollama only reports a tool call it parsed completely, whatever the done_reason.
  if (toolCalls.length) return out("tool_use");
  if (reason === "length") throw malformed(`the answer was cut at the token limit (done_reason "length")${text.trim() ? "" : " with no text"}`);
  if (reason !== undefined && reason !== null && reason !== "" && reason !== "stop") throw malformed(`done_reason ${JSON.stringify(reason)} is not a finished answer`);
  if (text.trim() === "") throw malformed("an empty answer: no text and no tool calls");
  return out("end");
}
