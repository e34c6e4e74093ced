// Faulty driver: handshakes, then prints a non-JSON line on stdout instead of answering skill/call.
import { serve } from "./base.mjs";
serve({
  "skill/call": ({ send }) => {
    process.stdout.write("Loading skill... done!\n");
  },
});
