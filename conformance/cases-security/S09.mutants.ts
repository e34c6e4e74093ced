// S09's mutants: the wrong implementations under which S09.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { existsSync } from "node:fs";
import type { CatalogEntry } from "../../schemas/index.ts";
import { okFrom } from "../mutants/helpers.ts";
import { isObj, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S09",
    rule: "errors.structured",
    id: "lossy-utf8-decoding",
    description:
      "SKILL.md is decoded leniently (invalid bytes become U+FFFD, NULs pass), so binary or mis-encoded files activate.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && (r.code === "INVALID_FRONTMATTER" || r.code === "IO_ERROR") && name)) return r;
        const a = readAuthored(ctx.config, name);
        return a?.frontmatter.ok && isObj(a.frontmatter.value) && a.frontmatter.value.name === name
          ? okFrom(a, name)
          : r;
      },
    },
  },
  {
    kills: "S09",
    rule: "discovery.decision-invalid-omitted",
    id: "nul-body-listed",
    description:
      "A SKILL.md whose only flaw is a NUL in the body is listed in the catalog (byte-exact text to the spec; R13/R37 refuse it).",
    mutation: {
      catalog: (c, ctx) => {
        const root = ctx.config.skill_roots[0]!;
        const entry = {
          name: "nul-body",
          description: "x",
          dir: `${root}/nul-body`,
          root_index: 0,
          frontmatter: { name: "nul-body", description: "x" },
          meta: { shadowed: [] },
        } as CatalogEntry;
        return existsSync(`${root}/nul-body`)
          ? { ...c, entries: [...c.entries, entry].sort((a, b) => (a.name < b.name ? -1 : 1)) }
          : c;
      },
    },
  },
];

export default mutants;
