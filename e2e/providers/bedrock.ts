// The Bedrock adapter: `bedrock:<modelId>` through ConverseCommand of @aws-sdk/client-bedrock-runtime. Region and
// credentials come from the standard AWS chain unless given; `endpoint` overrides the service URL (tests, VPC
// endpoints). Tools go in toolConfig; the model's toolUse blocks (with toolUseId) become tool calls; results go back
// as toolResult blocks, consecutive ones merged into one user message. The SDK's own retries are off (maxAttempts 1):
// retry.ts does backoff on throttling and connection errors, with a per-call timeout. Converse has no seed, so a
// seed is recorded but never applied. The history is replayed as it happened: reasoningContent blocks go back on
// their assistant turn, an empty assistant turn is left out rather than filled with made-up text, and
// toolResult.status is sent only to the families AWS documents it for (Claude, Nova) — or, when the service rejects
// it anyway, dropped and the call retried once, recorded in the transcript (decisions R62, R63).
// Owns: BEDROCK (the registry entry), bedrockProvider, probeBedrock, servedBedrock, toConverseMessages,
// toolResultStatusSupported, bedrockAdvice.
import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ContentBlock,
  type ConverseCommandInput,
  type Message as ConverseMessage,
  type Tool as ConverseTool,
} from "@aws-sdk/client-bedrock-runtime";
import { replayArguments } from "./arguments.ts";
import type { ProviderContext, ProviderEntry, ServedModel } from "./registry.ts";
import { fromConverseReply } from "./bedrock-response.ts";
import {
  CallTimeoutError,
  callRetryOptions,
  connectionCodeOf,
  finalError,
  httpStatusOf,
  isTransientError,
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

export interface BedrockOptions {
  modelId: string;
  region?: string;
  /** e.g. http://127.0.0.1:PORT for a fake server. */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  timeoutMs?: number;
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Converse needs maxTokens; default 4096. */
  maxTokens?: number;
  /** Total wall time per model call, retries and waits included (default: callBudget(timeout, maxDelay)). */
  budgetMs?: number;
}

/**
 * AWS documents ToolResultBlock.status as "only supported by Amazon Nova and Anthropic Claude 3 and 4 models"; model
 * ids (and inference profiles such as us.anthropic.claude-…) name the family.
 */
export function toolResultStatusSupported(modelId: string): boolean {
  return /(^|\.)(anthropic\.claude|amazon\.nova)/.test(modelId);
}

type Doc = NonNullable<
  Extract<NonNullable<ConverseTool.ToolSpecMember["toolSpec"]["inputSchema"]>, { json: unknown }>["json"]
>;

export function toConverseTools(tools: ToolSpec[]): ConverseTool[] {
  return tools.map((t) => ({
    toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters as Doc } },
  }));
}

/**
 * System text apart; consecutive same-role messages merged (tool results of one turn → one user message). An
 * assistant turn with nothing in it is left out (nothing is invented for it), so the user turns around it merge.
 */
export function toConverseMessages(
  messages: Message[],
  o: { toolResultStatus?: boolean } = {},
): { system: string[]; messages: ConverseMessage[] } {
  const system: string[] = [];
  const out: ConverseMessage[] = [];
  const push = (role: "user" | "assistant", blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content = [...(last.content ?? []), ...blocks];
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    switch (m.role) {
      case "system":
        system.push(m.content);
        break;
      case "user":
        push("user", [{ text: m.content }]);
        break;
      case "assistant":
        push("assistant", assistantBlocks(m));
        break;
      case "tool":
        push("user", [
          {
            toolResult: {
              toolUseId: m.toolCallId,
              content: [{ text: m.content === "" ? "(empty)" : m.content }],
              ...(o.toolResultStatus !== false ? { status: m.isError ? "error" : "success" } : {}),
            },
          },
        ]);
        break;
    }
  }
  return { system, messages: out };
}

/** Reasoning first (Converse requires it before text and tool use), then text, then tool use with its toolUseId. */
function assistantBlocks(m: Extract<Message, { role: "assistant" }>): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const r of m.reasoning ?? []) {
    if (r.redacted !== undefined)
      blocks.push({ reasoningContent: { redactedContent: Buffer.from(r.redacted, "base64") } });
    else if (r.text !== undefined)
      blocks.push({
        reasoningContent: {
          reasoningText: { text: r.text, ...(r.signature !== undefined ? { signature: r.signature } : {}) },
        },
      });
  }
  if (m.content.trim() !== "") blocks.push({ text: m.content });
  for (const c of m.toolCalls)
    blocks.push({ toolUse: { toolUseId: c.id, name: c.name, input: replayArguments(c) as Doc } });
  return blocks;
}

/** The service's complaint about toolResult.status, when that is what a ValidationException is about. */
export function rejectsToolResultStatus(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return (name === "ValidationException" || httpStatusOf(err) === 400) && /status/i.test((err as Error)?.message ?? "");
}

const AUTH_NAMES = new Set([
  "AccessDeniedException",
  "UnrecognizedClientException",
  "ExpiredTokenException",
  "InvalidSignatureException",
  "CredentialsProviderError",
  "ExpiredToken",
]);

export function bedrockAdvice(modelId: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const name = (err as { name?: string })?.name ?? "";
  const msg = (err as Error)?.message ?? String(err);
  const status = httpStatusOf(err);
  const id = `bedrock:${modelId}`;
  if (err instanceof CallTimeoutError)
    return new ProviderError(`${id}: ${msg} (raise --timeout)`, true, err, { code: "timeout" });
  if (name === "ThrottlingException" || status === 429)
    return new ProviderError(`${id}: throttled: ${msg}`, true, err, { code: "throttled", status: status ?? 429 });
  if (/region is missing/i.test(msg)) {
    return new ProviderError(
      `${id}: no AWS region: set AWS_REGION (or AWS_DEFAULT_REGION, or a region in your AWS profile)`,
      false,
      err,
      { code: "auth" },
    );
  }
  if (name === "CredentialsProviderError" || /could not load credentials/i.test(msg)) {
    return new ProviderError(
      `${id}: no AWS credentials: set AWS_PROFILE (after \`aws sso login\` if SSO), or AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN)`,
      false,
      err,
      { code: "auth" },
    );
  }
  if (AUTH_NAMES.has(name) || status === 403) {
    return new ProviderError(
      `${id}: access denied (${name || status}): ${msg} — check the credentials, IAM bedrock:InvokeModel, and model access for this region in the Bedrock console`,
      false,
      err,
      { code: "auth", ...(status ? { status } : {}) },
    );
  }
  if (
    name === "ResourceNotFoundException" ||
    status === 404 ||
    /model identifier is invalid|model.*not found/i.test(msg)
  ) {
    return new ProviderError(
      `${id}: model not found: ${msg} — check the model id or inference profile (e.g. us.… / global.…) for this region`,
      false,
      err,
      { code: "model_not_found", status: status ?? 404 },
    );
  }
  if (isTransientError(err)) {
    const conn = connectionCodeOf(err);
    return new ProviderError(
      `${id}: ${conn ? `connection failed (${conn})` : `${name || "server error"}`}: ${msg}`,
      true,
      err,
      { code: conn ? "unreachable" : "server", ...(status ? { status } : {}) },
    );
  }
  if (name === "ValidationException" || status === 400)
    return new ProviderError(`${id}: request rejected: ${msg}`, false, err, { code: "bad_request", status: 400 });
  return new ProviderError(`${id}: ${name ? name + ": " : ""}${msg}`, false, err, {
    code: "unknown",
    ...(status ? { status } : {}),
  });
}

export function bedrockClient(opts: BedrockOptions): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    ...(opts.region ? { region: opts.region } : {}),
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
    maxAttempts: 1,
  });
}

export function bedrockProvider(opts: BedrockOptions): ModelProvider & { close(): void } {
  const modelId = opts.modelId;
  let client: BedrockRuntimeClient | undefined;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const maxMs = opts.maxDelayMs ?? 30_000;
  // Starts from the documented families; turned off for the rest of the run if the service rejects the field.
  let sendStatus = toolResultStatusSupported(modelId);
  const send = async (req: ChatRequest, signal: AbortSignal | undefined) => {
    client ??= bedrockClient(opts);
    const c = client;
    const input = converseInput(modelId, req, sendStatus, opts.maxTokens);
    return withRetry(
      (_attempt, left) =>
        withTimeout((s) => c.send(new ConverseCommand(input), { abortSignal: s }), Math.min(timeoutMs, left), signal),
      callRetryOptions(opts, 4, { timeoutMs, maxMs }, req, signal),
    );
  };
  return {
    id: `bedrock:${modelId}`,
    kind: "real",
    sampling: { temperature: true, seed: false },
    async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      const adjustments: string[] = [];
      // The status fallback: one retry without toolResult.status when the service rejects it, recorded (R63).
      const sendOnce = async () => {
        try {
          return await send(req, signal);
        } catch (err) {
          if (!sendStatus || !req.messages.some((m) => m.role === "tool") || !rejectsToolResultStatus(err)) throw err;
          sendStatus = false;
          adjustments.push(
            `toolResult.status dropped for ${modelId}: the service rejected it (${(err as Error).message}); retried once without it, and left out for the rest of the run`,
          );
          const again = await send(req, signal);
          return { ...again, attempts: again.attempts + 1 };
        }
      };
      const result = await sendOnce().catch((err) => {
        throw finalError(err, (e) => bedrockAdvice(modelId, e));
      });
      // Every stopReason is decided before the loop sees the reply; anything but an answer or a tool use is an error (bedrock-response.ts).
      let parsed;
      try {
        parsed = fromConverseReply(result.value);
      } catch (err) {
        if (err instanceof ProviderError) err.attempts ??= result.attempts;
        throw err;
      }
      return {
        ...parsed,
        ...(adjustments.length ? { adjustments } : {}),
        attempts: result.attempts,
        sampling: { temperature: true, seed: false },
        sent: { ...converseInput(modelId, { ...req, messages: [] }, false, opts.maxTokens).inferenceConfig },
      };
    },
    close() {
      client?.destroy();
      client = undefined;
    },
  };
}

export function converseInput(
  modelId: string,
  req: ChatRequest,
  toolResultStatus: boolean,
  maxTokens?: number,
): ConverseCommandInput {
  const { system, messages } = toConverseMessages(req.messages, { toolResultStatus });
  return {
    modelId,
    messages,
    ...(system.length ? { system: system.map((text) => ({ text })) } : {}),
    ...(req.tools.length ? { toolConfig: { tools: toConverseTools(req.tools) } } : {}),
    inferenceConfig: { temperature: req.temperature, maxTokens: req.maxTokens ?? maxTokens ?? 4096 },
  };
}

/** Region, credentials, and a one-token Converse call: says what to set when any of them fails. */
export async function probeBedrock(opts: BedrockOptions): Promise<{ ok: true } | { ok: false; advice: string }> {
  const c = bedrockClient(opts);
  try {
    const missing: string[] = [];
    const prefix = `bedrock:${opts.modelId}: `;
    try {
      await c.config.region();
    } catch (err) {
      missing.push(bedrockAdvice(opts.modelId, err).message.slice(prefix.length));
    }
    try {
      await c.config.credentials();
    } catch (err) {
      missing.push(
        bedrockAdvice(opts.modelId, Object.assign(err as object, { name: "CredentialsProviderError" })).message.slice(
          prefix.length,
        ),
      );
    }
    if (missing.length) return { ok: false, advice: `bedrock:${opts.modelId}: ${missing.join("; ")}` };
    try {
      await withTimeout(
        (s) =>
          c.send(
            new ConverseCommand({
              modelId: opts.modelId,
              messages: [{ role: "user", content: [{ text: "ping" }] }],
              inferenceConfig: { maxTokens: 1 },
            }),
            { abortSignal: s },
          ),
        opts.timeoutMs ?? 30_000,
      );
    } catch (err) {
      const e = bedrockAdvice(opts.modelId, err);
      if (e.code !== "throttled") return { ok: false, advice: e.message };
    }
    return { ok: true };
  } finally {
    c.destroy();
  }
}

/** What serves the model: the model id or ARN as given, the region the AWS chain resolved, an endpoint override. */
export async function servedBedrock(
  opts: Pick<BedrockOptions, "modelId" | "region" | "endpoint">,
): Promise<ServedModel> {
  const c = bedrockClient(opts);
  try {
    const region = await c.config.region().catch(() => undefined);
    const id = opts.modelId.startsWith("arn:") ? { modelArn: opts.modelId } : { modelId: opts.modelId };
    return {
      provider: "bedrock",
      model: opts.modelId,
      ...id,
      ...(region ? { region } : {}),
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    };
  } finally {
    c.destroy();
  }
}

function bedrockOptions(modelId: string, ctx: ProviderContext): BedrockOptions {
  const c = ctx.common;
  return {
    modelId,
    ...(ctx.options["region"] ? { region: ctx.options["region"] } : {}),
    ...(ctx.options["endpoint"] ? { endpoint: ctx.options["endpoint"] } : {}),
    ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}),
    ...(c.retries !== undefined ? { retries: c.retries } : {}),
    ...(c.budgetMs ? { budgetMs: c.budgetMs } : {}),
    ...(c.maxTokens ? { maxTokens: c.maxTokens } : {}),
  };
}

/** The Bedrock entry of the provider registry (registry.ts). */
export const BEDROCK: ProviderEntry = {
  name: "bedrock",
  help: [
    "bedrock:<modelId>     via Bedrock Converse (AWS region/credentials from the standard chain); a model id or ARN",
  ],
  kind: "real",
  concurrency: 4,
  reaches: ["maxTokens"],
  flags: [
    { key: "region", value: "<r>", help: "overrides the AWS chain's region" },
    { key: "endpoint", value: "<url>", help: "overrides the Bedrock runtime endpoint URL" },
  ],
  async probe(model, ctx) {
    const opts = bedrockOptions(model, ctx);
    const p = await probeBedrock({ ...opts, timeoutMs: Math.min(opts.timeoutMs ?? 30_000, 30_000) });
    return p.ok ? { ok: true, served: await servedBedrock(opts) } : p;
  },
  create: (model, ctx) => bedrockProvider(bedrockOptions(model, ctx)),
};
