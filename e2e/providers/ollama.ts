// The Ollama adapter: `ollama:<model>` through the `ollama` package's native tool calling on /api/chat
// (stream: false). The server's tool-call ids are kept (synthesised only when an older server sends none) and every
// result goes back as a role "tool" message with both `tool_call_id` and `tool_name` (templates match by either);
// the model's `thinking` is kept and replayed on its assistant turn; `think` takes true/false or a level; num_ctx is
// passed when given. The probe checks /api/tags and then /api/show's capabilities. OLLAMA_HOST is honoured.
// Also what served the model (digest, quantisation, parameter size, server version) and the registry entry.
// Owns: OLLAMA, ollamaProvider, probeOllama, servedOllama, ollamaHost, toOllamaMessages, Ollama failures → ProviderError.
import { Ollama, type Message as OllamaMessage, type ModelDetails, type Tool as OllamaTool } from "ollama";
import type { ProviderEntry, ServedModel } from "./registry.ts";
import { replayArguments } from "./arguments.ts";
import { fromOllamaReply, unparsedToolCall } from "./ollama-response.ts";
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
  type ToolCall,
  type ToolSpec,
} from "./types.ts";

export interface OllamaOptions {
  model: string;
  /** Defaults to $OLLAMA_HOST, else http://127.0.0.1:11434. */
  host?: string;
  /** Per model call; local models can take a while to load on first use. */
  timeoutMs?: number;
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Ollama's `think` for reasoning models: on/off or a level; absent → the model's default. */
  think?: OllamaThink;
  /** Total wall time per model call, retries and waits included (default: callBudget(timeout, maxDelay)). */
  budgetMs?: number;
  /** Context window (num_ctx); absent → the model's default. */
  numCtx?: number;
}

export type OllamaThink = boolean | "low" | "medium" | "high";

export function ollamaHost(explicit?: string): string {
  return explicit ?? process.env["OLLAMA_HOST"] ?? "http://127.0.0.1:11434";
}

function client(host: string, signal?: AbortSignal): Ollama {
  return new Ollama({
    host,
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        ...(signal ? { signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal } : {}),
      }),
  });
}

export function toOllamaTools(tools: ToolSpec[]): OllamaTool[] {
  // Ollama's TS type for parameters is narrower than JSON Schema (no anyOf); the server passes the schema through.
  return tools.map((t) => ({
    type: "function",
    function: {
      name: t.name,
      description: t.description,
      parameters: t.parameters as OllamaTool["function"]["parameters"],
    },
  }));
}

/** The fields the server reads that the `ollama` package's types do not declare yet (ids on calls and results). */
type WireToolCall = NonNullable<OllamaMessage["tool_calls"]>[number] & { id?: string };
type WireMessage = Omit<OllamaMessage, "tool_calls"> & { tool_call_id?: string; tool_calls?: WireToolCall[] };

export function toOllamaMessages(messages: Message[]): WireMessage[] {
  return messages.map((m): WireMessage => {
    switch (m.role) {
      case "system":
      case "user":
        return { role: m.role, content: m.content };
      case "assistant": {
        const thinking = (m.reasoning ?? []).map((r) => r.text ?? "").join("");
        return {
          role: "assistant",
          content: m.content,
          ...(thinking ? { thinking } : {}),
          ...(m.toolCalls.length
            ? {
                tool_calls: m.toolCalls.map((c) => ({
                  id: c.id,
                  function: { name: c.name, arguments: replayArguments(c) },
                })),
              }
            : {}),
        };
      }
      case "tool":
        return { role: "tool", content: m.content, tool_name: m.name, tool_call_id: m.toolCallId };
    }
  });
}

function advice(model: string, host: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const status = httpStatusOf(err);
  const msg = (err as Error)?.message ?? String(err);
  if (err instanceof CallTimeoutError) {
    return new ProviderError(`ollama:${model}: ${msg} (is the model still loading? raise --timeout)`, true, err, {
      code: "timeout",
    });
  }
  if (status === 404 || /model .*not found|try pulling/i.test(msg)) {
    return new ProviderError(`ollama:${model}: model not found on ${host}: run \`ollama pull ${model}\``, false, err, {
      code: "model_not_found",
      status: 404,
    });
  }
  if (status !== undefined) {
    const code = status === 429 ? "throttled" : status >= 500 ? "server" : "bad_request";
    return new ProviderError(`ollama:${model}: HTTP ${status}: ${msg}`, status === 429 || status >= 500, err, {
      code,
      status,
    });
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
  const maxMs = opts.maxDelayMs ?? 20_000;
  return {
    id: `ollama:${model}`,
    kind: "real",
    sampling: { temperature: true, seed: true },
    async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      const turn = req.messages.filter((m) => m.role === "assistant").length;
      const body = chatBody(model, opts, req);
      // The server's 500 for a tool call it could not parse is the model's output, not a fault: caught before the retry.
      const once = async (s: AbortSignal) => {
        try {
          return await client(host, s).chat(body);
        } catch (err) {
          const unparsed = unparsedToolCall(httpStatusOf(err), (err as Error)?.message ?? "");
          if (unparsed === undefined) throw err;
          return { unparsed };
        }
      };
      let result;
      try {
        result = await withRetry(
          (_attempt, left) => withTimeout(once, Math.min(timeoutMs, left), signal),
          callRetryOptions(opts, 3, { timeoutMs, maxMs }, req, signal),
        );
      } catch (err) {
        throw finalError(err, (e) => advice(model, host, e));
      }
      const sampling = { temperature: true, seed: req.seed !== undefined };
      const sent = { ...body.options, ...(body.think !== undefined ? { think: body.think } : {}) };
      if ("unparsed" in result.value) {
        const unusable = `the server could not parse the tool call the model wrote (${result.value.unparsed.slice(0, 300)})`;
        return {
          text: "",
          toolCalls: [],
          stopReason: "other",
          unusable,
          raw: { status: 500, error: result.value.unparsed },
          attempts: result.attempts,
          sampling,
          sent,
        };
      }
      // What the model produced reaches the loop; a reply that is not a model turn is an error of this trial (ollama-response.ts).
      let parsed;
      try {
        parsed = fromOllamaReply(result.value, turn);
      } catch (err) {
        if (err instanceof ProviderError) err.attempts ??= result.attempts;
        throw err;
      }
      return { ...parsed, attempts: result.attempts, sampling, sent };
    },
  };
}

/** The /api/chat body: non-streaming, native tools, sampling in options, num_ctx and think only when given. */
export function chatBody(model: string, opts: Pick<OllamaOptions, "numCtx" | "think">, req: ChatRequest) {
  return {
    model,
    messages: toOllamaMessages(req.messages) as OllamaMessage[],
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
}

/** Models of the spec's matrix that have the tools capability, suggested when a model lacks it. */
const TOOL_MODELS = "qwen3:8b";

/**
 * Is the server up, the model pulled, and does /api/show list the capabilities the run needs (`tools`, and
 * `thinking` when a think level was asked for)? Returns exactly what is missing and what to do when not.
 */
export async function probeOllama(
  model: string,
  host = ollamaHost(),
  timeoutMs = 5000,
  needs: { think?: OllamaThink } = {},
): Promise<{ ok: true } | { ok: false; advice: string }> {
  let names: string[];
  try {
    const res = await withTimeout((s) => client(host, s).list(), timeoutMs);
    names = res.models.map((m) => m.name);
  } catch (err) {
    const e = advice(model, host, err);
    if (e.code === "unreachable" || e.code === "timeout") {
      return {
        ok: false,
        advice: `ollama:${model}: Ollama is not reachable at ${host}. Start it with \`ollama serve\` (or set OLLAMA_HOST=host:port), then \`ollama pull ${model}\`.`,
      };
    }
    return { ok: false, advice: e.message };
  }
  const want = model.includes(":") ? model : `${model}:latest`;
  if (!names.some((n) => n === model || n === want)) {
    return { ok: false, advice: `ollama:${model}: not pulled on ${host}. Run \`ollama pull ${model}\`.` };
  }
  let capabilities: string[] | undefined;
  try {
    capabilities = (await withTimeout((s) => client(host, s).show({ model }), timeoutMs)).capabilities;
  } catch (err) {
    return { ok: false, advice: `ollama:${model}: /api/show failed on ${host}: ${advice(model, host, err).message}` };
  }
  // A server too old to list capabilities cannot say what is missing; the run goes ahead and the trials will tell.
  if (!Array.isArray(capabilities)) return { ok: true };
  const missing: string[] = [];
  if (!capabilities.includes("tools"))
    missing.push(
      `model ${model} has no tools capability (it has: ${capabilities.join(", ") || "none listed"}); pull one that has, e.g. \`ollama pull ${TOOL_MODELS}\``,
    );
  if (needs.think !== undefined && needs.think !== false && !capabilities.includes("thinking")) {
    missing.push(
      `model ${model} has no thinking capability, so --think ${needs.think} cannot apply; drop --think or pull a thinking model, e.g. \`ollama pull ${TOOL_MODELS}\``,
    );
  }
  return missing.length ? { ok: false, advice: `ollama:${model}: ${missing.join("; ")}` } : { ok: true };
}

/**
 * What serves the model (issue 21 item 4): /api/tags (the tag's digest and details), /api/show (details: quantisation,
 * parameter size, family, format) and /api/version. A server too old for one of them leaves its fields out.
 */
export async function servedOllama(model: string, host = ollamaHost(), timeoutMs = 5000): Promise<ServedModel> {
  const c = (s: AbortSignal) => client(host, s);
  const [tags, show, version] = await Promise.allSettled([
    withTimeout((s) => c(s).list(), timeoutMs),
    withTimeout((s) => c(s).show({ model }), timeoutMs),
    withTimeout((s) => c(s).version(), timeoutMs),
  ]);
  const want = model.includes(":") ? model : `${model}:latest`;
  const listed =
    tags.status === "fulfilled"
      ? tags.value.models.find((m) => m.name === model || m.name === want || m.model === model || m.model === want)
      : undefined;
  const details: Partial<ModelDetails> = {
    ...listed?.details,
    ...(show.status === "fulfilled" ? show.value.details : {}),
  };
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const fields = {
    digest: text(listed?.digest),
    quantization: text(details.quantization_level),
    parameterSize: text(details.parameter_size),
    family: text(details.family),
    format: text(details.format),
    serverVersion: version.status === "fulfilled" ? text(version.value.version) : undefined,
  };
  return {
    provider: "ollama",
    model,
    endpoint: host,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  };
}

/** The Ollama entry of the provider registry (registry.ts). */
export const OLLAMA: ProviderEntry = {
  name: "ollama",
  help: [
    "ollama:<model>        via the local Ollama server ($OLLAMA_HOST or http://127.0.0.1:11434), e.g. ollama:qwen3:8b",
  ],
  kind: "real",
  // One local server swaps models otherwise.
  concurrency: 1,
  reaches: ["maxTokens", "think", "numCtx"],
  flags: [{ key: "host", value: "<url>", help: "the Ollama server (overrides $OLLAMA_HOST)" }],
  async probe(model, ctx) {
    const host = ollamaHost(ctx.options["host"]);
    const p = await probeOllama(model, host, 5000, ctx.common.think !== undefined ? { think: ctx.common.think } : {});
    return p.ok ? { ok: true, served: await servedOllama(model, host) } : p;
  },
  create(model, ctx) {
    const c = ctx.common;
    return ollamaProvider({
      model,
      ...(ctx.options["host"] ? { host: ctx.options["host"] } : {}),
      ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}),
      ...(c.retries !== undefined ? { retries: c.retries } : {}),
      ...(c.budgetMs ? { budgetMs: c.budgetMs } : {}),
      ...(c.think !== undefined ? { think: c.think } : {}),
      ...(c.numCtx !== undefined ? { numCtx: c.numCtx } : {}),
    });
  },
};
