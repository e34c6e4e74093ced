// S11's mutants: the wrong implementations under which S11.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow, type Obj } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S11",
    rule: "arguments.undeclared-key",
    id: "input-copied-into-plain-objects",
    description:
      "Parameters and named arguments are copied key by key into plain {} objects, so a __proto__ key is silently swallowed (by the setter) instead of refused.",
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
  {
    kills: "S11",
    rule: "params.unknown-refused",
    id: "unknown-params-dropped",
    description:
      'Parameters other than name and arguments are dropped silently instead of refused: {name, constructor: "x"} activates.',
    mutation: {
      params: (p) =>
        isObj(p) ? Object.fromEntries(Object.entries(p).filter(([k]) => k === "name" || k === "arguments")) : p,
    },
  },
];

export default mutants;
