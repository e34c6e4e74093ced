// Faulty driver: on skill/call it sends the kit a permission/ask whose payload violates
// permission-request.schema.json (the kit must refuse it and fail the call).
import { serve } from "./base.mjs";
serve({
  "skill/call": ({ req, send }) => {
    send({
      jsonrpc: "2.0",
      id: "ask-1",
      method: "permission/ask",
      params: { sessionId: req.params.sessionId, request: { tool: "skill" } },
    });
  },
});
