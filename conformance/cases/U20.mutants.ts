// U20's mutants: the wrong implementations under which U20.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U20",
    rule: "arguments.map-to-undeclared",
    id: "undeclared-named-arguments-ignored",
    description: "Object arguments on a skill that declares none are ignored instead of refused.",
    mutation: {
      result: async (r, p, o, ctx) => {
        if (r.kind === "error" && r.code === "INVALID_PARAM" && isObj(p) && isObj(p.arguments))
          return ctx.forward({ name: p.name }, o);
        return r;
      },
    },
  },
];

export default mutants;
