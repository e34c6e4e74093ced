// F09's mutants: the wrong implementations under which F09.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { type MutantRow, rewriteCatalogLines } from "../mutants/wrap.ts";

const escapeXml = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\s*\n\s*/g, " ");

const mutants: MutantRow[] = [
  {
    kills: "F09",
    rule: "catalog.token-budget",
    id: "full-catalog-descriptions",
    description:
      "Each catalog line carries the whole description (up to 1,024 characters, more once escaped): over the §1 budget of 100 tokens.",
    mutation: {
      catalog: (c) =>
        rewriteCatalogLines(c, (e, attrs) => `<skill name="${e.name}"${attrs}>${escapeXml(e.description)}</skill>`),
    },
  },
  {
    kills: "F09",
    rule: "catalog.token-budget",
    id: "full-descriptions-in-a-list",
    description:
      "The catalog is a Markdown list, each skill's name on one line and its whole description on the next: over the §1 budget in a format the kit once measured only line by line, on lines in the reference's <skill name=\"…\"> form.",
    mutation: {
      catalog: (c) => rewriteCatalogLines(c, (e) => `- ${e.name}\n  ${e.description.replace(/\s*\n\s*/g, " ")}`),
    },
  },
  {
    kills: "F09",
    rule: "catalog.description-cut",
    id: "description-cut-at-load",
    description:
      "A long description is cut once, when the skill is loaded: activation returns the cut text too, not the whole description.",
    mutation: {
      result: (r) => {
        if (r.kind !== "ok" || typeof r.frontmatter.description !== "string" || r.frontmatter.description.length <= 200)
          return r;
        return { ...r, frontmatter: { ...r.frontmatter, description: `${r.frontmatter.description.slice(0, 200)}…` } };
      },
    },
  },
];

export default mutants;
