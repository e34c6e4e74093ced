// U28's mutants: the wrong implementations under which U28.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { CatalogEntry } from "../../schemas/index.ts";
import { onOk } from "../mutants/helpers.ts";
import { type MutantRow, isDir, isObj } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U28",
    rule: "shadowing.lower-index-wins",
    id: "last-root-wins",
    description: "Shadowing order is reversed: the last root wins a name collision.",
    mutation: { config: (c) => ({ ...c, skill_roots: [...c.skill_roots].reverse() }) },
  },
  {
    kills: "U28",
    rule: "catalog.sorted",
    id: "catalog-in-directory-order",
    description:
      "Catalog entries come in reverse name order (the order a directory listing happened to give), not sorted by name.",
    mutation: { catalog: (c) => ({ ...c, entries: [...c.entries].reverse() }) },
  },
  {
    kills: "U28",
    rule: "shadowing.metadata-untouched",
    id: "shadowed-into-metadata",
    description:
      "The shadowed dirs are also written into the activated skill's frontmatter.metadata.shadowed (§13.1 case 28's wording), not only into the catalog entry's meta.",
    mutation: {
      result: onOk((r, _p, config) => {
        const root = config.skill_roots.find((x) => r.dir.startsWith(x));
        const shadowed = config.skill_roots
          .filter((x) => x !== root)
          .map((x) => `${x}/${r.name}`)
          .filter((d) => isDir(d));
        return {
          ...r,
          frontmatter: {
            ...r.frontmatter,
            metadata: { ...(isObj(r.frontmatter.metadata) ? r.frontmatter.metadata : {}), shadowed },
          },
        };
      }),
    },
  },
  {
    kills: "U28",
    rule: "catalog.schema-contract",
    id: "meta-only-when-shadowing",
    description:
      "A catalog entry carries meta only when it shadows something (§5.1 'populated' read as 'present'), not meta.shadowed: [] on every entry.",
    mutation: {
      catalog: (c) => ({
        ...c,
        entries: c.entries.map((e) =>
          e.meta.shadowed.length ? e : ((({ meta: _m, ...rest }) => rest)(e) as CatalogEntry),
        ),
      }),
    },
  },
];

export default mutants;
