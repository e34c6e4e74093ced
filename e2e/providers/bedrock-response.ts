// Validation of one Bedrock Converse reply before the loop uses it. Every stopReason is decided here: end_turn and
// stop_sequence with text are a finished answer, tool_use with toolUse blocks a tool use; max_tokens (truncated),
// guardrail_intervened and content_filtered (the service withheld the answer), malformed_model_output,
// malformed_tool_use, model_context_window_exceeded, an unknown or missing reason, or an empty answer are a
// ProviderError, so the trial is an error and never scored as the model's behaviour.
// StopReason enum: @aws-sdk/client-bedrock-runtime models/enums (Converse API reference). Owns: fromConverseReply.
import { ProviderError, type ChatResponse, type ToolCall } from "./types.ts";

type Parsed = Pick<ChatResponse, "text" | "toolCalls" | "stopReason" | "usage" | "raw">;

const malformed = (why: string) => new ProviderError(`malformed model response: ${why}`, false, undefined, { code: "bad_response" });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Why a stop reason is not a usable model turn; undefined for the ones that are. */
const NOT_AN_ANSWER: Record<string, string> = {
  max_tokens: "the answer was cut at the token limit (stopReason max_tokens)",
  guardrail_intervened: "a guardrail withheld the answer (stopReason guardrail_intervened)",
  content_filtered: "the content filter withheld the answer (stopReason content_filtered)",
  malformed_model_output: "the model produced malformed output (stopReason malformed_model_output)",
  malformed_tool_use: "the model produced a malformed tool use (stopReason malformed_tool_use)",
  model_context_window_exceeded: "the conversation exceeded the model's context window (stopReason model_context_window_exceeded)",
};

export function fromConverseReply(res: unknown): Parsed {
  if (!isObject(res)) throw malformed("the reply is not an object");
  const stop = res["stopReason"];
  const message = isObject(res["output"]) ? res["output"]["message"] : undefined;
  if (typeof stop === "string" && NOT_AN_ANSWER[stop]) throw malformed(NOT_AN_ANSWER[stop]!);
  if (stop !== "end_turn" && stop !== "stop_sequence" && stop !== "tool_use") throw malformed(`unknown stopReason ${JSON.stringify(stop ?? null)}`);
  if (!isObject(message)) throw malformed("output.message is missing");
  const blocks = message["content"];
  if (!Array.isArray(blocks)) throw malformed("output.message.content is not an array");
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const [i, b] of blocks.entries()) {
    if (!isObject(b)) throw malformed(`content block ${i} is not an object`);
    if (typeof b["text"] === "string") texts.push(b["text"]);
    const use = b["toolUse"];
    if (use !== undefined) {
      if (!isObject(use) || typeof use["name"] !== "string" || use["name"] === "" || typeof use["toolUseId"] !== "string") {
        throw malformed(`content block ${i} is a toolUse without a name or toolUseId`);
      }
      toolCalls.push({ id: use["toolUseId"], name: use["name"], arguments: use["input"] });
    }
  }
  const text = texts.join("\n");
  const u = isObject(res["usage"]) ? res["usage"] : {};
  const usage = {
    ...(typeof u["inputTokens"] === "number" ? { inputTokens: u["inputTokens"] } : {}),
    ...(typeof u["outputTokens"] === "number" ? { outputTokens: u["outputTokens"] } : {}),
  };
  const out = (stopReason: Parsed["stopReason"]): Parsed => ({ text, toolCalls, stopReason, usage, raw: { stopReason: stop } });
  if (stop === "tool_use" && toolCalls.length === 0) throw malformed("stopReason tool_use without any toolUse block");
  if (toolCalls.length) return out("tool_use");
  if (text.trim() === "") throw malformed(`an empty answer: no text and no tool use (stopReason ${stop})`);
  return out("end");
}
