// Test helper: spawns a driver that ignores shutdown and end of stdin, prints the child's pid, and exits without
// disposing it. The kit's exit hook must still kill the child (subprocess.test.ts checks the pid).
import { spawnImplementation } from "../../driver/subprocess.ts";

const impl = await spawnImplementation(
  `"${process.execPath}" "${new URL("./stubborn.mjs", import.meta.url).pathname}"`,
);
process.stdout.write(`${impl.pid}\n`);
process.exit(0);
