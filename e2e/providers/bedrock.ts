// The Bedrock adapter: `bedrock:<modelId>` through ConverseCommand of @aws-sdk/client-bedrock-runtime. Region and
// credentials come from the standard AWS chain unless given; `endpoint` overrides the service URL (tests, VPC
// endpoints). Tools go in toolConfig; the model's toolUse blocks (with toolUseId) become tool calls; results go back
// as toolResult blocks, consecutive ones merged into one user message. The SDK's own retries are off (maxAttempts 1):
// retry.ts does backoff on throttling and connection errors, with a per-call timeout. Converse has no seed, so a
// seed is recorded but never applied. Owns: bedrockProvider, probeBedrock, toConverseMessages, bedrockAdvice.
import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ContentBlock,
  type ConverseCommandInput,
  type Message as ConverseMessage,
  type Tool as ConverseTool,
} from "@aws-sdk/client-bedrock-runtime";
import { fromConverseReply } from "./bedrock-response.ts";
import { CallTimeoutError, connectionCodeOf, httpStatusOf, isTransientError, withRetry, withTimeout } from "./retry.ts";
import { ProviderError, type ChatRequest, type ChatResponse, type Message, type ModelProvider, type ToolSpec } from "./types.ts";

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
}

type Doc = NonNullable<Extract<NonNullable<ConverseTool.ToolSpecMember["toolSpec"]["inputSchema"]>, { json: unknown }>["json"]>;

export function toConverseTools(tools: ToolSpec[]): ConverseTool[] {
  return tools.map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters as Doc } } }));
}

/** System text apart; consecutive same-role messages merged (tool results of one turn → one user message). */
export function toConverseMessages(messages: Message[]): { system: string[]; messages: ConverseMessage[] } {
  const system: string[] = [];
  const out: ConverseMessage[] = [];
  const push = (role: "user" | "assistant", blocks: ContentBlock[]) => {
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
      case "assistant": {
        const blocks: ContentBlock[] = [];
        if (m.content.trim() !== "") blocks.push({ text: m.content });
        for (const c of m.toolCalls) {
          const input = c.arguments && typeof c.arguments === "object" && !Array.isArray(c.arguments) ? c.arguments : {};
          blocks.push({ toolUse: { toolUseId: c.id, name: c.name, input: input as Doc } });
        }
        if (blocks.length === 0) blocks.push({ text: "(no answer)" });
        push("assistant", blocks);
        break;
      }
      case "tool":
        push("user", [{ toolResult: { toolUseId: m.toolCallId, content: [{ text: m.content === "" ? "(empty)" : m.content }], status: m.isError ? "error" : "success" } }]);
        break;
    }
  }
  return { system, messages: out };
}

const AUTH_NAMES = new Set(["AccessDeniedException", "UnrecognizedClientException", "ExpiredTokenException", "InvalidSignatureException", "CredentialsProviderError", "ExpiredToken"]);

export function bedrockAdvice(modelId: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const name = (err as { name?: string })?.name ?? "";
  const msg = (err as Error)?.message ?? String(err);
  const status = httpStatusOf(err);
  const id = `bedrock:${modelId}`;
  if (err instanceof CallTimeoutError) return new ProviderError(`${id}: ${msg} (raise --timeout)`, true, err, { code: "timeout" });
  if (name === "ThrottlingException" || status === 429) return new ProviderError(`${id}: throttled: ${msg}`, true, err, { code: "throttled", status: status ?? 429 });
  if (/region is missing/i.test(msg)) {
    return new ProviderError(`${id}: no AWS region: set AWS_REGION (or AWS_DEFAULT_REGION, or a region in your AWS profile)`, false, err, { code: "auth" });
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
    return new ProviderError(`${id}: access denied (${name || status}): ${msg} — check the credentials, IAM bedrock:InvokeModel, and model access for this region in the Bedrock console`, false, err, { code: "auth", ...(status ? { status } : {}) });
  }
  if (name === "ResourceNotFoundException" || status === 404 || /model identifier is invalid|model.*not found/i.test(msg)) {
    return new ProviderError(`${id}: model not found: ${msg} — check the model id or inference profile (e.g. us.… / global.…) for this region`, false, err, { code: "model_not_found", status: status ?? 404 });
  }
  if (isTransientError(err)) {
    const conn = connectionCodeOf(err);
    return new ProviderError(`${id}: ${conn ? `connection failed (${conn})` : `${name || "server error"}`}: ${msg}`, true, err, { code: conn ? "unreachable" : "server", ...(status ? { status } : {}) });
  }
  if (name === "ValidationException" || status === 400) return new ProviderError(`${id}: request rejected: ${msg}`, false, err, { code: "bad_request", status: 400 });
  return new ProviderError(`${id}: ${name ? name + ": " : ""}${msg}`, false, err, { code: "unknown", ...(status ? { status } : {}) });
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
  return {
    id: `bedrock:${modelId}`,
    kind: "real",
    sampling: { temperature: true, seed: false },
    async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      client ??= bedrockClient(opts);
      const c = client;
      const { system, messages } = toConverseMessages(req.messages);
      const input: ConverseCommandInput = {
        modelId,
        messages,
        ...(system.length ? { system: system.map((text) => ({ text })) } : {}),
        ...(req.tools.length ? { toolConfig: { tools: toConverseTools(req.tools) } } : {}),
        inferenceConfig: { temperature: req.temperature, maxTokens: req.maxTokens ?? opts.maxTokens ?? 4096 },
      };
      let result;
      try {
        result = await withRetry((_attempt) => withTimeout((s) => c.send(new ConverseCommand(input), { abortSignal: s }), timeoutMs, signal), {
          retries: opts.retries ?? 4,
          baseMs: opts.baseDelayMs ?? 1000,
          maxMs: opts.maxDelayMs ?? 30_000,
          isTransient: isTransientError,
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        const e = bedrockAdvice(modelId, err);
        e.attempts ??= (err as { attempts?: number })?.attempts;
        throw e;
      }
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
        attempts: result.attempts,
        sampling: { temperature: true, seed: false },
      };
    },
    close() {
      client?.destroy();
      client = undefined;
    },
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
      missing.push(bedrockAdvice(opts.modelId, Object.assign(err as object, { name: "CredentialsProviderError" })).message.slice(prefix.length));
    }
    if (missing.length) return { ok: false, advice: `bedrock:${opts.modelId}: ${missing.join("; ")}` };
    try {
      await withTimeout(
        (s) => c.send(new ConverseCommand({ modelId: opts.modelId, messages: [{ role: "user", content: [{ text: "ping" }] }], inferenceConfig: { maxTokens: 1 } }), { abortSignal: s }),
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
