// U07's mutants: the wrong implementations under which U07.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { onError, subdirs } from "../mutants/helpers.ts";
import { type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";
import { join } from "node:path";
import type { CatalogEntry } from "../../schemas/index.ts";

const mutants: MutantRow[] = [
  {
    kills: "U07",
    rule: "frontmatter.malformed",
    id: "yaml-error-as-io-error",
    description: "Frontmatter that is not valid YAML is reported as IO_ERROR instead of INVALID_FRONTMATTER.",
    mutation: {
      result: onError("INVALID_FRONTMATTER", (r, p, config) => {
        const a = readAuthored(config, nameOf(p) ?? "");
        return a && !a.frontmatter.ok
          ? { ...r, code: "IO_ERROR", output: r.output.replace("INVALID_FRONTMATTER", "IO_ERROR") }
          : r;
      }),
    },
  },
  {
    kills: "U07",
    rule: "discovery.invalid-omitted",
    id: "invalid-skills-listed",
    description:
      "A skill whose frontmatter does not parse is still listed in the catalog (under its directory name, no description).",
    mutation: {
      catalog: (c, ctx) => {
        const extra: CatalogEntry[] = ctx.config.skill_roots.flatMap((root, root_index) =>
          subdirs(root)
            .filter(
              (n) =>
                !c.entries.some((e) => e.name === n) &&
                readAuthored({ skill_roots: [root] }, n)?.frontmatter.ok === false,
            )
            .map((n) => ({
              name: n,
              description: "",
              dir: join(root, n),
              root_index,
              frontmatter: { name: n, description: "" },
              meta: { shadowed: [] },
            })),
        );
        return {
          ...c,
          entries: [...c.entries, ...extra].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
        };
      },
    },
  },
];

export default mutants;
