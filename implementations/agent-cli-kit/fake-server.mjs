// The fake model server: HTTP on 127.0.0.1, an ephemeral port, speaking one provider's API (anthropic: Messages;
// responses: OpenAI Responses). Every request is recorded. A request that offers the harness's skill-bearing tool
// set is a turn of the conversation under test ("main"): the server holds it until `onMain` says what the model
// answers. Any other model request (a title, a quota probe, a background summary) is answered at once with a short
// text turn (`otherReply(body)`, default "ok") and reported through `onOther`, so a harness's side traffic never steers the case.
import { createServer } from "node:http";
import * as anthropic from "./anthropic.mjs";
import * as responses from "./responses.mjs";
import { frames } from "./sse.mjs";

export const PROVIDERS = {
  anthropic: {
    api: anthropic,
    events: anthropic.messageEvents,
    json: anthropic.messageJson,
    isTurn: (path) => /\/messages$/.test(path),
  },
  responses: {
    api: responses,
    events: responses.responseEvents,
    json: responses.responseJson,
    isTurn: (path) => /\/responses$/.test(path),
  },
};

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res, turn, body, p, n) {
  const meta = {
    id: `${p === PROVIDERS.anthropic ? "msg" : "resp"}_${n}`,
    model: typeof body?.model === "string" ? body.model : "fake-model",
  };
  if (body?.stream) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.end(frames(p.events(turn, meta)));
  } else {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(p.json(turn, meta)));
  }
}

/**
 * Start the fake. `isMain(body)` tells a turn of the conversation under test; `onMain(record)` resolves to the turn
 * to play ({calls} or {text}); `onOther(record)` sees everything else. Resolves to {url, port, close()}.
 */
export function startFake({ provider, isMain, onMain, onOther = () => {}, otherReply = () => "ok" }) {
  const p = PROVIDERS[provider];
  if (!p) throw new Error(`unknown provider ${provider}`);
  let n = 0;
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? "").split("?")[0];
    const record = { seq: ++n, method: req.method, path, body };
    try {
      if (req.method === "POST" && p.isTurn(path) && isMain(body, path))
        return send(res, await onMain(record), body, p, record.seq);
      onOther(record);
      if (req.method === "POST" && p.isTurn(path)) return send(res, { text: otherReply(body) }, body, p, record.seq);
      if (/count_tokens$/.test(path))
        return (res.writeHead(200, { "content-type": "application/json" }), res.end('{"input_tokens":1}'));
      if (req.method === "GET" && /\/models$/.test(path))
        return (
          res.writeHead(200, { "content-type": "application/json" }),
          res.end(
            '{"object":"list","data":[{"id":"fake-model","object":"model","type":"model","display_name":"fake-model"}],"has_more":false}',
          )
        );
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "error",
          error: { type: "not_found_error", message: `the fake model serves no ${req.method} ${path}` },
        }),
      );
    } catch (e) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(e?.message ?? e) } }));
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((r) => (server.closeAllConnections?.(), server.close(() => r()))),
      });
    });
  });
}
