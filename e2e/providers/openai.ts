// The OpenAI-compatible adapter: `openai:<model>` against any server speaking the chat-completions API (vLLM,
// llama.cpp's server, LM Studio, Ollama's /v1, OpenAI itself) at a base URL (--openai-base-url or $OPENAI_BASE_URL,
// e.g. http://127.0.0.1:8000/v1), with plain fetch: no SDK, so nothing but the wire format is assumed. Streams
// (`stream: true`, usage in the last chunk) and assembles the deltas (openai-response.ts); tools go as `type: function`
// with the JSON Schema; the model's tool calls come back with their ids and go back in the history with arguments as a
// JSON string; results go as role "tool" with `tool_call_id`. Reasoning (`reasoning_content` / `reasoning`) is recorded,
// not replayed (the chat-completions request has no field for it). $OPENAI_API_KEY, when set, is sent as a bearer
// token; it never appears in a transcript. Retries and budgets as for the other providers (retry.ts). --max-tokens goes
// in max_completion_tokens for OpenAI's own model families (o1, o3, gpt-5…: they refuse max_tokens) and in max_tokens
// for any other model (what vLLM, llama.cpp, LM Studio and Ollama's /v1 read); --openai-token-field overrides (E1).
// Owns: OPENAI (the registry entry), openaiProvider, probeOpenAI, toChatMessages, chatCompletionBody.
import { replayArguments } from "./arguments.ts";
import { fromChatCompletion } from "./openai-response.ts";
import { optionOf, type ProviderContext, type ProviderEntry, type ServedModel } from "./registry.ts";
import {
  CallTimeoutError,
  callRetryOptions,
  connectionCodeOf,
  finalError,
  httpStatusOf,
  withRetry,
  withTimeout,
} from "./retry.ts";
import {
  ProviderError,
  type ChatRequest,
  type ChatResponse,
  type Message,
  type ModelProvider,
  type ToolSpec,
} from "./types.ts";

export interface OpenAIOptions {
  model: string;
  /** The API root, ending before /chat/completions (e.g. http://127.0.0.1:8000/v1). */
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  budgetMs?: number;
  /** Ask for a stream (default true); a server that answers with one JSON body is read as well. */
  stream?: boolean;
  /** The field --max-tokens is sent in (default: tokenFieldFor(model)). */
  tokenField?: TokenField;
}

export const TOKEN_FIELDS = ["max_tokens", "max_completion_tokens"] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];

/**
 * Decision E1: where the output-token bound goes. OpenAI deprecated max_tokens for max_completion_tokens, and its
 * reasoning models (o1, o3, o4-mini, gpt-5…) refuse max_tokens; self-hosted servers read max_tokens (some know no
 * other). So a model of OpenAI's own families (o<digit>…, gpt-…, chatgpt-…, codex-…, also behind a router's
 * "openai/" prefix) gets max_completion_tokens, any other model max_tokens; the flag decides when given.
 */
export function tokenFieldFor(model: string, given?: string): TokenField {
  if (given !== undefined) return given as TokenField;
  return /^(?:openai\/)?(?:o\d|gpt-|chatgpt-|codex-)/i.test(model) ? "max_completion_tokens" : "max_tokens";
}

/** An HTTP error with its status (retry.ts reads `status`) and the server's message. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const trimSlash = (u: string) => u.replace(/\/+$/, "");

export function toChatMessages(messages: Message[]): Record<string, unknown>[] {
  return messages.map((m) => {
    switch (m.role) {
      case "system":
      case "user":
        return { role: m.role, content: m.content };
      case "assistant":
        return {
          role: "assistant",
          content: m.content === "" && m.toolCalls.length ? null : m.content,
          ...(m.toolCalls.length
            ? {
                tool_calls: m.toolCalls.map((c) => ({
                  id: c.id,
                  type: "function",
                  function: { name: c.name, arguments: JSON.stringify(replayArguments(c)) },
                })),
              }
            : {}),
        };
      case "tool":
        return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

const toTools = (tools: ToolSpec[]) =>
  tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));

/** The sampling part of a request: what is recorded as sent. */
function sampling(req: ChatRequest, tokenField: TokenField): Record<string, unknown> {
  return {
    temperature: req.temperature,
    ...(req.seed !== undefined ? { seed: req.seed } : {}),
    ...(req.maxTokens !== undefined ? { [tokenField]: req.maxTokens } : {}),
  };
}

export function chatCompletionBody(
  model: string,
  req: ChatRequest,
  stream: boolean,
  tokenField: TokenField = tokenFieldFor(model),
): Record<string, unknown> {
  return {
    model,
    messages: toChatMessages(req.messages),
    ...(req.tools.length ? { tools: toTools(req.tools) } : {}),
    ...sampling(req, tokenField),
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
}

function headers(apiKey: string | undefined): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  };
}

async function errorText(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    return (typeof j.error === "string" ? j.error : j.error?.message) ?? j.message ?? text;
  } catch {
    return text.slice(0, 300);
  }
}

function advice(id: string, baseUrl: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const status = httpStatusOf(err);
  const msg = (err as Error)?.message ?? String(err);
  if (err instanceof CallTimeoutError)
    return new ProviderError(`${id}: ${msg} (raise --timeout)`, true, err, { code: "timeout" });
  // vLLM and llama.cpp answer 400 when the prompt no longer fits: not the model's output.
  if (
    status === 400 &&
    /context length|context window|maximum context|too many tokens|exceeds the available context/i.test(msg)
  ) {
    return new ProviderError(`${id}: the conversation exceeded the model's context window: ${msg}`, false, err, {
      code: "context_window",
      status,
    });
  }
  if (status === 401 || status === 403)
    return new ProviderError(
      `${id}: access denied (HTTP ${status}): ${msg} — set OPENAI_API_KEY for ${baseUrl}`,
      false,
      err,
      { code: "auth", status },
    );
  if (status === 404)
    return new ProviderError(
      `${id}: not found at ${baseUrl} (HTTP 404): ${msg} — check the model name and that the base URL ends where /chat/completions starts (e.g. …/v1)`,
      false,
      err,
      { code: "model_not_found", status },
    );
  if (status !== undefined) {
    const code = status === 429 ? "throttled" : status >= 500 ? "server" : "bad_request";
    return new ProviderError(`${id}: HTTP ${status}: ${msg}`, status === 429 || status >= 500, err, { code, status });
  }
  const conn = connectionCodeOf(err);
  if (conn)
    return new ProviderError(
      `${id}: cannot reach ${baseUrl} (${conn}): start the server, or set --openai-base-url / OPENAI_BASE_URL to where it listens`,
      conn !== "ENOTFOUND",
      err,
      { code: "unreachable" },
    );
  return new ProviderError(`${id}: ${msg}`, false, err, { code: "unknown" });
}

export function openaiProvider(opts: OpenAIOptions): ModelProvider {
  const id = `openai:${opts.model}`;
  const base = trimSlash(opts.baseUrl);
  const timeoutMs = opts.timeoutMs ?? 300_000;
  const maxMs = opts.maxDelayMs ?? 20_000;
  const stream = opts.stream ?? true;
  const tokenField = opts.tokenField ?? tokenFieldFor(opts.model);
  return {
    id,
    kind: "real",
    sampling: { temperature: true, seed: true },
    async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      const turn = req.messages.filter((m) => m.role === "assistant").length;
      const body = JSON.stringify(chatCompletionBody(opts.model, req, stream, tokenField));
      const once = async (s: AbortSignal) => {
        const res = await fetch(`${base}/chat/completions`, {
          method: "POST",
          headers: headers(opts.apiKey),
          body,
          signal: s,
        });
        if (!res.ok) throw new HttpError(res.status, await errorText(res));
        return {
          text: await res.text(),
          streamed: (res.headers.get("content-type") ?? "").includes("text/event-stream"),
        };
      };
      let result;
      try {
        result = await withRetry(
          (_attempt, left) => withTimeout(once, Math.min(timeoutMs, left), signal),
          callRetryOptions(opts, 3, { timeoutMs, maxMs }, req, signal),
        );
      } catch (err) {
        throw finalError(err, (e) => advice(id, base, e));
      }
      let parsed;
      try {
        parsed = fromChatCompletion(result.value.text, result.value.streamed, turn);
      } catch (err) {
        if (err instanceof ProviderError) err.attempts ??= result.attempts;
        throw err;
      }
      return {
        ...parsed,
        attempts: result.attempts,
        sampling: { temperature: true, seed: req.seed !== undefined },
        sent: sampling(req, tokenField),
      };
    },
  };
}

/**
 * Is the server up and does GET /models list the model? Says what to start or set when not, and what /models says of
 * the model (owner, root, max_model_len: vLLM's fields). A server without /models (404) is not refused on a guess.
 */
export async function probeOpenAI(
  model: string,
  baseUrl: string | undefined,
  apiKey: string | undefined,
  timeoutMs = 5000,
): Promise<{ ok: true; served: ServedModel } | { ok: false; advice: string }> {
  const id = `openai:${model}`;
  if (!baseUrl)
    return {
      ok: false,
      advice: `${id}: no server given: set --openai-base-url or OPENAI_BASE_URL (e.g. http://127.0.0.1:8000/v1 for vLLM, http://127.0.0.1:11434/v1 for Ollama)`,
    };
  const base = trimSlash(baseUrl);
  const served: ServedModel = { provider: "openai", model, endpoint: base };
  let listed: unknown;
  try {
    listed = await withTimeout(async (s) => {
      const res = await fetch(`${base}/models`, { headers: headers(apiKey), signal: s });
      if (res.status === 404) return undefined;
      if (!res.ok) throw new HttpError(res.status, await errorText(res));
      return res.json();
    }, timeoutMs);
  } catch (err) {
    const e = advice(id, base, err);
    return {
      ok: false,
      advice:
        e.code === "unreachable" || e.code === "timeout"
          ? `${id}: no server answers at ${base}: start it (e.g. \`vllm serve ${model}\`), or set --openai-base-url / OPENAI_BASE_URL to where it listens`
          : e.message,
    };
  }
  const data = (listed as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data) || data.length === 0) return { ok: true, served };
  const entry = data.find((m) => (m as { id?: unknown })?.id === model) as Record<string, unknown> | undefined;
  if (!entry)
    return {
      ok: false,
      advice: `${id}: ${base} does not serve "${model}" (it serves: ${data.map((m) => (m as { id?: unknown })?.id).join(", ")})`,
    };
  return {
    ok: true,
    served: {
      ...served,
      ...(typeof entry["owned_by"] === "string" ? { ownedBy: entry["owned_by"] } : {}),
      ...(typeof entry["root"] === "string" ? { root: entry["root"] } : {}),
      ...(typeof entry["max_model_len"] === "number" ? { maxModelLen: entry["max_model_len"] } : {}),
    },
  };
}

function openaiOptions(model: string, ctx: ProviderContext): OpenAIOptions {
  const c = ctx.common;
  const apiKey = process.env["OPENAI_API_KEY"] || undefined;
  const field = optionOf(OPENAI, ctx, "token-field");
  return {
    model,
    tokenField: tokenFieldFor(model, field),
    baseUrl: optionOf(OPENAI, ctx, "base-url") ?? "",
    ...(apiKey ? { apiKey } : {}),
    ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}),
    ...(c.retries !== undefined ? { retries: c.retries } : {}),
    ...(c.budgetMs ? { budgetMs: c.budgetMs } : {}),
  };
}

/** The OpenAI-compatible entry of the provider registry (registry.ts). */
export const OPENAI: ProviderEntry = {
  name: "openai",
  help: [
    "openai:<model>        any OpenAI-compatible chat-completions server (vLLM, llama.cpp, LM Studio, Ollama /v1) at --openai-base-url",
  ],
  kind: "real",
  // A self-hosted server; raise it for a shared one.
  concurrency: 2,
  reaches: ["maxTokens"],
  flags: [
    {
      key: "base-url",
      value: "<url>",
      help: "the API root, e.g. http://127.0.0.1:8000/v1 (default $OPENAI_BASE_URL; $OPENAI_API_KEY is sent when set)",
      env: "OPENAI_BASE_URL",
    },
    {
      key: "token-field",
      value: "<field>",
      help: "where --max-tokens goes: max_tokens or max_completion_tokens (default: max_completion_tokens for OpenAI's o*/gpt-* models, max_tokens for any other)",
    },
  ],
  validate(_model, ctx) {
    const field = optionOf(OPENAI, ctx, "token-field");
    return field === undefined || (TOKEN_FIELDS as readonly string[]).includes(field)
      ? undefined
      : `--openai-token-field wants ${TOKEN_FIELDS.join(" or ")}, not ${field}`;
  },
  probe(model, ctx) {
    const o = openaiOptions(model, ctx);
    return probeOpenAI(model, o.baseUrl || undefined, o.apiKey);
  },
  create: (model, ctx) => openaiProvider(openaiOptions(model, ctx)),
};
