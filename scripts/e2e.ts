#!/usr/bin/env node
// Entry point of `npm run e2e` (installed: `skill-e2e`): the SK1–SK8 model scenarios, scored pass@k (see e2e/README.md). Thin: e2e/cli.ts.
// Whatever escapes main is the kit failing, exit 2 like skill-conformance's "the kit could not run" (docs/exit-codes.md), never Node's 1.
import { main } from "../e2e/cli.ts";

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error(`e2e: the kit could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 2;
}
