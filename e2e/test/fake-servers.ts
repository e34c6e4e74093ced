// Loopback fakes of the two model wire formats, for tests with no network: Ollama's POST /api/chat (stream: false)
// and GET /api/tags over node:http, and Bedrock Converse's POST /model/{modelId}/converse over node:http2 (cleartext;
// the AWS SDK's default Node handler speaks HTTP/2). Each records the request bodies it received and answers from a
// queue of canned replies or from a function — e.g. one that plays a scenario's scripted policy, so whole
// scenarios run through the real client libraries.
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { Message, ToolSpec } from "../providers/types.ts";
import { PolicyView, type Policy, type Step } from "../scenario.ts";
import type { Scenario } from "../scenario.ts";

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent verbatim instead of JSON of `body` (e.g. an NDJSON stream cut before its done line). */
  raw?: string;
}

export interface FakeServer {
  url: string;
  /** Parsed JSON bodies, in arrival order, with the path they were sent to. */
  requests: { path: string; body: any }[];
  close(): Promise<void>;
}

type Responder = (path: string, body: any) => Reply | Promise<Reply>;

function collect(req: http.IncomingMessage | http2.Http2ServerRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (s += c));
    req.on("end", () => resolve(s));
    req.on("error", reject);
  });
}

/** A queue of replies, then a fallback function. */
export function queue(replies: Reply[], then?: Responder): Responder {
  return (path, body) => {
    const next = replies.shift();
    if (next) return next;
    if (then) return then(path, body);
    return { status: 500, body: { error: "fake server: no reply queued" } };
  };
}

type Req = http.IncomingMessage | http2.Http2ServerRequest;
type Res = http.ServerResponse | http2.Http2ServerResponse;

/** The request handling both fakes share: record the JSON body, answer with the responder's reply. */
function handler(requests: FakeServer["requests"], respond: Responder) {
  return async (req: Req, res: Res): Promise<void> => {
    const raw = await collect(req);
    const body = raw ? JSON.parse(raw) : undefined;
    const path = decodeURIComponent(req.url ?? "");
    requests.push({ path, body });
    const r = await respond(`${req.method} ${path}`, body);
    res.writeHead(r.status, { "content-type": r.raw !== undefined ? "application/x-ndjson" : "application/json", ...r.headers });
    res.end(r.raw ?? JSON.stringify(r.body));
  };
}

async function listen(server: http.Server | http2.Http2Server, requests: FakeServer["requests"], closeConnections: () => void): Promise<FakeServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        closeConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startFakeOllama(respond: Responder): Promise<FakeServer> {
  const requests: FakeServer["requests"] = [];
  const server = http.createServer(handler(requests, respond));
  return listen(server, requests, () => server.closeAllConnections());
}

export async function startFakeBedrock(respond: Responder): Promise<FakeServer> {
  const requests: FakeServer["requests"] = [];
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = http2.createServer();
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  server.on("request", handler(requests, respond));
  return listen(server, requests, () => {
    for (const s of sessions) s.destroy();
  });
}

// ---- wire replies --------------------------------------------------------------------------------------------

export function ollamaReply(content: string, toolCalls: { name: string; arguments: unknown }[] = []): Reply {
  return {
    status: 200,
    body: {
      model: "fake",
      created_at: new Date().toISOString(),
      message: { role: "assistant", content, ...(toolCalls.length ? { tool_calls: toolCalls.map((c) => ({ function: c })) } : {}) },
      done: true,
      done_reason: "stop",
      total_duration: 1,
      load_duration: 1,
      prompt_eval_count: 11,
      prompt_eval_duration: 1,
      eval_count: 7,
      eval_duration: 1,
    },
  };
}

let toolUseSeq = 0;
export function converseReply(text: string, toolCalls: { name: string; arguments: unknown }[] = []): Reply {
  const content = [...(text ? [{ text }] : []), ...toolCalls.map((c) => ({ toolUse: { toolUseId: `tooluse_${++toolUseSeq}`, name: c.name, input: c.arguments } }))];
  return {
    status: 200,
    body: {
      output: { message: { role: "assistant", content } },
      stopReason: toolCalls.length ? "tool_use" : "end_turn",
      usage: { inputTokens: 11, outputTokens: 7, totalTokens: 18 },
      metrics: { latencyMs: 1 },
    },
  };
}

export const throttled: Reply = {
  status: 429,
  headers: { "x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/" },
  body: { message: "Too many requests, please wait before trying again." },
};

// ---- wire requests back to the loop's messages, so a scripted policy can answer -------------------------------

export function fromOllamaWire(body: any): { messages: Message[]; tools: ToolSpec[] } {
  const messages: Message[] = [];
  let pending: string[] = [];
  let n = 0;
  for (const m of body.messages as any[]) {
    if (m.role === "system" || m.role === "user") messages.push({ role: m.role, content: m.content });
    else if (m.role === "assistant") {
      const calls = (m.tool_calls ?? []).map((c: any) => ({ id: `w${n++}`, name: c.function.name, arguments: c.function.arguments }));
      pending = calls.map((c: { id: string }) => c.id);
      messages.push({ role: "assistant", content: m.content ?? "", toolCalls: calls });
    } else if (m.role === "tool") messages.push({ role: "tool", toolCallId: pending.shift() ?? "?", name: m.tool_name, content: m.content });
  }
  const tools = (body.tools ?? []).map((t: any) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
  return { messages, tools };
}

export function fromConverseWire(body: any): { messages: Message[]; tools: ToolSpec[] } {
  const messages: Message[] = (body.system ?? []).map((s: any) => ({ role: "system", content: s.text }));
  for (const m of body.messages as any[]) {
    if (m.role === "assistant") {
      messages.push({
        role: "assistant",
        content: (m.content as any[]).filter((b) => b.text !== undefined).map((b) => b.text).join("\n"),
        toolCalls: (m.content as any[]).filter((b) => b.toolUse).map((b) => ({ id: b.toolUse.toolUseId, name: b.toolUse.name, arguments: b.toolUse.input })),
      });
    } else {
      for (const b of m.content as any[]) {
        if (b.text !== undefined) messages.push({ role: "user", content: b.text });
        else if (b.toolResult) messages.push({ role: "tool", toolCallId: b.toolResult.toolUseId, name: "?", content: b.toolResult.content.map((c: any) => c.text).join("") });
      }
    }
  }
  const tools = (body.toolConfig?.tools ?? []).map((t: any) => ({ name: t.toolSpec.name, description: t.toolSpec.description, parameters: t.toolSpec.inputSchema.json }));
  return { messages, tools };
}

/** Which scenario a conversation belongs to: the one whose first prompt opens it. */
export function scenarioOf(messages: Message[], scenarios: readonly Scenario[]): Scenario {
  const first = messages.find((m) => m.role === "user");
  const s = scenarios.find((x) => x.prompts[0] === (first as { content?: string } | undefined)?.content);
  if (!s) throw new Error("fake server: conversation matches no scenario");
  return s;
}

/** Plays a scenario's policy against the conversation a wire request carries. */
export function playPolicy(decoded: { messages: Message[]; tools: ToolSpec[] }, pick: (s: Scenario) => Policy, scenarios: readonly Scenario[]): Step {
  const s = scenarioOf(decoded.messages, scenarios);
  return pick(s)(new PolicyView({ messages: decoded.messages, tools: decoded.tools, temperature: 0 }));
}

// ---- faults: replies that are not a usable model turn; the judge must score each as an error ------------------

const ollamaBody = (over: Record<string, unknown>, drop: string[] = []): Reply => {
  const body: Record<string, unknown> = { ...(ollamaReply("").body as Record<string, unknown>), ...over };
  for (const k of drop) delete body[k];
  return { status: 200, body };
};

/** Ollama /api/chat faults (200 replies a careless adapter would take as the model's answer). */
export const OLLAMA_FAULTS: Record<string, Reply> = {
  "200 with error": { status: 200, body: { error: "model runner has unexpectedly stopped" } },
  "message null": ollamaBody({ message: null }),
  "message missing": ollamaBody({}, ["message"]),
  "empty message, no tool calls": ollamaBody({ message: { role: "assistant", content: "" } }),
  "done missing": ollamaBody({ message: { role: "assistant", content: "Deployment refused." } }, ["done", "done_reason"]),
  "done false": ollamaBody({ message: { role: "assistant", content: "Deployment refused." }, done: false }, ["done_reason"]),
  "ndjson cut before done": {
    status: 200,
    body: null,
    raw:
      JSON.stringify({ model: "fake", created_at: "2026-01-01T00:00:00Z", message: { role: "assistant", content: "The skill is" }, done: false }) +
      "\n" +
      JSON.stringify({ model: "fake", created_at: "2026-01-01T00:00:00Z", message: { role: "assistant", content: " disabled" }, done: false }) +
      "\n",
  },
  "one ndjson line, not done": {
    status: 200,
    body: null,
    raw: JSON.stringify({ model: "fake", created_at: "2026-01-01T00:00:00Z", message: { role: "assistant", content: "Refused: the skill is disabled" }, done: false }) + "\n",
  },
  "done_reason length, empty": ollamaBody({ message: { role: "assistant", content: "" }, done_reason: "length" }),
  "done_reason length, cut text": ollamaBody({ message: { role: "assistant", content: "The skill is disabled, so I" }, done_reason: "length" }),
  "done_reason load": ollamaBody({ message: { role: "assistant", content: "" }, done_reason: "load" }),
  "tool call without a name": ollamaBody({ message: { role: "assistant", content: "", tool_calls: [{ function: { arguments: {} } }] } }),
};

const converse = (stopReason: unknown, content: unknown[] | null): Reply => ({
  status: 200,
  body: {
    ...(content === null ? { output: {} } : { output: { message: { role: "assistant", content } } }),
    ...(stopReason === undefined ? {} : { stopReason }),
    usage: { inputTokens: 11, outputTokens: 7, totalTokens: 18 },
    metrics: { latencyMs: 1 },
  },
});
const TEXT = [{ text: "The deploy-prod skill is disabled for models; please run it yourself." }];

/** Bedrock Converse faults: every stopReason that is not a finished answer or a tool use, and malformed bodies. */
export const BEDROCK_FAULTS: Record<string, Reply> = {
  max_tokens: converse("max_tokens", [{ text: "The deploy-prod skill is" }]),
  guardrail_intervened: converse("guardrail_intervened", [{ text: "Sorry, the model cannot answer this question." }]),
  content_filtered: converse("content_filtered", TEXT),
  malformed_model_output: converse("malformed_model_output", TEXT),
  malformed_tool_use: converse("malformed_tool_use", [{ toolUse: { toolUseId: "t1", name: "skill", input: {} } }]),
  model_context_window_exceeded: converse("model_context_window_exceeded", TEXT),
  "unknown stopReason": converse("paused_for_reflection", TEXT),
  "stopReason missing": converse(undefined, TEXT),
  "end_turn, empty": converse("end_turn", []),
  "tool_use without toolUse": converse("tool_use", TEXT),
  "output.message missing": converse("end_turn", null),
};

/** How many model turns the conversation in a wire request already holds (0 for a trial's first request). */
export function assistantTurnsIn(body: any): number {
  return ((body?.messages ?? []) as { role?: string }[]).filter((m) => m.role === "assistant").length;
}
