// Each rule of a faithful conversation, on the wire, through the real `ollama` and @aws-sdk/client-bedrock-runtime
// clients against the loopback fakes: ids round-tripped, reasoning kept and replayed, think levels and num_ctx,
// the capability probe, toolResult.status per model family (and dropped + retried once when rejected), nothing
// fabricated in the history, and one rule for string-encoded tool arguments on both providers.
import { afterEach, describe, expect, it } from "vitest";
import { bedrockProvider, toolResultStatusSupported, type BedrockOptions } from "../providers/bedrock.ts";
import { ollamaProvider, probeOllama } from "../providers/ollama.ts";
import type { ChatRequest, ChatResponse, Message } from "../providers/types.ts";
import { join } from "node:path";
import { loadModule } from "../../conformance/driver/in-process.ts";
import { runTrial } from "../loop.ts";
import { scenarioById } from "../scenarios/index.ts";
import {
  converseReply,
  ollamaReply,
  ollamaShow,
  queue,
  startFakeBedrock,
  startFakeOllama,
  type FakeServer,
  type Reply,
} from "./fake-servers.ts";

const fast = { retries: 1, baseDelayMs: 5, maxDelayMs: 10, timeoutMs: 5000 };
const creds = { accessKeyId: "AKIAFAKEFAKEFAKE", secretAccessKey: "fake-secret-key" };
const bedrock = (url: string, modelId: string, over: Partial<BedrockOptions> = {}) => {
  const p = bedrockProvider({ modelId, region: "us-east-1", endpoint: url, credentials: creds, ...fast, ...over });
  opened.push(p);
  return p;
};
const tools = [
  {
    name: "skill",
    description: "Activate a skill.",
    parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
];
const req = (messages: Message[]): ChatRequest => ({
  messages: [{ role: "system", content: "sys" }, ...messages],
  tools,
  temperature: 0,
});

const servers: FakeServer[] = [];
const opened: { close(): void }[] = [];
afterEach(async () => {
  for (const p of opened.splice(0)) p.close();
  for (const s of servers.splice(0)) await s.close();
});
async function fakeOllama(respond: Parameters<typeof startFakeOllama>[0]) {
  const s = await startFakeOllama(respond);
  servers.push(s);
  return s;
}
async function fakeBedrock(respond: Parameters<typeof startFakeBedrock>[0]) {
  const s = await startFakeBedrock(respond);
  servers.push(s);
  return s;
}

/** The next turn of a conversation after `res`: its assistant message and one result per tool call. */
function continued(history: Message[], res: ChatResponse, output = "ok"): Message[] {
  return [
    ...history,
    {
      role: "assistant",
      content: res.text,
      toolCalls: res.toolCalls,
      ...(res.reasoning ? { reasoning: res.reasoning } : {}),
    },
    ...res.toolCalls.map((c): Message => ({ role: "tool", toolCallId: c.id, name: c.name, content: output })),
  ];
}

describe("Ollama: ids, thinking, think levels, num_ctx, capabilities", () => {
  it("round-trips the server's tool-call id: the result carries tool_call_id as well as tool_name", async () => {
    const s = await fakeOllama(
      queue([ollamaReply("", [{ name: "skill", arguments: { name: "x" } }]), ollamaReply("done")]),
    );
    const p = ollamaProvider({ model: "m", host: s.url, ...fast });
    const first: Message[] = [{ role: "user", content: "go" }];
    const res = await p.chat(req(first));
    const serverId = s.requests.length && (res.toolCalls[0]!.id as string);
    expect(serverId).toMatch(/^call_/);
    await p.chat(req(continued(first, res)));
    const sent = s.requests[1]!.body.messages;
    expect(sent[2].tool_calls[0].id).toBe(serverId);
    expect(sent[3]).toEqual({ role: "tool", content: "ok", tool_name: "skill", tool_call_id: serverId });
  });

  it("synthesises stable ids only when the server sends none, and still sends them back", async () => {
    const s = await fakeOllama(
      queue([ollamaReply("", [{ name: "skill", arguments: { name: "x" } }], { ids: false }), ollamaReply("done")]),
    );
    const p = ollamaProvider({ model: "m", host: s.url, ...fast });
    const res = await p.chat(req([{ role: "user", content: "go" }]));
    expect(res.toolCalls[0]).toMatchObject({ id: "call_0_0", idSource: "synthesised" });
    await p.chat(req(continued([{ role: "user", content: "go" }], res)));
    expect(s.requests[1]!.body.messages[3].tool_call_id).toBe("call_0_0");
  });

  it("keeps the model's thinking and replays it on its assistant turn", async () => {
    const s = await fakeOllama(
      queue([
        ollamaReply("", [{ name: "skill", arguments: { name: "x" } }], { thinking: "The user wants x." }),
        ollamaReply("done"),
      ]),
    );
    const p = ollamaProvider({ model: "m", host: s.url, ...fast });
    const res = await p.chat(req([{ role: "user", content: "go" }]));
    expect(res.reasoning).toEqual([{ text: "The user wants x." }]);
    await p.chat(req(continued([{ role: "user", content: "go" }], res)));
    expect(s.requests[1]!.body.messages[2]).toMatchObject({ role: "assistant", thinking: "The user wants x." });
  });

  it.each([[true], [false], ["low"], ["medium"], ["high"]] as const)(
    "sends think %s as given, and num_ctx in options",
    async (think) => {
      const s = await fakeOllama(queue([ollamaReply("hi")]));
      await ollamaProvider({ model: "m", host: s.url, ...fast, think, numCtx: 16384 }).chat(
        req([{ role: "user", content: "go" }]),
      );
      expect(s.requests[0]!.body.think).toBe(think);
      expect(s.requests[0]!.body.options.num_ctx).toBe(16384);
    },
  );

  it("sends neither think nor num_ctx when not asked", async () => {
    const s = await fakeOllama(queue([ollamaReply("hi")]));
    await ollamaProvider({ model: "m", host: s.url, ...fast }).chat(req([{ role: "user", content: "go" }]));
    expect(s.requests[0]!.body).not.toHaveProperty("think");
    expect(s.requests[0]!.body.options).not.toHaveProperty("num_ctx");
  });

  it("the probe asks /api/show and says exactly which capability is missing", async () => {
    const caps: Record<string, string[]> = { "tooly:1b": ["completion", "tools"], "plain:1b": ["completion"] };
    const s = await fakeOllama((path, body) =>
      path === "GET /api/tags"
        ? { status: 200, body: { models: Object.keys(caps).map((name) => ({ name })) } }
        : ollamaShow(caps[body.model] ?? []),
    );
    expect(await probeOllama("tooly:1b", s.url)).toEqual({ ok: true });
    const noTools = await probeOllama("plain:1b", s.url);
    expect(noTools).toEqual({
      ok: false,
      advice: expect.stringMatching(/model plain:1b has no tools capability.*ollama pull qwen3:8b/),
    });
    const noThinking = await probeOllama("tooly:1b", s.url, 5000, { think: "high" });
    expect(noThinking).toEqual({
      ok: false,
      advice: expect.stringMatching(/model tooly:1b has no thinking capability, so --think high cannot apply/),
    });
    expect(await probeOllama("tooly:1b", s.url, 5000, { think: false })).toEqual({ ok: true });
    expect(s.requests.filter((r) => r.path === "/api/show").map((r) => r.body.model)).toContain("plain:1b");
  });

  it("a server too old to list capabilities is not refused on a guess", async () => {
    const s = await fakeOllama((path) =>
      path === "GET /api/tags"
        ? { status: 200, body: { models: [{ name: "old:1b" }] } }
        : { status: 200, body: { modelfile: "", details: {} } },
    );
    expect(await probeOllama("old:1b", s.url)).toEqual({ ok: true });
  });
});

describe("Bedrock: reasoning, nothing fabricated, toolResult.status", () => {
  const CLAUDE = "us.anthropic.claude-opus-4-7";
  const LLAMA = "meta.llama3-3-70b-instruct-v1:0";

  it("keeps reasoningContent (text and signature) and replays it first on its assistant turn", async () => {
    const reasoning = { text: "Need the release-notes skill.", signature: "c2lnbmF0dXJl" };
    const s = await fakeBedrock(
      queue([converseReply("", [{ name: "skill", arguments: { name: "x" } }], { reasoning }), converseReply("done")]),
    );
    const p = bedrock(s.url, CLAUDE);
    const res = await p.chat(req([{ role: "user", content: "go" }]));
    expect(res.reasoning).toEqual([reasoning]);
    await p.chat(req(continued([{ role: "user", content: "go" }], res)));
    const assistant = s.requests[1]!.body.messages[1];
    expect(assistant.content[0]).toEqual({ reasoningContent: { reasoningText: reasoning } });
    expect(assistant.content[1].toolUse.toolUseId).toBe(res.toolCalls[0]!.id);
  });

  it("keeps redacted reasoning byte for byte", async () => {
    const redacted = Buffer.from("opaque-redacted-bytes").toString("base64");
    const reply: Reply = {
      status: 200,
      body: {
        output: {
          message: {
            role: "assistant",
            content: [
              { reasoningContent: { redactedContent: redacted } },
              { toolUse: { toolUseId: "tu_1", name: "skill", input: { name: "x" } } },
            ],
          },
        },
        stopReason: "tool_use",
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      },
    };
    const s = await fakeBedrock(queue([reply, converseReply("done")]));
    const p = bedrock(s.url, CLAUDE);
    const res = await p.chat(req([{ role: "user", content: "go" }]));
    expect(res.reasoning).toEqual([{ redacted }]);
    await p.chat(req(continued([{ role: "user", content: "go" }], res)));
    expect(s.requests[1]!.body.messages[1].content[0]).toEqual({ reasoningContent: { redactedContent: redacted } });
  });

  it("an empty assistant turn is left out of the history, not replaced by made-up text", async () => {
    const s = await fakeBedrock(queue([converseReply("done")]));
    await bedrock(s.url, CLAUDE).chat(
      req([
        { role: "user", content: "first" },
        { role: "assistant", content: "", toolCalls: [] },
        { role: "user", content: "second" },
      ]),
    );
    expect(s.requests[0]!.body.messages).toEqual([{ role: "user", content: [{ text: "first" }, { text: "second" }] }]);
  });

  it("sends toolResult.status to the families AWS documents it for, and not to others", async () => {
    expect(
      [CLAUDE, "anthropic.claude-3-5-sonnet-20240620-v1:0", "us.amazon.nova-pro-v1:0"].map(toolResultStatusSupported),
    ).toEqual([true, true, true]);
    expect(
      [LLAMA, "mistral.mistral-large-2407-v1:0", "cohere.command-r-plus-v1:0"].map(toolResultStatusSupported),
    ).toEqual([false, false, false]);
    const history: Message[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: "", toolCalls: [{ id: "tu_a", name: "skill", arguments: { name: "x" } }] },
      { role: "tool", toolCallId: "tu_a", name: "skill", content: "denied", isError: true },
    ];
    const s = await fakeBedrock(() => converseReply("done"));
    await bedrock(s.url, CLAUDE).chat(req(history));
    await bedrock(s.url, LLAMA).chat(req(history));
    expect(s.requests[0]!.body.messages[2].content[0].toolResult).toEqual({
      toolUseId: "tu_a",
      content: [{ text: "denied" }],
      status: "error",
    });
    expect(s.requests[1]!.body.messages[2].content[0].toolResult).toEqual({
      toolUseId: "tu_a",
      content: [{ text: "denied" }],
    });
  });

  it("when the service rejects status, drops it, retries once, records that, and leaves it out from then on", async () => {
    const s = await fakeBedrock((_path, body) => {
      const hasStatus = JSON.stringify(body.messages).includes('"status"');
      return hasStatus
        ? {
            status: 400,
            headers: { "x-amzn-errortype": "ValidationException" },
            body: { message: "This model doesn't support the toolResult.status field." },
          }
        : converseReply("done");
    });
    const p = bedrock(s.url, "us.amazon.nova-pro-v1:0");
    const history: Message[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: "", toolCalls: [{ id: "tu_a", name: "skill", arguments: { name: "x" } }] },
      { role: "tool", toolCallId: "tu_a", name: "skill", content: "ok" },
    ];
    const res = await p.chat(req(history));
    expect(res.text).toBe("done");
    expect(res.adjustments).toEqual([expect.stringMatching(/toolResult\.status dropped .*retried once/)]);
    expect(res.attempts).toBe(2);
    expect(s.requests).toHaveLength(2);
    const again = await p.chat(req(history));
    expect(again.adjustments).toBeUndefined();
    expect(s.requests).toHaveLength(3);
  });

  it("a rejection that is not about status is not retried", async () => {
    const s = await fakeBedrock(() => ({
      status: 400,
      headers: { "x-amzn-errortype": "ValidationException" },
      body: { message: "messages: bad role order" },
    }));
    const err = await bedrock(s.url, CLAUDE)
      .chat(
        req([
          { role: "user", content: "go" },
          { role: "assistant", content: "", toolCalls: [{ id: "t", name: "skill", arguments: {} }] },
          { role: "tool", toolCallId: "t", name: "skill", content: "x" },
        ]),
      )
      .catch((e) => e);
    expect(err).toMatchObject({ code: "bad_request" });
    expect(s.requests).toHaveLength(1);
  });
});

describe("one rule for string-encoded tool arguments, on both providers", () => {
  const cases: [string, unknown, unknown, string | undefined][] = [
    ["an object", { name: "x" }, { name: "x" }, undefined],
    ["a JSON-object string", '{"name":"x"}', { name: "x" }, "json-string"],
  ];
  it.each(cases)(
    "%s decodes the same over Ollama and Bedrock, and is recorded",
    async (_label, wire, decoded, encoding) => {
      const o = await fakeOllama(queue([ollamaReply("", [{ name: "skill", arguments: wire }]), ollamaReply("done")]));
      const b = await fakeBedrock(
        queue([converseReply("", [{ name: "skill", arguments: wire }]), converseReply("done")]),
      );
      const op = ollamaProvider({ model: "m", host: o.url, ...fast });
      const bp = bedrock(b.url, "us.anthropic.claude-opus-4-7");
      const start: Message[] = [{ role: "user", content: "go" }];
      const [ro, rb] = [await op.chat(req(start)), await bp.chat(req(start))];
      for (const r of [ro, rb]) {
        expect(r.toolCalls[0]!.arguments).toEqual(decoded);
        expect(r.toolCalls[0]!.argumentsEncoding).toBe(encoding);
      }
      // Replayed as the decoded object on both wires.
      await op.chat(req(continued(start, ro)));
      await bp.chat(req(continued(start, rb)));
      expect(o.requests[1]!.body.messages[2].tool_calls[0].function.arguments).toEqual(decoded);
      expect(b.requests[1]!.body.messages[1].content[0].toolUse.input).toEqual(decoded);
    },
  );

  // R61: arguments that are not a JSON object are the model's own malformed call: kept as sent, marked with the
  // problem (the loop returns it to the model as a tool error), and replayed as {} because both wires need an object.
  it.each([
    ["a non-JSON string", "release-notes", /text that is not a JSON object/],
    ["a JSON array string", '["x"]', /text that is not a JSON object/],
  ])("%s is the model's malformed call over Ollama and Bedrock alike", async (_label, wire, problem) => {
    const o = await fakeOllama(queue([ollamaReply("", [{ name: "skill", arguments: wire }]), ollamaReply("done")]));
    const b = await fakeBedrock(
      queue([converseReply("", [{ name: "skill", arguments: wire }]), converseReply("done")]),
    );
    const op = ollamaProvider({ model: "m", host: o.url, ...fast });
    const bp = bedrock(b.url, "us.anthropic.claude-opus-4-7");
    const start: Message[] = [{ role: "user", content: "go" }];
    const [ro, rb] = [await op.chat(req(start)), await bp.chat(req(start))];
    for (const r of [ro, rb]) {
      expect(r.stopReason).toBe("tool_use");
      expect(r.toolCalls[0]).toMatchObject({
        name: "skill",
        arguments: wire,
        argumentsEncoding: "not-an-object",
        malformed: expect.stringMatching(problem),
      });
    }
    await op.chat(req(continued(start, ro)));
    await bp.chat(req(continued(start, rb)));
    expect(o.requests[1]!.body.messages[2].tool_calls[0].function.arguments).toEqual({});
    expect(b.requests[1]!.body.messages[1].content[0].toolUse.input).toEqual({});
  });
});

describe("the model's own output reaches the loop (R59, R61)", () => {
  const SK1 = scenarioById("SK1")!;
  it.each(["ollama", "bedrock"] as const)(
    "over %s, a malformed call is answered with a tool error naming the problem, and the trial goes on",
    async (name) => {
      const bad = { name: "bash", arguments: '{"command": "cat VERSION' };
      const s =
        name === "ollama"
          ? await fakeOllama(queue([ollamaReply("", [bad]), ollamaReply("All done.")]))
          : await fakeBedrock(queue([converseReply("", [bad]), converseReply("All done.")]));
      const provider =
        name === "ollama"
          ? ollamaProvider({ model: "m", host: s.url, ...fast })
          : bedrock(s.url, "us.anthropic.claude-opus-4-7");
      const impl = await loadModule(join(import.meta.dirname, "..", "..", "reference", "index.ts"));
      try {
        const events = await runTrial({ scenario: SK1, provider, implementation: impl, trial: 1, temperature: 0 });
        const told =
          name === "ollama"
            ? s.requests[1]!.body.messages.at(-1).content
            : s.requests[1]!.body.messages.at(-1).content[0].toolResult.content[0].text;
        expect(told).toMatch(
          /^Error: this bash call was not run: its arguments are text that is not a JSON object \(\{"command": "cat VERSION\), not a JSON object/,
        );
        expect(events.find((e) => e.type === "tool")).toMatchObject({
          tool: "bash",
          input: bad.arguments,
          isError: true,
          malformed: expect.any(String),
        });
        expect(events.at(-1)).toMatchObject({ type: "end", outcome: "completed" });
        expect(s.requests.length).toBe(2);
      } finally {
        await impl.dispose();
      }
    },
  );

  it("over Ollama, the server's 500 for a tool call it could not parse is not retried: the model is told and goes on", async () => {
    const unparsed: Reply = {
      status: 500,
      body: { error: "error parsing tool call: raw='{\"command\": \"ls}]', err=invalid character ']'" },
    };
    const s = await fakeOllama(queue([unparsed, ollamaReply("All done.")]));
    const impl = await loadModule(join(import.meta.dirname, "..", "..", "reference", "index.ts"));
    try {
      const events = await runTrial({
        scenario: SK1,
        provider: ollamaProvider({ model: "m", host: s.url, ...fast }),
        implementation: impl,
        trial: 1,
        temperature: 0,
      });
      expect(s.requests.length).toBe(2);
      const note = s.requests[1]!.body.messages.at(-1);
      expect(note.role).toBe("user");
      expect(note.content).toMatch(
        /^Your previous reply could not be used: the server could not parse the tool call the model wrote \(error parsing tool call/,
      );
      expect(events.filter((e) => e.type === "notice")).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: "end", outcome: "completed" });
    } finally {
      await impl.dispose();
    }
  });
});
