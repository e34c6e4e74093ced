// U09's mutants: the wrong implementations under which U09.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { CatalogEntry, OkResult } from "../../schemas/index.ts";
import { onOk } from "../mutants/helpers.ts";
import type { MutantRow, Obj } from "../mutants/wrap.ts";

const KNOWN_FIELDS = new Set([
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
  "version",
  "argument-hint",
  "disable-model-invocation",
  "user-invocable",
  "arguments",
]);

const knownOnly = (fm: Obj): Obj => Object.fromEntries(Object.entries(fm).filter(([k]) => KNOWN_FIELDS.has(k)));

/** The top-level keys of a rendered YAML mapping that KNOWN_FIELDS names, with their indented lines. */
function knownLinesOnly(yaml: string): string {
  let keep = true;
  return yaml
    .split("\n")
    .filter((line) => {
      if (!/^\s/.test(line)) keep = KNOWN_FIELDS.has(line.replace(/^"?([^":]*)"?:.*$/, "$1"));
      return keep;
    })
    .join("\n");
}

const mutants: MutantRow[] = [
  {
    kills: "U09",
    rule: "frontmatter.unknown-preserved",
    id: "unknown-fields-dropped",
    description: "Unknown frontmatter fields (hooks, context, …) are stripped instead of preserved.",
    mutation: {
      result: onOk((r) => ({ ...r, frontmatter: knownOnly(r.frontmatter) as OkResult["frontmatter"] })),
      catalog: (c) => ({
        ...c,
        entries: c.entries.map((e) => ({ ...e, frontmatter: knownOnly(e.frontmatter) as CatalogEntry["frontmatter"] })),
      }),
    },
  },
  {
    kills: "U09",
    rule: "output.frontmatter-shown",
    id: "frontmatter-section-known-only",
    description:
      "The <frontmatter> section of the output shows only the fields the spec names; the result's frontmatter keeps the rest.",
    mutation: {
      result: onOk((r) => ({
        ...r,
        output: r.output.replace(
          /<frontmatter>\n([\s\S]*?)\n<\/frontmatter>/,
          (_m, yaml: string) => `<frontmatter>\n${knownLinesOnly(yaml)}\n</frontmatter>`,
        ),
      })),
    },
  },
];

export default mutants;
