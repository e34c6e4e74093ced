// The provider-neutral contract between the fixed agent loop and every model adapter (ollama, bedrock, scripted).
// Owns: the message/tool/tool-call shapes the loop speaks, the request/response of one model turn, and ProviderError,
// the one error type adapters throw so the scorer can count transport/model failures apart from scenario failures.
// Everything here is plain JSON data (no class instances besides the error) so transcripts can be saved and re-scored.

/** A tool offered to the model. `parameters` is a JSON Schema object (type: "object"). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * One tool call the model made. `id` comes from the provider when it has one (Bedrock `toolUseId`); Ollama gives none,
 * so the adapter synthesises `call_<turn>_<index>`, which is stable across re-runs of the same transcript.
 * `arguments` is the parsed JSON value when the provider gave parseable JSON, else the raw string the model produced
 * (kept so a checker can see a malformed call rather than a silently emptied one).
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError?: boolean };

export interface ChatRequest {
  /** The conversation so far; the first message is the system prompt. */
  messages: Message[];
  tools: ToolSpec[];
  temperature: number;
  seed?: number;
  maxTokens?: number;
  /** Which trial this turn belongs to. Real models never see it; the scripted adapter picks its policy by it. */
  context?: { scenario: string; trial: number };
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
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
  /** Whether this provider has anything to play for a scenario (a per-scenario bad policy does not); absent → all. */
  appliesTo?(scenario: string): boolean;
  /** Release sockets (Bedrock keeps HTTP/2 sessions open). Safe to call more than once. */
  close?(): void;
}

/**
 * What went wrong, coarsely, so the CLI can group errors and decide what to tell the user:
 * unreachable (no server / connection refused), model_not_found, auth (credentials / access), throttled, timeout,
 * bad_request (the provider rejected the request), server (5xx), aborted (caller cancelled), bad_response, unknown.
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
