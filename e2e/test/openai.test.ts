// The OpenAI-compatible adapter on the wire, against a loopback chat-completions server: streamed deltas assembled
// (text in pieces, each tool call's id and name first and its JSON-string arguments split over chunks), ids and
// tool_call_id round-tripped, arguments replayed as a JSON string, parallel calls at one index told apart by id
// (Ollama's /v1), a non-streamed body read too, the sampling settings sent and recorded, the API key sent as a bearer
// token, the probe's /models check and what it records, and the error kinds (context window, refusal, auth).
import { afterEach, describe, expect, it } from "vitest";
import { validateSpec } from "../providers/index.ts";
import { OPENAI, openaiProvider, probeOpenAI, tokenFieldFor } from "../providers/openai.ts";
import type { ChatRequest, Message } from "../providers/types.ts";
import { chatCompletionReply, queue, startFakeOpenAI, type FakeServer } from "./fake-servers.ts";

const fast = { retries: 1, baseDelayMs: 5, maxDelayMs: 10, timeoutMs: 5000 };
const tools = [
  {
    name: "skill",
    description: "Activate a skill.",
    parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
];
const req = (messages: Message[], over: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: "system", content: "sys" }, ...messages],
  tools,
  temperature: 0.7,
  seed: 3,
  ...over,
});
const servers: FakeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function fake(respond: Parameters<typeof startFakeOpenAI>[0]) {
  const s = await startFakeOpenAI(respond);
  servers.push(s);
  return s;
}

describe("OpenAI-compatible chat completions on the wire", () => {
  it("assembles streamed text and tool calls, and round-trips ids with arguments as a JSON string", async () => {
    const s = await fake(
      queue([
        chatCompletionReply("I'll activate it.", [{ name: "skill", arguments: { name: "release-notes" } }]),
        chatCompletionReply("All done."),
      ]),
    );
    const p = openaiProvider({ model: "Qwen/Qwen3-8B", baseUrl: `${s.url}/v1/`, ...fast });
    const first: Message[] = [{ role: "user", content: "go" }];
    const res = await p.chat(req(first, { maxTokens: 512 }));
    expect(res).toMatchObject({
      text: "I'll activate it.",
      stopReason: "tool_use",
      usage: { inputTokens: 11, outputTokens: 7 },
      sent: { temperature: 0.7, seed: 3, max_tokens: 512 },
    });
    expect(res.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        idSource: "provider",
        name: "skill",
        arguments: { name: "release-notes" },
        argumentsEncoding: "json-string",
      },
    ]);
    expect(res.raw).toMatchObject({ finish_reason: "tool_calls", model: "fake-model", system_fingerprint: "fp_fake" });
    const id = res.toolCalls[0]!.id;
    const done = await p.chat(
      req([
        ...first,
        { role: "assistant", content: res.text, toolCalls: res.toolCalls },
        { role: "tool", toolCallId: id, name: "skill", content: "body" },
      ]),
    );
    expect(done).toMatchObject({ text: "All done.", stopReason: "end", toolCalls: [] });
    const [a, b] = s.requests;
    expect(a!.path).toBe("/v1/chat/completions");
    expect(a!.body).toMatchObject({
      model: "Qwen/Qwen3-8B",
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.7,
      seed: 3,
      max_tokens: 512,
    });
    expect(a!.body.tools[0]).toEqual({ type: "function", function: tools[0] });
    expect(b!.body.messages[2]).toEqual({
      role: "assistant",
      content: "I'll activate it.",
      tool_calls: [{ id, type: "function", function: { name: "skill", arguments: '{"name":"release-notes"}' } }],
    });
    expect(b!.body.messages[3]).toEqual({ role: "tool", tool_call_id: id, content: "body" });
  });

  it("sends --max-tokens as max_completion_tokens to OpenAI's o*/gpt-* models, max_tokens to any other, or where --openai-token-field says (E1)", async () => {
    const s = await fake(() => chatCompletionReply("ok"));
    const sent = async (model: string, tokenField?: "max_tokens" | "max_completion_tokens") => {
      const res = await openaiProvider({
        model,
        baseUrl: `${s.url}/v1`,
        ...fast,
        ...(tokenField ? { tokenField } : {}),
      }).chat(req([{ role: "user", content: "go" }], { maxTokens: 300 }));
      const body = s.requests.at(-1)!.body;
      return {
        wire: { max_tokens: body.max_tokens, max_completion_tokens: body.max_completion_tokens },
        recorded: res.sent,
      };
    };
    for (const model of ["gpt-5", "o3-mini", "o1", "openai/gpt-4.1", "chatgpt-4o-latest"]) {
      expect(await sent(model), model).toEqual({
        wire: { max_tokens: undefined, max_completion_tokens: 300 },
        recorded: { temperature: 0.7, seed: 3, max_completion_tokens: 300 },
      });
    }
    for (const model of ["Qwen/Qwen3-8B", "llama3.1:8b", "gemma-2-9b-it", "ollama-gpt"]) {
      expect((await sent(model)).wire, model).toEqual({ max_tokens: 300, max_completion_tokens: undefined });
    }
    expect((await sent("Qwen/Qwen3-8B", "max_completion_tokens")).wire).toEqual({
      max_tokens: undefined,
      max_completion_tokens: 300,
    });
    expect((await sent("gpt-5", "max_tokens")).wire).toEqual({ max_tokens: 300, max_completion_tokens: undefined });
    expect(tokenFieldFor("gpt-5", "max_tokens")).toBe("max_tokens");
    const settings = (field: string) => ({ common: {}, options: { openai: { "token-field": field } }, scenarios: [] });
    expect(validateSpec("openai:gpt-5", settings("max_output_tokens"))).toMatch(
      /--openai-token-field wants max_tokens or max_completion_tokens, not max_output_tokens/,
    );
    expect(validateSpec("openai:gpt-5", settings("max_tokens"))).toBeUndefined();
    expect(OPENAI.flags.map((f) => f.key)).toContain("token-field");
  });

  it("tells parallel calls streamed at one index apart by their ids (Ollama's /v1 does that)", async () => {
    const s = await fake(
      queue([
        chatCompletionReply(
          "",
          [
            { name: "bash", arguments: { command: "ls" } },
            { name: "read", arguments: { path: "VERSION" } },
          ],
          { sameIndex: true },
        ),
      ]),
    );
    const res = await openaiProvider({ model: "m", baseUrl: `${s.url}/v1`, ...fast }).chat(
      req([{ role: "user", content: "go" }]),
    );
    expect(res.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ["bash", { command: "ls" }],
      ["read", { path: "VERSION" }],
    ]);
  });

  it("reads a server that answers with one JSON body, and records reasoning", async () => {
    const s = await fake(
      queue([
        chatCompletionReply("plain", [], { stream: false }),
        chatCompletionReply("answer", [], { reasoning: "thinking it over" }),
      ]),
    );
    const p = openaiProvider({ model: "m", baseUrl: `${s.url}/v1`, ...fast });
    expect(await p.chat(req([{ role: "user", content: "go" }]))).toMatchObject({ text: "plain", stopReason: "end" });
    expect(await p.chat(req([{ role: "user", content: "go" }]))).toMatchObject({
      text: "answer",
      reasoning: [{ text: "thinking it over" }],
    });
  });

  it("sends OPENAI_API_KEY as a bearer token", async () => {
    const seen: string[] = [];
    const s = await fake(() => chatCompletionReply("ok"));
    const orig = globalThis.fetch;
    globalThis.fetch = (input, init) => (
      seen.push(new Headers(init?.headers).get("authorization") ?? ""),
      orig(input, init)
    );
    try {
      await openaiProvider({ model: "m", baseUrl: `${s.url}/v1`, apiKey: "sk-test", ...fast }).chat(
        req([{ role: "user", content: "go" }]),
      );
    } finally {
      globalThis.fetch = orig;
    }
    expect(seen).toEqual(["Bearer sk-test"]);
  });

  it("errors say what went wrong: the context window, a refusal, a missing key", async () => {
    const s = await fake(
      queue([
        { status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens." } } },
        chatCompletionReply("no", [], { finishReason: "content_filter" }),
        { status: 401, body: { error: { message: "Incorrect API key provided" } } },
      ]),
    );
    const p = openaiProvider({ model: "m", baseUrl: `${s.url}/v1`, ...fast });
    const go = () => p.chat(req([{ role: "user", content: "go" }])).catch((e) => e);
    expect(await go()).toMatchObject({ code: "context_window" });
    expect(await go()).toMatchObject({ code: "refused" });
    expect(await go()).toMatchObject({ code: "auth", message: expect.stringMatching(/set OPENAI_API_KEY/) });
  });

  it("the probe checks /models, records what it says of the model, and says what to start or set", async () => {
    const s = await fake((path) =>
      path === "GET /v1/models"
        ? {
            status: 200,
            body: {
              object: "list",
              data: [
                {
                  id: "Qwen/Qwen3-8B",
                  object: "model",
                  owned_by: "vllm",
                  root: "/models/qwen3-8b-awq",
                  max_model_len: 32768,
                },
              ],
            },
          }
        : { status: 404, body: {} },
    );
    expect(await probeOpenAI("Qwen/Qwen3-8B", `${s.url}/v1`, undefined)).toEqual({
      ok: true,
      served: {
        provider: "openai",
        model: "Qwen/Qwen3-8B",
        endpoint: `${s.url}/v1`,
        ownedBy: "vllm",
        root: "/models/qwen3-8b-awq",
        maxModelLen: 32768,
      },
    });
    expect(await probeOpenAI("llama3", `${s.url}/v1`, undefined)).toEqual({
      ok: false,
      advice: expect.stringMatching(/does not serve "llama3" \(it serves: Qwen\/Qwen3-8B\)/),
    });
    expect(await probeOpenAI("m", undefined, undefined)).toEqual({
      ok: false,
      advice: expect.stringMatching(/set --openai-base-url or OPENAI_BASE_URL/),
    });
    const dead = await startFakeOpenAI(() => ({ status: 200, body: {} }));
    await dead.close();
    expect(await probeOpenAI("m", `${dead.url}/v1`, undefined)).toEqual({
      ok: false,
      advice: expect.stringMatching(/no server answers at .*: start it/),
    });
  });
});
