// The Ollama adapter: `ollama:<model>` through the `ollama` package's native tool calling on /api/chat
// (stream: false). Ollama's tool calls carry no id and already-parsed arguments; we synthesise ids and send results
// back as role "tool" messages (with tool_name). OLLAMA_HOST is honoured. Owns: ollamaProvider, probeOllama,
// ollamaHost, and the mapping of Ollama failures to ProviderError with what to start or pull.
import { Ollama, type Message as OllamaMessage, type Tool as OllamaTool } from "ollama";
import { fromOllamaReply } from "./ollama-response.ts";
import { CallTimeoutError, connectionCodeOf, httpStatusOf, isTransientError, withRetry, withTimeout } from "./retry.ts";
import { ProviderError, type ChatRequest, type ChatResponse, type Message, type ModelProvider, type ToolCall, type ToolSpec } from "./types.ts";

export interface OllamaOptions {
  model: string;
  /** Defaults to $OLLAMA_HOST, else http://127.0.0.1:11434. */
  host?: string;
  /** Per model call; local models can take a while to load on first use. */
  timeoutMs?: number;
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Ollama's `think` flag for reasoning models; absent → the model's default. */
  think?: boolean;
  /** Context window (num_ctx); absent → the model's default. */
  numCtx?: number;
}

export function ollamaHost(explicit?: string): string {
  return explicit ?? process.env["OLLAMA_HOST"] ?? "http://127.0.0.1:11434";
}

function client(host: string, signal?: AbortSignal): Ollama {
  return new Ollama({
    host,
    fetch: (input, init) => fetch(input, { ...init, ...(signal ? { signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal } : {}) }),
  });
}

export function toOllamaTools(tools: ToolSpec[]): OllamaTool[] {
  // Ollama's TS type for parameters is narrower than JSON Schema (no anyOf); the server passes the schema through.
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters as OllamaTool["function"]["parameters"] } }));
}

export function toOllamaMessages(messages: Message[]): OllamaMessage[] {
  return messages.map((m): OllamaMessage => {
    switch (m.role) {
      case "system":
      case "user":
        return { role: m.role, content: m.content };
      case "assistant":
        return {
          role: "assistant",
          content: m.content,
          ...(m.toolCalls.length
            ? {
                tool_calls: m.toolCalls.map((c) => ({
                  function: { name: c.name, arguments: c.arguments && typeof c.arguments === "object" && !Array.isArray(c.arguments) ? (c.arguments as Record<string, unknown>) : {} },
                })),
              }
            : {}),
        };
      case "tool":
        return { role: "tool", content: m.content, tool_name: m.name };
    }
  });
}

function advice(model: string, host: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const status = httpStatusOf(err);
  const msg = (err as Error)?.message ?? String(err);
  if (err instanceof CallTimeoutError) {
    return new ProviderError(`ollama:${model}: ${msg} (is the model still loading? raise --timeout)`, true, err, { code: "timeout" });
  }
  if (status === 404 || /model .*not found|try pulling/i.test(msg)) {
    return new ProviderError(`ollama:${model}: model not found on ${host}: run \`ollama pull ${model}\``, false, err, { code: "model_not_found", status: 404 });
  }
  if (status !== undefined) {
    const code = status === 429 ? "throttled" : status >= 500 ? "server" : "bad_request";
    return new ProviderError(`ollama:${model}: HTTP ${status}: ${msg}`, status === 429 || status >= 500, err, { code, status });
  }
  const conn = connectionCodeOf(err);
  if (conn) {
    return new ProviderError(
      `ollama:${model}: cannot reach Ollama at ${host} (${conn}): start it with \`ollama serve\`, or set OLLAMA_HOST to where it listens`,
      conn !== "ENOTFOUND",
      err,
      { code: "unreachable" },
    );
  }
  return new ProviderError(`ollama:${model}: ${msg}`, false, err, { code: "unknown" });
}

export function ollamaProvider(opts: OllamaOptions): ModelProvider {
  const host = ollamaHost(opts.host);
  const model = opts.model;
  const timeoutMs = opts.timeoutMs ?? 300_000;
  return {
    id: `ollama:${model}`,
    kind: "real",
    sampling: { temperature: true, seed: true },
    async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      const turn = req.messages.filter((m) => m.role === "assistant").length;
      const body = {
        model,
        messages: toOllamaMessages(req.messages),
        tools: toOllamaTools(req.tools),
        stream: false as const,
        options: {
          temperature: req.temperature,
          ...(req.seed !== undefined ? { seed: req.seed } : {}),
          ...(req.maxTokens !== undefined ? { num_predict: req.maxTokens } : {}),
          ...(opts.numCtx !== undefined ? { num_ctx: opts.numCtx } : {}),
        },
        ...(opts.think !== undefined ? { think: opts.think } : {}),
      };
      let result;
      try {
        result = await withRetry((_attempt) => withTimeout((s) => client(host, s).chat(body), timeoutMs, signal), {
          retries: opts.retries ?? 3,
          baseMs: opts.baseDelayMs ?? 1000,
          maxMs: opts.maxDelayMs ?? 20_000,
          isTransient: isTransientError,
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        const e = advice(model, host, err);
        e.attempts ??= (err as { attempts?: number })?.attempts;
        throw e;
      }
      // Only a finished answer or a tool use reaches the loop; anything else is an error of this trial (ollama-response.ts).
      let parsed;
      try {
        parsed = fromOllamaReply(result.value, turn);
      } catch (err) {
        if (err instanceof ProviderError) err.attempts ??= result.attempts;
        throw err;
      }
      return {
        ...parsed,
        attempts: result.attempts,
        sampling: { temperature: true, seed: req.seed !== undefined },
      };
    },
  };
}

/** Is the server up and the model pulled? Returns what to do when not. */
export async function probeOllama(model: string, host = ollamaHost(), timeoutMs = 5000): Promise<{ ok: true } | { ok: false; advice: string }> {
  let names: string[];
  try {
    const res = await withTimeout((s) => client(host, s).list(), timeoutMs);
    names = res.models.map((m) => m.name);
  } catch (err) {
    const e = advice(model, host, err);
    if (e.code === "unreachable" || e.code === "timeout") {
      return { ok: false, advice: `ollama:${model}: Ollama is not reachable at ${host}. Start it with \`ollama serve\` (or set OLLAMA_HOST=host:port), then \`ollama pull ${model}\`.` };
    }
    return { ok: false, advice: e.message };
  }
  const want = model.includes(":") ? model : `${model}:latest`;
  if (!names.some((n) => n === model || n === want)) {
    return { ok: false, advice: `ollama:${model}: not pulled on ${host}. Run \`ollama pull ${model}\`.` };
  }
  return { ok: true };
}
