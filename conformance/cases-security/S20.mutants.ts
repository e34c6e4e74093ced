// S20's mutants: the wrong implementations under which S20.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { entities } from "../mutants/helpers.ts";
import { type MutantRow, rewriteCatalogLines } from "../mutants/wrap.ts";
import type { CatalogEntry } from "../../schemas/index.ts";

const mutants: MutantRow[] = [
  {
    kills: "S20",
    rule: "forge.catalog-line",
    id: "description-not-folded",
    description:
      "The catalog line escapes the description's markup but keeps its line breaks: a description starts lines of its own in the tool description.",
    mutation: {
      catalog: (c) =>
        rewriteCatalogLines(
          c,
          (e, attrs) => `<skill name="${e.name}"${attrs}>${entities(e.description.trim())}</skill>`,
        ),
    },
  },
  {
    kills: "S20",
    rule: "catalog.entry-fields",
    id: "entries-without-description",
    description: "Catalog entries carry no description field: the description is only in the tool description's line.",
    mutation: { catalog: (c) => ({ ...c, entries: c.entries.map(({ description: _d, ...e }) => e as CatalogEntry) }) },
  },
];

export default mutants;
