// S11's mutants: the wrong implementations under which S11.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow, type Obj } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S11", rule: "arguments.undeclared-key", id: "input-copied-into-plain-objects",
    description: "Parameters and named arguments are copied key by key into plain {} objects, so a __proto__ key is silently swallowed (by the setter) instead of refused.",
    mutation: {
      params: (p) => {
        if (!isObj(p)) return p;
        const copy: Obj = {};
        for (const [k, v] of Object.entries(p)) copy[k] = v;
        if (isObj(p.arguments)) {
          const args: Obj = {};
          for (const [k, v] of Object.entries(p.arguments)) args[k] = v;
          copy.arguments = args;
        }
        return copy;
      },
    },
  },
];

export default mutants;
