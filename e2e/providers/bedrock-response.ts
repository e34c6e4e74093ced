// Validation of one Bedrock Converse reply before the loop uses it. Every stopReason is decided here (the table is in
// e2e/README.md, "What is judged"). What the model produced reaches the loop and is judged: end_turn / stop_sequence
// (an answer, empty or not), tool_use, max_tokens (judged on what was produced; its tool uses run),
// malformed_tool_use and malformed_model_output (the model's output the service could not read: its tool uses are
// returned to the model as tool errors, or, with none, the model is told and goes on). What the model did not produce
// is a ProviderError, so the trial is an error: guardrail_intervened and content_filtered (the provider withheld the
// answer), model_context_window_exceeded, an unknown or missing reason, tool_use without a toolUse block, a missing
// output.message. StopReason enum: @aws-sdk/client-bedrock-runtime models/enums. Owns: fromConverseReply.
import { decodeArguments } from "./arguments.ts";
import { ProviderError, type ChatResponse, type ProviderErrorCode, type Reasoning, type ToolCall } from "./types.ts";

type Parsed = Pick<ChatResponse, "text" | "toolCalls" | "stopReason" | "usage" | "raw" | "reasoning" | "unusable">;

const malformed = (why: string) =>
  new ProviderError(`malformed model response: ${why}`, false, undefined, { code: "bad_response" });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Stop reasons whose turn the model did not produce (or that the provider withheld): the trial is an error. */
const NOT_THE_MODELS: Record<string, { code: ProviderErrorCode; why: string }> = {
  guardrail_intervened: { code: "refused", why: "a guardrail withheld the answer (stopReason guardrail_intervened)" },
  content_filtered: { code: "refused", why: "the content filter withheld the answer (stopReason content_filtered)" },
  model_context_window_exceeded: {
    code: "context_window",
    why: "the conversation exceeded the model's context window (stopReason model_context_window_exceeded)",
  },
};

/** Stop reasons that are the model's own output, judged. */
const JUDGED = new Set([
  "end_turn",
  "stop_sequence",
  "tool_use",
  "max_tokens",
  "malformed_tool_use",
  "malformed_model_output",
]);

export function fromConverseReply(res: unknown): Parsed {
  if (!isObject(res)) throw malformed("the reply is not an object");
  const stop = res["stopReason"];
  const message = isObject(res["output"]) ? res["output"]["message"] : undefined;
  const withheld = typeof stop === "string" ? NOT_THE_MODELS[stop] : undefined;
  if (withheld) throw new ProviderError(withheld.why, false, undefined, { code: withheld.code });
  if (typeof stop !== "string" || !JUDGED.has(stop))
    throw malformed(`unknown stopReason ${JSON.stringify(stop ?? null)}`);
  // The service could not read what the model wrote: every tool use of the turn goes back as a tool error.
  const flagged =
    stop === "malformed_tool_use" || stop === "malformed_model_output"
      ? `the service reported the model's output as malformed (stopReason ${stop})`
      : undefined;
  if (!isObject(message)) throw malformed("output.message is missing");
  const blocks = message["content"];
  if (!Array.isArray(blocks)) throw malformed("output.message.content is not an array");
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const reasoning: Reasoning[] = [];
  for (const [i, b] of blocks.entries()) {
    if (!isObject(b)) throw malformed(`content block ${i} is not an object`);
    if (typeof b["text"] === "string") texts.push(b["text"]);
    const use = b["toolUse"];
    if (use !== undefined) {
      if (
        !isObject(use) ||
        typeof use["name"] !== "string" ||
        use["name"] === "" ||
        typeof use["toolUseId"] !== "string"
      ) {
        throw malformed(`content block ${i} is a toolUse without a name or toolUseId`);
      }
      // R61: an object, or a JSON string of one, is a tool call; a missing or non-object input is the model's
      // malformed call, kept and marked so the loop returns it as a tool error.
      const args =
        use["input"] === undefined
          ? { arguments: undefined, argumentsEncoding: "not-an-object" as const, malformed: "it has no input" }
          : decodeArguments(use["input"]);
      toolCalls.push({
        id: use["toolUseId"],
        idSource: "provider",
        name: use["name"],
        ...args,
        ...(flagged ? { malformed: flagged } : {}),
      });
    }
    // Reasoning is kept and replayed on its turn (R62): text with its signature, or the redacted bytes as base64.
    const r = b["reasoningContent"];
    if (isObject(r) && r["redactedContent"] instanceof Uint8Array)
      reasoning.push({ redacted: Buffer.from(r["redactedContent"]).toString("base64") });
    else if (isObject(r) && isObject(r["reasoningText"]) && typeof r["reasoningText"]["text"] === "string") {
      const t = r["reasoningText"];
      reasoning.push({
        text: t["text"] as string,
        ...(typeof t["signature"] === "string" ? { signature: t["signature"] } : {}),
      });
    }
  }
  const text = texts.join("\n");
  const u = isObject(res["usage"]) ? res["usage"] : {};
  const usage = {
    ...(typeof u["inputTokens"] === "number" ? { inputTokens: u["inputTokens"] } : {}),
    ...(typeof u["outputTokens"] === "number" ? { outputTokens: u["outputTokens"] } : {}),
  };
  const out = (stopReason: Parsed["stopReason"]): Parsed => ({
    text,
    toolCalls,
    stopReason,
    usage,
    raw: { stopReason: stop },
    ...(reasoning.length ? { reasoning } : {}),
  });
  if (stop === "tool_use" && toolCalls.length === 0) throw malformed("stopReason tool_use without any toolUse block");
  if (toolCalls.length) return out("tool_use");
  // No tool use to answer: the model is told its output could not be read, and goes on.
  if (flagged) return { ...out("other"), unusable: flagged };
  // Cut at the token limit: judged on what was produced. An empty answer is the model's answer (R59).
  return out(stop === "max_tokens" ? "max_tokens" : "end");
}
