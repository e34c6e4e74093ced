// U05's mutants: the wrong implementations under which U05.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { ALIASES } from "../../schemas/index.ts";
import { isObj, type MutantRow, type Obj } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U05",
    rule: "params.aliases",
    id: "aliases-accepted",
    description: "Known aliases are silently accepted: skill_name → name, params → arguments, reload dropped.",
    mutation: {
      params: (p) => {
        if (!isObj(p)) return p;
        const out: Obj = {};
        for (const [k, v] of Object.entries(p)) {
          const a = ALIASES.find((x) => x.alias === k);
          if (!a) out[k] = v;
          else if (a.action === "rename" && a.target && !(a.target in p)) out[a.target] = v;
        }
        return out;
      },
    },
  },
];

export default mutants;
