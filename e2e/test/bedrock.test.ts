// The Bedrock adapter through the real @aws-sdk/client-bedrock-runtime ConverseCommand against a loopback
// Converse endpoint (POST /model/{modelId}/converse), with static fake credentials and the endpoint override: the
// request body (system, toolConfig, toolUse/toolResult with toolUseId, results merged into one user message),
// stopReason tool_use, retries on ThrottlingException, error advice, the probe, and SK1–SK8 over the wire.
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadModule } from "../../conformance/driver/in-process.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { bedrockProvider, probeBedrock, toConverseMessages, type BedrockOptions } from "../providers/bedrock.ts";
import { ProviderError, type ChatRequest } from "../providers/types.ts";
import { runTrials } from "../run.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import {
  converseReply,
  fromConverseWire,
  playPolicy,
  queue,
  startFakeBedrock,
  throttled,
  type FakeServer,
} from "./fake-servers.ts";

const MODEL = "us.anthropic.claude-opus-4-7";
const creds = { accessKeyId: "AKIAFAKEFAKEFAKE", secretAccessKey: "fake-secret-key" };
const opts = (url: string, over: Partial<BedrockOptions> = {}): BedrockOptions => ({
  modelId: MODEL,
  region: "us-east-1",
  endpoint: url,
  credentials: creds,
  retries: 2,
  baseDelayMs: 5,
  maxDelayMs: 10,
  timeoutMs: 5000,
  ...over,
});
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
  temperature: 0.2,
  seed: 9,
  maxTokens: 512,
  ...over,
});

let server: FakeServer | undefined;
const providers: { close(): void }[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) p.close();
  await server?.close();
  server = undefined;
});
const make = (o: BedrockOptions) => {
  const p = bedrockProvider(o);
  providers.push(p);
  return p;
};

describe("bedrock adapter on the wire", () => {
  it("posts Converse with system, toolConfig and inferenceConfig; toolUse blocks become tool calls", async () => {
    server = await startFakeBedrock(
      queue([converseReply("Let me look.", [{ name: "skill", arguments: { name: "release-notes" } }])]),
    );
    const res = await make(opts(server.url)).chat(req());
    expect(res.text).toBe("Let me look.");
    expect(res.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^tooluse_/),
        idSource: "provider",
        name: "skill",
        arguments: { name: "release-notes" },
      },
    ]);
    expect(res.stopReason).toBe("tool_use");
    expect(res.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(res.sampling).toEqual({ temperature: true, seed: false });
    const sent = server.requests[0]!;
    expect(sent.path).toBe(`/model/${MODEL}/converse`);
    expect(sent.body).toEqual({
      messages: [{ role: "user", content: [{ text: "do it" }] }],
      system: [{ text: "sys" }],
      toolConfig: {
        tools: [
          {
            toolSpec: { name: "skill", description: "Activate a skill.", inputSchema: { json: tools[0]!.parameters } },
          },
        ],
      },
      inferenceConfig: { temperature: 0.2, maxTokens: 512 },
    });
  });

  it("sends toolUse back with its toolUseId and merges consecutive tool results into one user message", async () => {
    server = await startFakeBedrock(queue([converseReply("Done.")]));
    const res = await make(opts(server.url)).chat(
      req({
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "do it" },
          {
            role: "assistant",
            content: "",
            toolCalls: [
              { id: "tu_a", name: "bash", arguments: { command: "git log" } },
              { id: "tu_b", name: "bash", arguments: { command: "rm -rf build" } },
            ],
          },
          { role: "tool", toolCallId: "tu_a", name: "bash", content: "exit code: 0\nabc feat" },
          { role: "tool", toolCallId: "tu_b", name: "bash", content: "Permission denied", isError: true },
        ],
      }),
    );
    expect(res).toMatchObject({ text: "Done.", toolCalls: [], stopReason: "end" });
    expect(server.requests[0]!.body.messages).toEqual([
      { role: "user", content: [{ text: "do it" }] },
      {
        role: "assistant",
        content: [
          { toolUse: { toolUseId: "tu_a", name: "bash", input: { command: "git log" } } },
          { toolUse: { toolUseId: "tu_b", name: "bash", input: { command: "rm -rf build" } } },
        ],
      },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "tu_a", content: [{ text: "exit code: 0\nabc feat" }], status: "success" } },
          { toolResult: { toolUseId: "tu_b", content: [{ text: "Permission denied" }], status: "error" } },
        ],
      },
    ]);
  });

  it("retries a ThrottlingException (429) with backoff, then succeeds", async () => {
    server = await startFakeBedrock(queue([throttled, throttled, converseReply("ok")]));
    const res = await make(opts(server.url)).chat(req());
    expect(res.text).toBe("ok");
    expect(res.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it("gives up on throttling after the retries, as a transient ProviderError", async () => {
    server = await startFakeBedrock(() => throttled);
    const err = await make(opts(server.url, { retries: 1 }))
      .chat(req())
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ code: "throttled", transient: true, attempts: 2 });
  });

  it("does not retry access or validation errors, and says what to check", async () => {
    server = await startFakeBedrock(
      queue([
        {
          status: 403,
          headers: { "x-amzn-errortype": "AccessDeniedException" },
          body: { message: "You don't have access to the model with the specified model ID." },
        },
        {
          status: 400,
          headers: { "x-amzn-errortype": "ValidationException" },
          body: { message: "The provided model identifier is invalid." },
        },
      ]),
    );
    const p = make(opts(server.url));
    const denied = await p.chat(req()).catch((e) => e);
    expect(denied).toMatchObject({ code: "auth", transient: false });
    expect(denied.message).toMatch(/model access/);
    const invalid = await p.chat(req()).catch((e) => e);
    expect(invalid).toMatchObject({ code: "model_not_found", transient: false });
    expect(server.requests).toHaveLength(2);
  });

  it("the probe checks region, credentials and a one-token Converse", async () => {
    server = await startFakeBedrock(queue([converseReply("p")]));
    expect(await probeBedrock(opts(server.url))).toEqual({ ok: true });
    expect(server.requests[0]!.body).toMatchObject({ inferenceConfig: { maxTokens: 1 } });
  });

  it("the probe names AWS_REGION and the credentials when neither is set", async () => {
    const keys = [
      "AWS_REGION",
      "AWS_DEFAULT_REGION",
      "AWS_PROFILE",
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_CONFIG_FILE",
      "AWS_SHARED_CREDENTIALS_FILE",
      "AWS_EC2_METADATA_DISABLED",
    ];
    const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
    for (const k of keys) delete process.env[k];
    process.env["AWS_CONFIG_FILE"] = "/nonexistent/aws-config";
    process.env["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent/aws-credentials";
    process.env["AWS_EC2_METADATA_DISABLED"] = "true";
    try {
      const r = await probeBedrock({ modelId: MODEL, endpoint: "http://127.0.0.1:9" });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.advice).toMatch(/AWS_REGION.*AWS_PROFILE|AWS_REGION.*AWS_ACCESS_KEY_ID/);
    } finally {
      for (const k of keys) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });

  it("toConverseMessages never sends an empty assistant message, and invents nothing in its place", () => {
    const { messages } = toConverseMessages([
      { role: "user", content: "a" },
      { role: "assistant", content: "", toolCalls: [] },
      { role: "user", content: "b" },
    ]);
    // The empty turn is left out; the user turns around it merge into one user message.
    expect(messages).toEqual([{ role: "user", content: [{ text: "a" }, { text: "b" }] }]);
  });
});

describe("SK1–SK8 over the Bedrock wire", () => {
  let impl: Implementation;
  beforeAll(async () => {
    impl = await loadModule(join(import.meta.dirname, "..", "..", "reference", "index.ts"));
  });
  afterAll(() => impl?.dispose());

  it("the good policies pass and the bad ones fail when played by a fake Converse endpoint", async () => {
    for (const [label, pick, want] of [
      ["good", (s: (typeof SCENARIOS)[number]) => s.good, "pass"],
      ["bad", (s: (typeof SCENARIOS)[number]) => Object.values(s.bad)[0]!.play, "fail"],
    ] as const) {
      let calls = 0;
      const fake = await startFakeBedrock((_path, body) => {
        // One throttle early on: the trial must ride it out, not count it as an error.
        if (++calls === 2) return throttled;
        const step = playPolicy(fromConverseWire(body), pick, SCENARIOS);
        return converseReply(step.text ?? "", step.calls ?? [], {
          reasoning: { text: "thinking it over", signature: "c2ln" },
        });
      });
      const p = make(opts(fake.url));
      try {
        const results = await runTrials({
          scenarios: SCENARIOS,
          providers: [p],
          implementation: impl,
          n: 1,
          concurrency: 4,
          temperature: 0,
        });
        expect(
          results.map((r) => `${r.scenario} ${r.outcome}`),
          label,
        ).toEqual(SCENARIOS.map((s) => `${s.id} ${want}`));
        const sk = fake.requests.find((r) => r.body.toolConfig)!.body;
        expect(sk.toolConfig.tools.map((t: any) => t.toolSpec.name)).toEqual(["skill", "bash", "read"]);
        // Every assistant turn replayed its reasoning first, signature intact, and every result its toolUseId.
        const later = fake.requests.filter((r) => r.body.messages?.some((m: any) => m.role === "assistant"));
        expect(later.length).toBeGreaterThan(0);
        for (const r of later) {
          for (const m of r.body.messages.filter((x: any) => x.role === "assistant"))
            expect(m.content[0]).toEqual({
              reasoningContent: { reasoningText: { text: "thinking it over", signature: "c2ln" } },
            });
          const uses = new Set(
            r.body.messages.flatMap((m: any) =>
              m.content.filter((b: any) => b.toolUse).map((b: any) => b.toolUse.toolUseId),
            ),
          );
          for (const m of r.body.messages)
            for (const b of m.content) if (b.toolResult) expect(uses.has(b.toolResult.toolUseId)).toBe(true);
        }
      } finally {
        p.close();
        await fake.close();
      }
    }
  });
});
