#!/usr/bin/env node
// `npm run docs`: rewrite the generated regions of README.md and conformance/MUTANTS.md from the kit's own data
// (the catalog of suites, cases, mutants and rules; the e2e providers' registry; docs/compatibility.json), so no
// count, list or table there is ever copied by hand. `--check` writes nothing and exits 1 when a page is stale;
// test/docs.test.ts does the same in-process. The region renderers are conformance/docs/pages.ts.
//   exit 0  written (or, with --check, up to date)
//   exit 1  --check: a page is stale (run npm run docs)
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { PACKAGE_ROOT } from "../package-root.ts";
import { kitCatalog, loadMutants } from "../conformance/catalog.ts";
import type { CompatResult } from "../conformance/compat/types.ts";
import { compatTable, figures, kitContents, mutantsSummary, mutantsTable, workingCommands } from "../conformance/docs/pages.ts";
import { fillRegions } from "../conformance/docs/regions.ts";
import { PROVIDERS } from "../e2e/providers/index.ts";

export interface Page {
  file: string;
  /** The page as it should read. */
  text: string;
}

/** Every generated page, as it should read now (nothing written). */
export async function renderDocs(root = PACKAGE_ROOT): Promise<Page[]> {
  const catalog = kitCatalog();
  const mutants = await loadMutants();
  const f = figures(catalog, mutants);
  const compat = JSON.parse(readFileSync(join(root, "docs", "compatibility.json"), "utf8")) as CompatResult;
  const page = (rel: string, regions: Record<string, string>): Page => {
    const file = join(root, rel);
    return { file, text: fillRegions(readFileSync(file, "utf8"), rel, regions) };
  };
  return [
    page("README.md", { "compat-table": compatTable(compat), "kit-contents": kitContents(f, PROVIDERS.map((p) => p.name)), "working-commands": workingCommands(f) }),
    page(join("conformance", "MUTANTS.md"), { "mutants:summary": mutantsSummary(f), "mutants:table": mutantsTable(catalog, mutants) }),
  ];
}

/** The pages whose file differs from what they should read. */
export function stale(pages: readonly Page[]): string[] {
  return pages.filter((p) => readFileSync(p.file, "utf8") !== p.text).map((p) => relative(PACKAGE_ROOT, p.file));
}

async function main(argv: string[]): Promise<number> {
  const pages = await renderDocs();
  const old = stale(pages);
  if (argv.includes("--check")) {
    if (old.length) console.error(`stale: ${old.join(", ")} (run npm run docs)`);
    return old.length ? 1 : 0;
  }
  for (const p of pages) writeFileSync(p.file, p.text);
  console.log(old.length ? `wrote ${old.join(", ")}` : "up to date");
  return 0;
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  process.exitCode = await main(process.argv.slice(2));
}
