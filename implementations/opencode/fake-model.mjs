// A scripted model on loopback, speaking the OpenAI chat-completions stream that OpenCode's bundled
// @ai-sdk/openai-compatible provider reads. It is how the driver reaches OpenCode's real `skill` tool
// through OpenCode's own agent loop: a user turn carrying a marker `kitcall:<id>` is answered with one
// tool call `skill(<the kit's params, verbatim JSON>)` whose call id is <id>; the turn after the tool
// result (and any other request: title generation) is answered with plain text. No network, no real model.
import { createServer } from "node:http";

function chunk(delta, finish) {
  return {
    id: "chatcmpl-kit",
    object: "chat.completion.chunk",
    created: 0,
    model: "kit-scripted",
    choices: [{ index: 0, delta, finish_reason: finish ?? null }],
  };
}

function textOf(message) {
  if (typeof message?.content === "string") return message.content;
  if (Array.isArray(message?.content)) return message.content.map((p) => p?.text ?? "").join("");
  return "";
}

/**
 * `shared.calls` maps a call id to the raw tool input the kit asked for (any JSON value); the system prompt of
 * the last request served is left in `shared.lastSystem` (OpenCode lists the skills to the model there).
 */
export async function startFakeModel(shared) {
  const calls = shared.calls;
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(raw);
      } catch {}
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const last = messages[messages.length - 1];
      const system = messages
        .filter((m) => m?.role === "system")
        .map(textOf)
        .join("\n\n");
      if (system) shared.lastSystem = system;
      const marker = last?.role === "user" ? /kitcall:([A-Za-z0-9_-]+)/.exec(textOf(last)) : null;
      const id = marker?.[1];
      const chunks = [];
      if (id && calls.has(id)) {
        const args = JSON.stringify(calls.get(id));
        const call = { index: 0, id, type: "function", function: { name: "skill", arguments: args } };
        chunks.push(chunk({ role: "assistant", tool_calls: [call] }), chunk({}, "tool_calls"));
      } else {
        chunks.push(chunk({ role: "assistant", content: "done" }), chunk({}, "stop"));
      }
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      if (body.stream === false) {
        res.writeHead(200, { "content-type": "application/json" });
        const message =
          id && calls.has(id)
            ? { role: "assistant", content: null, tool_calls: [chunks[0].choices[0].delta.tool_calls[0]] }
            : { role: "assistant", content: "done" };
        const finish = chunks[chunks.length - 1].choices[0].finish_reason;
        res.end(
          JSON.stringify({
            id: "chatcmpl-kit",
            object: "chat.completion",
            created: 0,
            model: "kit-scripted",
            choices: [{ index: 0, message, finish_reason: finish }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const c of chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
      res.write(`data: ${JSON.stringify({ ...chunk({}, null), choices: [], usage })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}
