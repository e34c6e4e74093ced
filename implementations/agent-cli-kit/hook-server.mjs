// The driver's end of a harness's permission hook: a Unix socket in the run's world that hook-relay.mjs connects to.
// Each connection is one hook invocation: the harness's hook input in, `answer(input)`'s text out. The kit's hook
// (`permission/ask`) is asked inside `answer`; what the harness does with the decision is the harness's business.
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const RELAY = fileURLToPath(new URL("./hook-relay.mjs", import.meta.url));

export function startHookServer(path, answer) {
  // Half-open: the relay ends its side after sending the input, and still waits for the answer.
  const server = createServer({ allowHalfOpen: true }, (sock) => {
    const chunks = [];
    sock.on("data", (c) => chunks.push(c));
    sock.on("end", async () => {
      let out = "";
      try {
        out = await answer(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch (e) {
        process.stderr.write(`agent-cli-kit hook: ${e?.message ?? e}\n`);
      }
      sock.end(out);
    });
    sock.on("error", () => {});
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve({ close: () => new Promise((r) => server.close(() => r())) }));
  });
}
