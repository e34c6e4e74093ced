// Reading one OpenAI-compatible chat-completions reply (vLLM, llama.cpp's server, LM Studio, Ollama's /v1, OpenAI):
// the SSE stream of `chat.completion.chunk` deltas is assembled into one message (text, tool calls whose `id` and
// `function.name` come first and whose `arguments` string accretes by `index`), or a non-streamed `chat.completion`
// is read as is; then the same rules as Ollama and Bedrock decide it (e2e/README.md, "What is judged"): what the model
// produced is judged (finish_reason stop, an empty answer too; length, judged on what was produced; tool calls, the
// arguments string decoded by R61, a malformed one returned to the model as a tool error), what it did not produce is
// an error (content_filter: refused; a stream cut before its finish_reason, a body that is not a completion, tool_calls
// without a call, an unknown finish_reason, a call without a name: malformed_response). Owns: fromChatCompletion,
// assembleStream.
import { decodeArguments } from "./arguments.ts";
import { ProviderError, type ChatResponse, type Reasoning, type ToolCall } from "./types.ts";

type Parsed = Pick<ChatResponse, "text" | "toolCalls" | "stopReason" | "usage" | "raw" | "reasoning">;

const malformed = (why: string) =>
  new ProviderError(`malformed model response: ${why}`, false, undefined, { code: "bad_response" });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** One assembled choice: what a non-streamed `choices[0]` holds. */
export interface Assembled {
  message: { content: string; reasoning: string; tool_calls: { id?: string; name?: string; arguments: string }[] };
  finish_reason: string | null;
  usage?: Record<string, unknown>;
  model?: string;
  system_fingerprint?: string;
}

/**
 * The SSE body as one choice. Tool-call deltas are matched by `index`; a new `id` at an index already holding a call
 * opens a new call (Ollama's /v1 sends every parallel call at index 0, told apart only by id). A `data:` line carrying
 * `error` is the server's error. No `[DONE]` and no finish_reason means the stream was cut.
 */
export function assembleStream(body: string): Assembled {
  const out: Assembled = { message: { content: "", reasoning: "", tool_calls: [] }, finish_reason: null };
  const slots = new Map<number, number>();
  for (const line of body.split(/\r?\n/)) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "[DONE]") break;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw malformed(`a stream line is not JSON: ${data.slice(0, 60)}`);
    }
    if (!isObject(chunk)) continue;
    if (chunk["error"] !== undefined) throw serverError(chunk["error"]);
    if (str(chunk["model"])) out.model = chunk["model"] as string;
    if (str(chunk["system_fingerprint"])) out.system_fingerprint = chunk["system_fingerprint"] as string;
    if (isObject(chunk["usage"])) out.usage = chunk["usage"];
    const choice = Array.isArray(chunk["choices"]) ? chunk["choices"][0] : undefined;
    if (!isObject(choice)) continue;
    const delta = isObject(choice["delta"]) ? choice["delta"] : {};
    out.message.content += str(delta["content"]) ?? "";
    out.message.reasoning += str(delta["reasoning_content"]) ?? str(delta["reasoning"]) ?? "";
    for (const d of Array.isArray(delta["tool_calls"]) ? delta["tool_calls"] : []) {
      if (!isObject(d)) continue;
      const index = typeof d["index"] === "number" ? d["index"] : 0;
      const fn = isObject(d["function"]) ? d["function"] : {};
      const id = str(d["id"]);
      let slot = slots.get(index);
      if (slot === undefined || (id && out.message.tool_calls[slot]!.id && out.message.tool_calls[slot]!.id !== id)) {
        slot = out.message.tool_calls.push({ arguments: "" }) - 1;
        slots.set(index, slot);
      }
      const call = out.message.tool_calls[slot]!;
      if (id) call.id = id;
      if (str(fn["name"])) call.name = (call.name ?? "") + fn["name"];
      if (fn["arguments"] !== undefined)
        call.arguments += typeof fn["arguments"] === "string" ? fn["arguments"] : JSON.stringify(fn["arguments"]);
    }
    if (str(choice["finish_reason"])) out.finish_reason = choice["finish_reason"] as string;
  }
  return out;
}

function serverError(e: unknown): ProviderError {
  const msg = isObject(e) ? (str(e["message"]) ?? JSON.stringify(e)) : String(e);
  return new ProviderError(`the server returned an error: ${msg}`, false, undefined, { code: "server" });
}

/** A non-streamed chat.completion body as one choice. */
function fromBody(res: unknown): Assembled {
  if (!isObject(res)) throw malformed("the body is not a JSON object");
  if (res["error"] !== undefined && res["error"] !== null) throw serverError(res["error"]);
  const choice = Array.isArray(res["choices"]) ? res["choices"][0] : undefined;
  if (!isObject(choice)) throw malformed("choices[0] is missing");
  const m = choice["message"];
  if (!isObject(m)) throw malformed("choices[0].message is missing");
  const calls = Array.isArray(m["tool_calls"]) ? m["tool_calls"] : [];
  return {
    message: {
      content: str(m["content"]) ?? "",
      reasoning: str(m["reasoning_content"]) ?? str(m["reasoning"]) ?? "",
      tool_calls: calls.map((c) => {
        const fn = isObject(c) && isObject(c["function"]) ? c["function"] : {};
        const args = fn["arguments"];
        return {
          ...(isObject(c) && str(c["id"]) ? { id: c["id"] as string } : {}),
          ...(str(fn["name"]) ? { name: fn["name"] as string } : {}),
          arguments: typeof args === "string" ? args : JSON.stringify(args ?? ""),
        };
      }),
    },
    finish_reason: str(choice["finish_reason"]) ?? null,
    ...(isObject(res["usage"]) ? { usage: res["usage"] } : {}),
    ...(str(res["model"]) ? { model: res["model"] as string } : {}),
    ...(str(res["system_fingerprint"]) ? { system_fingerprint: res["system_fingerprint"] as string } : {}),
  };
}

/** The reply (an SSE body when `stream`, else JSON) as a ChatResponse, or a ProviderError saying why it is not a model turn. */
export function fromChatCompletion(body: string, stream: boolean, turn: number): Parsed {
  let a: Assembled;
  if (stream) a = assembleStream(body);
  else {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw malformed(`the body is not JSON: ${body.slice(0, 60)}`);
    }
    a = fromBody(json);
  }
  const toolCalls: ToolCall[] = a.message.tool_calls.map((c, i) => {
    if (!c.name) throw malformed(`tool call ${i} has no function name`);
    // R61: the arguments string decodes to an object; "" means none; anything else is the model's malformed call.
    const args = c.arguments.trim() === "" ? { arguments: {} } : decodeArguments(c.arguments);
    return { id: c.id ?? `call_${turn}_${i}`, idSource: c.id ? "provider" : "synthesised", name: c.name, ...args };
  });
  const u = a.usage ?? {};
  const usage = {
    ...(typeof u["prompt_tokens"] === "number" ? { inputTokens: u["prompt_tokens"] } : {}),
    ...(typeof u["completion_tokens"] === "number" ? { outputTokens: u["completion_tokens"] } : {}),
  };
  const reasoning: Reasoning[] = a.message.reasoning ? [{ text: a.message.reasoning }] : [];
  const raw = {
    finish_reason: a.finish_reason,
    ...(a.model ? { model: a.model } : {}),
    ...(a.system_fingerprint ? { system_fingerprint: a.system_fingerprint } : {}),
  };
  const out = (stopReason: Parsed["stopReason"]): Parsed => ({
    text: a.message.content,
    toolCalls,
    stopReason,
    usage,
    raw,
    ...(reasoning.length ? { reasoning } : {}),
  });
  const reason = a.finish_reason;
  if (reason === null)
    throw malformed(stream ? "the stream ended before a finish_reason (cut off?)" : "finish_reason is missing");
  if (reason === "content_filter")
    throw new ProviderError("the content filter withheld the answer (finish_reason content_filter)", false, undefined, {
      code: "refused",
    });
  if (reason === "tool_calls" || reason === "function_call") {
    if (toolCalls.length === 0) throw malformed(`finish_reason ${reason} without any tool call`);
    return out("tool_use");
  }
  if (reason !== "stop" && reason !== "length")
    throw malformed(`finish_reason ${JSON.stringify(reason)} is not a chat turn`);
  // Some servers say "stop" after a tool call: the call is what the model produced.
  if (toolCalls.length) return out("tool_use");
  return out(reason === "length" ? "max_tokens" : "end");
}
