// U21's mutants: the wrong implementations under which U21.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U21",
    rule: "arguments.string-to-named",
    id: "string-bound-to-first-named-argument",
    description: "A string sent to a named-argument skill is bound to its first declared argument instead of refused.",
    mutation: {
      result: async (r, p, o, ctx) => {
        if (!(r.kind === "error" && r.code === "INVALID_PARAM" && isObj(p) && typeof p.arguments === "string"))
          return r;
        const entry = (await ctx.inner.catalog()).entries.find((e) => e.name === p.name);
        const first =
          entry && isObj(entry.frontmatter.arguments) ? Object.keys(entry.frontmatter.arguments)[0] : undefined;
        return first ? ctx.forward({ name: p.name, arguments: { [first]: p.arguments } }, o) : r;
      },
    },
  },
];

export default mutants;
