#!/usr/bin/env node
// Entry point of `npm run e2e` (installed: `skill-e2e`): the SK1–SK8 model scenarios, scored pass@k (see e2e/README.md). Thin: e2e/cli.ts.
import { main } from "../e2e/cli.ts";

process.exitCode = await main(process.argv.slice(2));
