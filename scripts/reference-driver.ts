#!/usr/bin/env node
// The reference implementation as a subprocess driver: serves reference/index.ts over newline-delimited
// JSON-RPC on stdin/stdout (conformance/PROTOCOL.md). This is the worked example an implementer in
// another language copies: read a line, answer a line, ask permission/ask when the session has a hook.
//
//   npx tsx scripts/reference-driver.ts              # the reference
//   npx tsx scripts/reference-driver.ts ./my-impl.ts # any module exporting createSession (and implementationInfo)
//   skill-reference-driver [./my-impl.js]            # the same, from the installed package (compiled)
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { codePath } from "../package-root.ts";
import { serveStdio } from "../conformance/driver/stdio-server.ts";
import type { InProcessModule } from "../schemas/implementation.ts";

// stdout is the protocol channel: anything the implementation logs goes to stderr instead.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const target = process.argv[2]
  ? pathToFileURL(resolve(process.argv[2])).href
  : pathToFileURL(codePath("reference/index")).href;
const mod = (await import(target)) as InProcessModule;
if (typeof mod.createSession !== "function") {
  console.error(`${fileURLToPath(target)} does not export createSession(config, options)`);
  process.exit(2);
}
await serveStdio(mod);
process.exit(0);
