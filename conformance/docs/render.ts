// Owns which pages `npm run docs` writes and with which regions: README.md (compatibility table, findings, kit
// contents, first commands, the decision scopes' table), conformance/MUTANTS.md (coverage figures, mutant table) and
// conformance/PROTOCOL.md (the `unobserved` ids), each rendered in memory from the
// catalog, docs/compatibility.json and the provider names the caller passes (e2e's registry: conformance/ never
// imports e2e/). scripts/gen-docs.ts writes them; test/docs.test.ts compares them with the files.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { kitCatalog, loadMutants } from "../catalog.ts";
import type { CompatResult } from "../compat/types.ts";
import {
  compatFindings,
  compatTable,
  figures,
  kitContents,
  mutantsSummary,
  mutantsTable,
  workingCommands,
} from "./pages.ts";
import { decisionsTable } from "./decisions.ts";
import { observationsTable } from "./observations.ts";
import { fillRegions } from "./regions.ts";
import { DECISION_SCOPES, decisionFile, observations } from "../../schemas/index.ts";

export interface Page {
  file: string;
  /** The page as it should read. */
  text: string;
}

/** Every generated page, as it should read now (nothing written). */
export async function renderDocs(root: string, providers: readonly string[]): Promise<Page[]> {
  const catalog = kitCatalog();
  const mutants = await loadMutants();
  const f = figures(catalog, mutants);
  const compat = JSON.parse(readFileSync(join(root, "docs", "compatibility.json"), "utf8")) as CompatResult;
  const page = (rel: string, regions: Record<string, string>): Page => {
    const file = join(root, rel);
    return { file, text: fillRegions(readFileSync(file, "utf8"), rel, regions) };
  };
  return [
    page("README.md", {
      "compat-table": compatTable(compat),
      findings: compatFindings(compat),
      "kit-contents": kitContents(f, providers),
      "working-commands": workingCommands(f),
      "decisions-table": decisionsTable(DECISION_SCOPES.map(decisionFile)),
    }),
    page(join("conformance", "MUTANTS.md"), {
      "mutants:summary": mutantsSummary(f),
      "mutants:table": mutantsTable(catalog, mutants),
    }),
    page(join("conformance", "PROTOCOL.md"), { "observations-table": observationsTable(observations()) }),
  ];
}

/** The pages whose file differs from what they should read, relative to root. */
export function stale(pages: readonly Page[], root: string): string[] {
  return pages.filter((p) => readFileSync(p.file, "utf8") !== p.text).map((p) => relative(root, p.file));
}
