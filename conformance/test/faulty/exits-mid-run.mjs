// Faulty driver: handshakes, answers the first skill/call, then dies on the second one.
import { serve } from "./base.mjs";
serve({
  "skill/call": ({ calls }) => {
    if (calls < 2) return "default";
    process.stderr.write("exits-mid-run: crashing now\n");
    process.exit(3);
  },
});
