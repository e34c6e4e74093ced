// Faulty driver: answers skill/call with an id that matches no request.
import { serve } from "./base.mjs";
serve({
  "skill/call": ({ req, send }) => {
    send({
      jsonrpc: "2.0",
      id: 424242,
      result: { kind: "not_found", name: "x", siblings: [], output: '(No skill matches "x".)' },
    });
  },
});
