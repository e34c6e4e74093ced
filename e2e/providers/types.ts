// The provider-neutral contract between the fixed agent loop and every model adapter (ollama, bedrock, scripted).
// Owns: the message/tool/tool-call shapes the loop speaks, the request/response of one model turn, and ProviderError,
// the one error type adapters throw so the scorer can count transport/model failures apart from scenario failures.
import type { SkillResult } from "../../schemas/index.ts";
import type { ServedModel } from "./registry.ts";

// Everything here is plain JSON data (no class instances besides the error) so transcripts can be saved and re-scored.

/** A tool offered to the model. `parameters` is a JSON Schema object (type: "object"). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * One tool call the model made. `id` is the provider's own (Bedrock `toolUseId`, Ollama `tool_calls[].id`) and is sent
 * back with the result; only when the provider gives none does the adapter synthesise `call_<turn>_<index>`
 * (`idSource` says which). `arguments` follows one rule on every provider (providers/arguments.ts, decision R61):
 * an object is kept; a string holding a JSON object is decoded (`argumentsEncoding: "json-string"`); any other value
 * is kept as sent (`"not-an-object"`) so a checker sees the malformed call rather than a silently emptied one.
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
  /** Where the id came from; absent on old transcripts (= provider for Bedrock, synthesised for Ollama). */
  idSource?: "provider" | "synthesised";
  /** How the arguments arrived when not as a JSON object; absent = an object. */
  argumentsEncoding?: "json-string" | "not-an-object";
  /**
   * Why this call cannot be run although the model made it (arguments that are not a JSON object, a call the service
   * reported as malformed). The loop does not run it: the model gets a tool error naming the problem and goes on
   * (decision R61). Absent = a well-formed call.
   */
  malformed?: string;
}

/**
 * A model's reasoning, kept in the transcript and replayed in the history so a thinking model keeps its reasoning
 * between tool steps. Ollama: `message.thinking` (text only). Bedrock: a `reasoningContent` block, either
 * `reasoningText` {text, signature} or `redactedContent` (bytes, kept base64). Replayed only to the provider that
 * produced it.
 */
export interface Reasoning {
  text?: string;
  signature?: string;
  /** base64 of Bedrock's redactedContent bytes. */
  redacted?: string;
}

export type Message =
  | { role: "system"; content: string }
  | {
      role: "user";
      content: string;
      /** The loop's note that the model's last reply could not be used (never a scenario prompt). */ notice?: boolean;
    }
  | { role: "assistant"; content: string; toolCalls: ToolCall[]; reasoning?: Reasoning[] }
  | {
      role: "tool";
      toolCallId: string;
      name: string;
      content: string;
      isError?: boolean;
      /** A skill call's structured result, for scripted self-test policies only: no adapter ever sends it to a model. */
      result?: SkillResult;
    };

export interface ChatRequest {
  /** The conversation so far; the first message is the system prompt. */
  messages: Message[];
  tools: ToolSpec[];
  temperature: number;
  seed?: number;
  maxTokens?: number;
  /** Which trial this turn belongs to. Real models never see it; the scripted adapter picks its policy by it. */
  context?: { scenario: string; trial: number };
  /** Told about each failed attempt that will be retried, so a slow call is visible while it happens. */
  onRetry?: (info: { attempt: number; delayMs: number; error: string }) => void;
}

export type StopReason = "tool_use" | "end" | "max_tokens" | "other";

export interface ChatResponse {
  text: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  usage?: { inputTokens?: number; outputTokens?: number };
  /** The provider's own response body (JSON), for debugging a transcript; never read by checkers. */
  raw?: unknown;
  /** How many requests this turn took (1 = no retry). */
  attempts?: number;
  /** Which of the request's sampling settings actually reached the model on this turn. */
  sampling?: SamplingApplied;
  /** The sampling settings this turn's request actually carried, as named on the wire (e.g. Ollama's options). */
  sent?: Record<string, unknown>;
  /** The model's reasoning for this turn (kept and replayed; see Reasoning). */
  reasoning?: Reasoning[];
  /**
   * Set when the model's reply held a tool call that could not be read at all, so there is no call to answer (Ollama's
   * HTTP 500 "error parsing tool call", Bedrock's malformed_tool_use / malformed_model_output without a usable block):
   * the problem, in words. The loop tells the model and goes on, as for a malformed call (decision R61).
   */
  unusable?: string;
  /**
   * What the adapter changed about the request or the reply, in words, for the transcript (e.g. "toolResult.status
   * dropped: the service rejected it; retried once"). Empty when nothing was changed.
   */
  adjustments?: string[];
}

/**
 * Whether a sampling setting is passed to the model. Reports must show it: a Bedrock "seed" is never sent (Converse has
 * no seed) and some models reject `temperature`, so a requested value is not necessarily an applied one.
 */
export interface SamplingApplied {
  temperature: boolean;
  seed: boolean;
}

export interface ModelProvider {
  /** e.g. "ollama:qwen3:8b", "bedrock:us.anthropic.claude-opus-4-7", "scripted:good" — the spec it was made from. */
  readonly id: string;
  /** "scripted" results are harness self-tests and must never be reported as model results. */
  readonly kind: "real" | "scripted";
  /** What this provider can pass to the model; per-turn truth is ChatResponse.sampling. */
  readonly sampling?: SamplingApplied;
  /** What serves the model, as the probe found it (providers/registry.ts); recorded in every transcript's meta. */
  readonly served?: ServedModel;
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
  /** Whether this provider has anything to play for a scenario (a per-scenario bad policy does not); absent → all. */
  appliesTo?(scenario: string): boolean;
  /** Release sockets (Bedrock keeps HTTP/2 sessions open). Safe to call more than once. */
  close?(): void;
}

/**
 * What went wrong, coarsely, so the CLI can group errors and decide what to tell the user:
 * unreachable (no server / connection refused), model_not_found, auth (credentials / access), throttled, timeout,
 * bad_request (the provider rejected the request), server (5xx), aborted (caller cancelled), bad_response (a reply
 * that is not a model turn), refused (the provider withheld the model's answer: content filter, guardrail),
 * context_window (the conversation no longer fits the model), unknown.
 */
export type ProviderErrorCode =
  | "unreachable"
  | "model_not_found"
  | "auth"
  | "throttled"
  | "timeout"
  | "bad_request"
  | "server"
  | "aborted"
  | "bad_response"
  | "refused"
  | "context_window"
  | "unknown";

/**
 * A transport or model-side failure. `transient` says whether retrying could help; by the time a caller sees one,
 * retries are already spent. The message ends with what the user must do (start, pull, set) where that is known.
 */
export class ProviderError extends Error {
  override readonly name = "ProviderError";
  readonly code: ProviderErrorCode;
  readonly status: number | undefined;
  /** Requests made before giving up (set by the retry loop). */
  attempts: number | undefined;

  constructor(
    message: string,
    readonly transient: boolean,
    override readonly cause?: unknown,
    extra: { code?: ProviderErrorCode; status?: number; attempts?: number } = {},
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = extra.code ?? "unknown";
    this.status = extra.status;
    this.attempts = extra.attempts;
  }

  /** Transcripts are JSONL; an Error serialises to {} by default. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      code: this.code,
      transient: this.transient,
      status: this.status,
      attempts: this.attempts,
    };
  }
}
