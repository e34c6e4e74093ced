// S14's mutants: the wrong implementations under which S14.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { okFrom, subdirs } from "../mutants/helpers.ts";
import { isObj, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S14",
    rule: "name.no-folding",
    id: "identity-from-frontmatter",
    description:
      "Skills are keyed by their frontmatter name, not their directory: skills/h\u0435llo (Cyrillic) holding name: hello answers to hello.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "not_found" && name)) return r;
        for (const root of ctx.config.skill_roots) {
          for (const d of subdirs(root)) {
            const a = readAuthored({ skill_roots: [root] }, d);
            if (a?.frontmatter.ok && isObj(a.frontmatter.value) && a.frontmatter.value.name === name)
              return okFrom(a, name);
          }
        }
        return r;
      },
    },
  },
];

export default mutants;
