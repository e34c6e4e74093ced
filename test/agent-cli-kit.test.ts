// implementations/agent-cli-kit/: the loopback model fakes the agent-CLI drivers stand on, and one CLI run per case.
// The frames are checked the way a client SDK consumes them (event name = data.type, tool input = the concatenated
// input_json_delta / arguments, one terminal event); a run is driven end to end with a tiny client standing in for
// a CLI; where this runs as root, a run that looks up a non-loopback name fails loudly. All traffic stays on 127.0.0.1.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM modules without type declarations (implementations/ has no build)
import * as anthropic from "../implementations/agent-cli-kit/anthropic.mjs";
// @ts-expect-error plain ESM module
import * as responses from "../implementations/agent-cli-kit/responses.mjs";
// @ts-expect-error plain ESM module
import { frames, parseFrames } from "../implementations/agent-cli-kit/sse.mjs";
// @ts-expect-error plain ESM module
import { startFake } from "../implementations/agent-cli-kit/fake-server.mjs";
// @ts-expect-error plain ESM module
import { dnsQuestion, refused } from "../implementations/agent-cli-kit/tripwire.mjs";
// @ts-expect-error plain ESM module
import { canIsolate } from "../implementations/agent-cli-kit/run.mjs";
// @ts-expect-error plain ESM module
import { cliSession } from "../implementations/agent-cli-kit/cli-session.mjs";
// @ts-expect-error plain ESM module
import { renameParams } from "../implementations/agent-cli-kit/params.mjs";

type Ev = [string, Record<string, any>];

/** What an SDK's stream accumulator makes of Anthropic events: the content blocks and the stop reason. */
function accumulateMessage(events: Ev[]) {
  const blocks: any[] = [];
  const json: string[] = [];
  let stop: string | undefined;
  for (const [name, data] of events) {
    expect(data.type).toBe(name);
    if (name === "content_block_start") ((blocks[data.index] = { ...data.content_block }), (json[data.index] = ""));
    if (name === "content_block_delta" && data.delta.type === "input_json_delta")
      json[data.index] += data.delta.partial_json;
    if (name === "content_block_delta" && data.delta.type === "text_delta") blocks[data.index].text += data.delta.text;
    if (name === "content_block_stop" && blocks[data.index].type === "tool_use")
      blocks[data.index].input = JSON.parse(json[data.index]!);
    if (name === "message_delta") stop = data.delta.stop_reason;
  }
  return { blocks, stop, names: events.map(([n]) => n) };
}

describe("Anthropic Messages fake: the streamed events", () => {
  it("plays tool calls as tool_use blocks whose input_json_delta pieces join to the case's params, any JSON value", () => {
    const calls = [
      { id: "t1", name: "Skill", input: { skill: "hello", args: "x" } },
      { id: "t2", name: "Skill", input: null },
      { id: "t3", name: "Skill", input: 7 },
    ];
    const events = parseFrames(frames(anthropic.messageEvents({ calls }))) as Ev[];
    const m = accumulateMessage(events);
    expect(m.names[0]).toBe("message_start");
    expect(m.names.slice(-2)).toEqual(["message_delta", "message_stop"]);
    expect(m.stop).toBe("tool_use");
    expect(m.blocks.map((b) => [b.id, b.name, b.input])).toEqual(calls.map((c) => [c.id, c.name, c.input]));
  });

  it("ends a text turn with end_turn, and frames every event as `event:` then one `data:` line then a blank line", () => {
    const body = frames(anthropic.messageEvents({ text: "Done." }));
    expect(body).toMatch(/^event: message_start\ndata: \{.*\}\n\n/);
    expect(
      body
        .split("\n\n")
        .filter(Boolean)
        .every((f: string) => /^event: [a-z_]+\ndata: [^\n]+$/.test(f)),
    ).toBe(true);
    const m = accumulateMessage(parseFrames(body));
    expect(m.stop).toBe("end_turn");
    expect(m.blocks).toEqual([{ type: "text", text: "Done." }]);
  });

  it("reads the harness's answer: each tool_result by id, is_error, and the user text after it", () => {
    const body = {
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "a" },
            { type: "tool_use", id: "b" },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "b", content: "no", is_error: true },
            { type: "tool_result", tool_use_id: "a", content: [{ type: "text", text: "yes" }] },
            { type: "text", text: "Base directory: /x" },
          ],
        },
        { role: "user", content: "more" },
      ],
    };
    const { results, following } = anthropic.answersTo(body, ["a", "b"]);
    expect([...results.keys()]).toEqual(["b", "a"]);
    expect(results.get("a")).toMatchObject({ text: "yes", isError: false });
    expect(results.get("b")).toMatchObject({ text: "no", isError: true });
    expect(following).toEqual(["Base directory: /x", "more"]);
  });
});

describe("OpenAI Responses fake: the streamed events", () => {
  it("plays function calls: numbered events, arguments = the params as JSON, output_item.done and response.completed agree", () => {
    const events = parseFrames(
      frames(responses.responseEvents({ calls: [{ id: "c1", name: "exec_command", input: { cmd: "cat x" } }] })),
    ) as Ev[];
    events.forEach(([name, data], i) => (expect(data.type).toBe(name), expect(data.sequence_number).toBe(i)));
    expect(events.map(([n]) => n)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const done = events.find(([n]) => n === "response.output_item.done")![1].item;
    expect(done).toMatchObject({
      type: "function_call",
      call_id: "c1",
      name: "exec_command",
      arguments: '{"cmd":"cat x"}',
    });
    expect(events.at(-1)![1].response.output).toEqual([done]);
    expect(events.at(-1)![1].response.status).toBe("completed");
  });

  it("reads function_call_output by call_id and the user messages after it", () => {
    const body = {
      input: [
        { type: "function_call", call_id: "c1" },
        { type: "function_call_output", call_id: "c1", output: "Output:\nhi" },
        { type: "message", role: "user", content: [{ type: "input_text", text: "next" }] },
      ],
    };
    const { results, following } = responses.answersTo(body, ["c1"]);
    expect(results.get("c1").text).toBe("Output:\nhi");
    expect(following).toEqual(["next"]);
  });
});

describe("the fake server on 127.0.0.1", () => {
  it("holds a conversation turn until told what the model answers; answers side requests at once; 404 elsewhere", async () => {
    const others: string[] = [];
    const fake = await startFake({
      provider: "anthropic",
      isMain: (b: any) => anthropic.toolNames(b).includes("skill"),
      onMain: async () => ({ calls: [{ id: "t1", name: "skill", input: { skill: "x" } }] }),
      onOther: (r: any) => others.push(r.path),
      otherReply: () => '{"shouldBlock": false}',
    });
    try {
      expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const post = (body: unknown) => fetch(`${fake.url}/v1/messages`, { method: "POST", body: JSON.stringify(body) });
      const main = accumulateMessage(
        parseFrames(await (await post({ stream: true, tools: [{ name: "skill" }] })).text()),
      );
      expect(main.blocks[0].input).toEqual({ skill: "x" });
      const side = (await (await post({ stream: false, system: "classify" })).json()) as any;
      expect(side.content).toEqual([{ type: "text", text: '{"shouldBlock": false}' }]);
      expect(others).toEqual(["/v1/messages"]);
      expect((await fetch(`${fake.url}/elsewhere`)).status).toBe(404);
    } finally {
      await fake.close();
    }
  });
});

describe("tripwire DNS answers", () => {
  it("answers a query REFUSED with its id and question, so a lookup fails at once instead of waiting", () => {
    const q = Buffer.from("abcd0100000100000000000103617069076578616d706c6503636f6d0000010001", "hex");
    expect(dnsQuestion(q)?.name).toBe("api.example.com");
    const r = refused(q);
    expect(r.subarray(0, 2).toString("hex")).toBe("abcd");
    expect(r[2]! & 0x80).toBe(0x80);
    expect(r[3]! & 0x0f).toBe(5);
    expect(r.readUInt16BE(10)).toBe(0);
  });
});

/** A stand-in CLI: one turn offering `skill`, runs the tool calls it gets, sends their results, then ends. */
const CLIENT = `
const url = process.argv[2];
async function turn(messages) {
  const r = await fetch(url + "/v1/messages", { method: "POST", body: JSON.stringify({ stream: true, tools: [{ name: "skill" }], messages }) });
  const blocks = []; const json = [];
  for (const f of (await r.text()).split("\\n\\n").filter(Boolean)) {
    const d = JSON.parse(f.split("\\n")[1].slice(6));
    if (d.type === "content_block_start") { blocks[d.index] = d.content_block; json[d.index] = ""; }
    if (d.type === "content_block_delta" && d.delta.partial_json !== undefined) json[d.index] += d.delta.partial_json;
    if (d.type === "content_block_stop" && blocks[d.index].type === "tool_use") blocks[d.index].input = JSON.parse(json[d.index]);
  }
  return blocks;
}
// A CLI held before its first request (S24: a SKILL.md that is a FIFO blocks its read) never sends a turn.
if (process.env.HANG) await new Promise(() => setInterval(() => {}, 1000));
const lookup = process.env.LOOKUP;
if (lookup) await new Promise((r) => require("node:dns").lookup(lookup, () => r()));
let messages = [{ role: "user", content: "listing: - hello: Greets." }];
for (;;) {
  const blocks = await turn(messages);
  const uses = blocks.filter((b) => b.type === "tool_use");
  if (!uses.length) break;
  messages = [...messages, { role: "assistant", content: blocks }, { role: "user", content: uses.map((u) => ({ type: "tool_result", tool_use_id: u.id, content: "loaded " + JSON.stringify(u.input) })) }];
}
`;

function clientSession(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "kit-test-"));
  const script = join(dir, "client.cjs");
  writeFileSync(script, `(async () => {${CLIENT}})();`);
  return cliSession(
    {
      provider: "anthropic",
      mainTools: ["skill"],
      command: process.execPath,
      args: [script, "{{BASE_URL}}"],
      env: { PATH: process.env.PATH ?? "", ...env },
      cwd: dir,
    },
    {
      toolName: "skill",
      input: (p: unknown) => renameParams(p, { name: "skill" }),
      catalog: (body: any) => ({ tool_description: body.messages[0].content, entries: [] }),
      answer: ({ result }: any) => ({ kind: "ok", output: result.text }),
    },
  );
}

describe("one CLI run per case (cliSession over startRun)", () => {
  it("reads the catalog off the first turn, plays calls made together as one turn, and ends the run on close", async () => {
    process.env.AGENT_CLI_KIT_QUIET = "1";
    const s = clientSession();
    expect((await s.catalog()).tool_description).toBe("listing: - hello: Greets.");
    const [a, b] = await Promise.all([s.call({ name: "hello" }), s.call({ name: "x", extra: 1 })]);
    expect(a.output).toBe('loaded {"skill":"hello"}');
    expect(b.output).toBe('loaded {"skill":"x","extra":1}');
    expect((await s.call(null)).output).toBe("loaded null");
    await s.close();
    expect((await s.run.exit).code).toBe(0);
  });

  it("close() stops a CLI whose first turn never came, and every pending call is answered at once", async () => {
    process.env.AGENT_CLI_KIT_QUIET = "1";
    const s = clientSession({ HANG: "1" });
    const pending = s.call({ name: "hello" });
    pending.catch(() => {});
    const started = Date.now();
    // The kit closes the session after its deadline passed with the catalog and the call unanswered.
    await s.close();
    await expect(pending).rejects.toThrow(/no conversation turn to answer: the CLI exited/);
    expect((await s.run.exit).signal ?? (await s.run.exit).code).not.toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a user-initiated call is never sent as the model's: it is answered unobserved (call.user-invocation, K120)", async () => {
    process.env.AGENT_CLI_KIT_QUIET = "1";
    const s = clientSession();
    await s.catalog();
    expect(await s.call({ name: "hello" }, { invocation: "user" })).toMatchObject({
      unobserved: "call.user-invocation",
    });
    await s.close();
    expect((await s.run.exit).code).toBe(0);
  });

  it.runIf(canIsolate())(
    "as root, voids a run whose CLI looked up a non-loopback name (nothing leaves the namespace)",
    async () => {
      process.env.AGENT_CLI_KIT_QUIET = "1";
      const s = clientSession({ LOOKUP: "telemetry.example.com" });
      await s.catalog();
      await expect(s.close()).rejects.toThrow(
        /network: the CLI tried to reach beyond loopback \(dns telemetry\.example\.com\)/,
      );
    },
  );
});

describe("renameParams", () => {
  it("never lets a case's own use of the harness's key be overwritten: the harness sees the clash as written", () => {
    expect(renameParams({ name: "hello", skill: "other" }, { name: "skill" })).toEqual({
      name: "hello",
      skill: "other",
    });
    expect(renameParams({ skill: "other", name: "hello" }, { name: "skill" })).toEqual({
      skill: "other",
      name: "hello",
    });
    expect(renameParams({ name: "hello", arguments: "a", args: "x" }, { name: "skill", arguments: "args" })).toEqual({
      skill: "hello",
      arguments: "a",
      args: "x",
    });
    expect(renameParams({ name: "hello", arguments: "a" }, { name: "skill", arguments: "args" })).toEqual({
      skill: "hello",
      args: "a",
    });
    expect(renameParams(null, { name: "skill" })).toBeNull();
  });
});
