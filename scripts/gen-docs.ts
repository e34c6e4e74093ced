#!/usr/bin/env node
// `npm run docs`: rewrite the generated regions of README.md and conformance/MUTANTS.md from the kit's own data
// (the catalog of suites, cases, mutants and rules; the e2e providers' registry; docs/compatibility.json), so no
// count, list or table there is ever copied by hand. `--check` writes nothing and exits 1 when a page is stale;
// test/docs.test.ts does the same in-process. The work is in conformance/docs/.
//   exit 0  written (or, with --check, up to date)
//   exit 1  --check: a page is stale (run npm run docs)
import { writeFileSync } from "node:fs";
import { PACKAGE_ROOT } from "../package-root.ts";
import { renderDocs, stale } from "../conformance/docs/render.ts";
import { PROVIDERS } from "../e2e/providers/index.ts";

async function main(argv: string[]): Promise<number> {
  const pages = await renderDocs(
    PACKAGE_ROOT,
    PROVIDERS.map((p) => p.name),
  );
  const old = stale(pages, PACKAGE_ROOT);
  if (argv.includes("--check")) {
    if (old.length) console.error(`stale: ${old.join(", ")} (run npm run docs)`);
    return old.length ? 1 : 0;
  }
  for (const p of pages) writeFileSync(p.file, p.text);
  console.log(old.length ? `wrote ${old.join(", ")}` : "up to date");
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
