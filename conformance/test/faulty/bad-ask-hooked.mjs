// Faulty driver: on skill/call of a hooked session it sends permission/ask with a payload that violates
// permission-request.schema.json ({tool: "skill"} only), waits for the kit's answer, then answers the call as
// that decision says. The payload is the implementation's answer: the kit judges it (a failure of
// permission-request.schema), exactly as it would a hook called in-process, and the case goes on.
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const waiting = new Map();
let sessions = 0;
let asks = 0;
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (!("method" in m)) {
    const call = waiting.get(m.id);
    waiting.delete(m.id);
    const decision = m.result?.decision ?? "deny";
    const name = call.params.params?.name ?? "";
    const result =
      decision === "allow" || decision === "allow_once"
        ? { kind: "not_found", name, siblings: [], output: "none" }
        : {
            kind: "error",
            code: "PERMISSION_DENIED",
            name,
            message: `the permission hook denied skill "${name}"`,
            output: "Error [PERMISSION_DENIED]",
          };
    send({ jsonrpc: "2.0", id: call.id, result });
    return;
  }
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result });
  switch (m.method) {
    case "initialize":
      return ok({
        implementation: { name: "bad-ask-hooked", version: "0.0.0", language: "javascript" },
        specVersion: "1",
        capabilities: {},
      });
    case "session/create":
      return ok({ sessionId: "s" + ++sessions });
    case "session/catalog":
      return ok({ tool_description: "Activate an installed skill by name.", entries: [], warnings: [] });
    case "skill/call": {
      const id = `ask-${++asks}`;
      waiting.set(id, m);
      return send({
        jsonrpc: "2.0",
        id,
        method: "permission/ask",
        params: { sessionId: m.params.sessionId, request: { tool: "skill" } },
      });
    }
    case "session/close":
      return ok({});
    case "shutdown":
      ok({});
      return process.exit(0);
  }
});
rl.on("close", () => process.exit(0));
