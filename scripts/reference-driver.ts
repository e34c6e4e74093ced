#!/usr/bin/env node
// The reference implementation as a subprocess driver: serves reference/index.ts over newline-delimited
// JSON-RPC on stdin/stdout (conformance/PROTOCOL.md). This is the worked example an implementer in
// another language copies: read a line, answer a line, ask permission/ask when the session has a hook.
//
//   npx tsx scripts/reference-driver.ts              # the reference
//   npx tsx scripts/reference-driver.ts ./my-impl.ts # any module exporting createSession (and implementationInfo)
//   skill-reference-driver [./my-impl.js]            # the same, from the installed package (compiled)
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { codePath } from "../package-root.ts";
import { KIT_VERSION, SPEC_VERSION } from "../schemas/index.ts";
import { serveStdio } from "../conformance/driver/stdio-server.ts";
import type { InProcessModule } from "../schemas/implementation.ts";

// stdout is the protocol channel: anything the implementation logs goes to stderr instead.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const USAGE = `usage: skill-reference-driver [module.js]

Serves an implementation of the skill tool over newline-delimited JSON-RPC on stdin/stdout (conformance/PROTOCOL.md):
the kit's reference, or the JS module given (exporting createSession, and implementationInfo). It is a driver, not a
command to run by hand: give it to skill-conformance, e.g.
  skill-conformance --exec "skill-reference-driver ./dist/my-impl.js"
(to test the kit's reference itself: skill-conformance --reference)`;

/** Exit 2 with one line on stderr: stdout is the protocol channel. */
function usageError(message: string): never {
  process.stderr.write(`skill-reference-driver: ${message} (--help for usage)\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (args.includes("--version")) {
  process.stdout.write(`skill-reference-driver ${KIT_VERSION} (spec ${SPEC_VERSION})\n`);
  process.exit(0);
}
const unknown = args.find((a) => a.startsWith("-"));
if (unknown) usageError(`unknown option ${unknown}`);
if (args.length > 1) usageError(`one module at most, not ${args.length}`);

const file = args[0] === undefined ? codePath("reference/index") : resolve(args[0]);
if (!existsSync(file)) usageError(`no such file ${file}`);
let mod: InProcessModule;
try {
  mod = (await import(pathToFileURL(file).href)) as InProcessModule;
} catch (err) {
  usageError(`cannot load ${file}: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
}
if (typeof mod.createSession !== "function") usageError(`${file} does not export createSession(config, options)`);
try {
  await serveStdio(mod);
} catch (err) {
  // A module whose implementationInfo has neither shape (in-process.ts says which it wants): one line, exit 2.
  usageError(`${file}: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
}
process.exit(0);
