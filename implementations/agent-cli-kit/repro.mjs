#!/usr/bin/env node
// A finding's reproduction, offline: runs one agent CLI through its driver on a skill root you made, plays the given
// tool inputs as the model's calls, and prints what the harness showed the model (its catalog, and per call the
// driver's reading plus the harness's raw text). The CLI command each driver runs is in its README.
//   node implementations/agent-cli-kit/repro.mjs <harness> <root>[,<root2>] '<tool input JSON>' ['<tool input JSON>' …]
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [harness, roots, ...inputs] = process.argv.slice(2);
if (!harness || !roots) {
  console.error("usage: repro.mjs <harness> <root>[,<root2>] '<tool input JSON>' …");
  process.exit(2);
}
process.env.AGENT_CLI_KIT_QUIET = "1";
const driver = await import(pathToFileURL(resolve(import.meta.dirname ?? ".", "..", harness, "driver.mjs")).href);
const session = await driver.createSession({ skill_roots: roots.split(",").map((r) => resolve(r)) });
const { harness: _h, ...info } = { ...driver.implementationInfo.implementation };
console.log(JSON.stringify({ harness: info }));
const catalog = await session.catalog();
console.log(JSON.stringify({ catalog: catalog.entries }));
for (const input of inputs) {
  try {
    console.log(JSON.stringify({ call: JSON.parse(input), result: await session.call(JSON.parse(input)) }));
  } catch (e) {
    console.log(JSON.stringify({ call: JSON.parse(input), error: String(e?.message ?? e) }));
  }
}
await session.close();
