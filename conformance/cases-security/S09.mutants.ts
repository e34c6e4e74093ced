// S09's mutants: the wrong implementations under which S09.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { okFrom } from "../mutants/helpers.ts";
import { isObj, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S09", rule: "errors.structured", id: "lossy-utf8-decoding",
    description: "SKILL.md is decoded leniently (invalid bytes become U+FFFD, NULs pass), so binary or mis-encoded files activate.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && (r.code === "INVALID_FRONTMATTER" || r.code === "IO_ERROR") && name)) return r;
        const a = readAuthored(ctx.config, name);
        return a?.frontmatter.ok && isObj(a.frontmatter.value) && a.frontmatter.value.name === name ? okFrom(a, name) : r;
      },
    },
  },
];

export default mutants;
