// The Ollama adapter through the real `ollama` client against a loopback /api/chat: the request body on the wire,
// tool calls normalised (no id on the wire → synthesised; arguments already parsed), tool results as role "tool",
// retries on 429, errors mapped to advice, the probe, OLLAMA_HOST, and all of SK1–SK8 played over the wire.
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadModule } from "../../conformance/driver/in-process.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { ollamaHost, ollamaProvider, probeOllama } from "../providers/ollama.ts";
import { ProviderError, type ChatRequest } from "../providers/types.ts";
import { runTrials } from "../run.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import {
  fromOllamaWire,
  ollamaReply,
  ollamaShow,
  playPolicy,
  queue,
  startFakeOllama,
  type FakeServer,
} from "./fake-servers.ts";

const fast = { retries: 2, baseDelayMs: 5, maxDelayMs: 10, timeoutMs: 5000 };
const tools = [
  {
    name: "skill",
    description: "Activate a skill.",
    parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
];
const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [
    { role: "system", content: "sys" },
    { role: "user", content: "do it" },
  ],
  tools,
  temperature: 0.3,
  seed: 7,
  ...over,
});

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("ollama adapter on the wire", () => {
  it("sends a non-streaming /api/chat with native tools and options, and normalises the tool calls", async () => {
    server = await startFakeOllama(
      queue([
        ollamaReply("", [
          { name: "skill", arguments: { name: "release-notes" } },
          { name: "bash", arguments: { command: "ls" } },
        ]),
      ]),
    );
    const p = ollamaProvider({ model: "qwen3:8b", host: server.url, ...fast });
    const res = await p.chat(req());
    // The server's ids are kept (a template may match results by them).
    expect(res.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        idSource: "provider",
        name: "skill",
        arguments: { name: "release-notes" },
      },
      { id: expect.stringMatching(/^call_/), idSource: "provider", name: "bash", arguments: { command: "ls" } },
    ]);
    expect(res.toolCalls[0]!.id).not.toBe(res.toolCalls[1]!.id);
    expect(res.stopReason).toBe("tool_use");
    expect(res.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(res.attempts).toBe(1);
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/api/chat");
    expect(sent.body).toMatchObject({
      model: "qwen3:8b",
      stream: false,
      options: { temperature: 0.3, seed: 7 },
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "do it" },
      ],
      tools: [
        {
          type: "function",
          function: { name: "skill", description: "Activate a skill.", parameters: tools[0]!.parameters },
        },
      ],
    });
  });

  it("sends tool results back as role tool messages with tool_call_id and tool_name after the assistant's tool_calls", async () => {
    server = await startFakeOllama(queue([ollamaReply("All done.")]));
    const p = ollamaProvider({ model: "qwen3:8b", host: server.url, ...fast });
    const res = await p.chat(
      req({
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "do it" },
          { role: "assistant", content: "", toolCalls: [{ id: "call_0_0", name: "skill", arguments: { name: "x" } }] },
          { role: "tool", toolCallId: "call_0_0", name: "skill", content: "<skill …>" },
        ],
      }),
    );
    expect(res).toMatchObject({ text: "All done.", toolCalls: [], stopReason: "end" });
    expect(server.requests[0]!.body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_0_0", function: { name: "skill", arguments: { name: "x" } } }],
      },
      { role: "tool", content: "<skill …>", tool_name: "skill", tool_call_id: "call_0_0" },
    ]);
  });

  it("retries a 429 with backoff, then succeeds", async () => {
    server = await startFakeOllama(
      queue([
        { status: 429, body: { error: "server busy" } },
        { status: 503, body: { error: "loading" } },
        ollamaReply("ok"),
      ]),
    );
    const res = await ollamaProvider({ model: "qwen3:8b", host: server.url, ...fast }).chat(req());
    expect(res.text).toBe("ok");
    expect(res.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it("a missing model is not retried and says what to pull", async () => {
    server = await startFakeOllama(
      queue([{ status: 404, body: { error: 'model "qwen3:8b" not found, try pulling it first' } }]),
    );
    const err = await ollamaProvider({ model: "qwen3:8b", host: server.url, ...fast })
      .chat(req())
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ code: "model_not_found", transient: false });
    expect(err.message).toContain("ollama pull qwen3:8b");
    expect(server.requests).toHaveLength(1);
  });

  it("a refused connection says to start ollama serve", async () => {
    const dead = await startFakeOllama(queue([]));
    const url = dead.url;
    await dead.close();
    const err = await ollamaProvider({ model: "qwen3:8b", host: url, ...fast, retries: 1 })
      .chat(req())
      .catch((e) => e);
    expect(err).toMatchObject({ code: "unreachable", attempts: 2 });
    expect(err.message).toContain("ollama serve");
  });

  it("a call that outlives its timeout is retried and then reported as a timeout", async () => {
    server = await startFakeOllama(() => new Promise((r) => setTimeout(() => r(ollamaReply("late")), 2000)));
    const err = await ollamaProvider({
      model: "qwen3:8b",
      host: server.url,
      ...fast,
      timeoutMs: 100,
      retries: 1,
      budgetMs: 10_000,
    })
      .chat(req())
      .catch((e) => e);
    expect(err).toMatchObject({ code: "timeout" });
    expect(server.requests).toHaveLength(2);
  });

  it("the probe lists /api/tags and says what to pull or start", async () => {
    server = await startFakeOllama((path) =>
      path === "GET /api/tags"
        ? { status: 200, body: { models: [{ name: "qwen3:8b", model: "qwen3:8b" }, { name: "gemma4:e2b" }] } }
        : path === "POST /api/show"
          ? ollamaShow(["completion", "tools", "thinking"])
          : { status: 404, body: {} },
    );
    expect(await probeOllama("qwen3:8b", server.url)).toEqual({ ok: true });
    expect(await probeOllama("qwen3.5:27b", server.url)).toEqual({
      ok: false,
      advice: expect.stringContaining("ollama pull qwen3.5:27b"),
    });
    const url = server.url;
    await server.close();
    server = undefined;
    expect(await probeOllama("qwen3:8b", url, 2000)).toEqual({
      ok: false,
      advice: expect.stringMatching(/ollama serve.*OLLAMA_HOST.*ollama pull qwen3:8b/),
    });
  });

  it("honours OLLAMA_HOST", () => {
    const saved = process.env["OLLAMA_HOST"];
    process.env["OLLAMA_HOST"] = "10.1.2.3:9999";
    try {
      expect(ollamaHost()).toBe("10.1.2.3:9999");
      expect(ollamaHost("http://x:1")).toBe("http://x:1");
    } finally {
      if (saved === undefined) delete process.env["OLLAMA_HOST"];
      else process.env["OLLAMA_HOST"] = saved;
    }
  });
});

describe("SK1–SK8 over the Ollama wire", () => {
  let impl: Implementation;
  beforeAll(async () => {
    impl = await loadModule(join(import.meta.dirname, "..", "..", "reference", "index.ts"));
  });
  afterAll(() => impl?.dispose());

  it("the good policies pass and the bad ones fail when played by a fake Ollama", async () => {
    for (const [label, pick, want] of [
      ["good", (s: (typeof SCENARIOS)[number]) => s.good, "pass"],
      ["bad", (s: (typeof SCENARIOS)[number]) => Object.values(s.bad)[0]!.play, "fail"],
    ] as const) {
      const fake = await startFakeOllama((path, body) => {
        const step = playPolicy(fromOllamaWire(body), pick, SCENARIOS);
        return ollamaReply(step.text ?? "", step.calls ?? [], { thinking: "thinking it over" });
      });
      try {
        const results = await runTrials({
          scenarios: SCENARIOS,
          providers: [ollamaProvider({ model: "fake-model", host: fake.url, ...fast })],
          implementation: impl,
          n: 1,
          concurrency: 4,
          temperature: 0,
          seed: 3,
        });
        expect(
          results.map((r) => `${r.scenario} ${r.outcome}`),
          label,
        ).toEqual(SCENARIOS.map((s) => `${s.id} ${want}`));
        expect(results.every((r) => r.modelKind === "real" && r.model === "ollama:fake-model")).toBe(true);
        // The skill tool's description on the wire is the implementation's catalog text (§2.2 + listing).
        const first = fake.requests[0]!.body;
        expect(first.tools.map((t: any) => t.function.name)).toEqual(["skill", "bash", "read"]);
        expect(first.tools[0].function.description).toContain("<available_skills>");
        // Every tool result went back with its call's id (the fake refuses one it cannot match), and the model's
        // thinking was replayed on its assistant turns.
        const later = fake.requests.filter((r) => r.body.messages.some((m: any) => m.role === "tool"));
        expect(later.length).toBeGreaterThan(0);
        for (const r of later)
          for (const m of r.body.messages.filter((x: any) => x.role === "assistant"))
            expect(m.thinking).toBe("thinking it over");
      } finally {
        await fake.close();
      }
    }
  });
});
