// U18's mutants: the wrong implementations under which U18.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U18", rule: "substitution.string", id: "string-arguments-dropped", description: "String arguments are dropped: $ARGUMENTS stays literal.",
    mutation: {
      params: (p) => {
        if (!isObj(p) || typeof p.arguments !== "string") return p;
        const { arguments: _a, ...rest } = p;
        return rest;
      },
    },
  },
];

export default mutants;
