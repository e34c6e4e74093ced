// A minimal, dependency-free JSON-RPC driver for the kit's own tests. It speaks the protocol correctly
// (initialize, session/create, session/catalog, session/close, shutdown) and answers every skill/call
// with not_found, unless `misbehave` takes over a method. Each faulty driver here is one misbehaviour.
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");

export function serve(misbehave = {}, options = {}) {
  let sessions = 0;
  let calls = 0;
  const rl = createInterface({ input: process.stdin });
  rl.on("line", (line) => {
    const req = JSON.parse(line);
    if (!("method" in req)) return;
    const ctx = { req, send, calls };
    const custom = misbehave[req.method];
    if (req.method === "skill/call") ctx.calls = ++calls;
    if (custom && custom(ctx) !== "default") return;
    const result = (() => {
      switch (req.method) {
        case "initialize":
          return {
            implementation: {
              name: "faulty-" + (process.argv[1] ?? "").split("/").pop(),
              version: "0.0.0",
              language: "javascript",
            },
            specVersion: "1",
            capabilities: {},
          };
        case "session/create":
          return { sessionId: "s" + ++sessions };
        case "session/catalog":
          return { tool_description: "Activate an installed skill by name.", entries: [], warnings: [] };
        case "skill/call": {
          const name = typeof req.params.params?.name === "string" ? req.params.params.name : "";
          return { kind: "not_found", name, siblings: [], output: `(No skill matches "${name}".)` };
        }
        case "session/close":
        case "shutdown":
          return {};
        default:
          return undefined;
      }
    })();
    if (result === undefined)
      send({ jsonrpc: "2.0", id: req.id, error: { code: -32601, message: "method not found" } });
    else send({ jsonrpc: "2.0", id: req.id, result });
    if (req.method === "shutdown") process.exit(0);
  });
  rl.on("close", () => {
    if (options.exitOnEof !== false) process.exit(0);
  });
}
