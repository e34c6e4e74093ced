// Faulty driver: answers skill/call with a result that does not validate against result.schema.json.
import { serve } from "./base.mjs";
serve({
  "skill/call": ({ req, send }) => {
    send({ jsonrpc: "2.0", id: req.id, result: { kind: "loaded", name: 42 } });
  },
});
