// Faulty driver: handshakes, then never answers skill/call (the kit's deadline must fire).
import { serve } from "./base.mjs";
process.stderr.write("never-answers: ready\n");
serve({
  "skill/call": () => {
    process.stderr.write("never-answers: ignoring skill/call\n");
  },
});
