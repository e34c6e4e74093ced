// Faulty driver: handshakes, then ignores shutdown, the end of stdin and SIGTERM and stays alive, so only
// the kit's SIGKILL (dispose, or its exit hook) can end it.
import { serve } from "./base.mjs";
process.on("SIGTERM", () => {});
setInterval(() => {}, 1000);
serve({ shutdown: () => {} }, { exitOnEof: false });
