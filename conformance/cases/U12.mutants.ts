// U12's mutants: the wrong implementations under which U12.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U12",
    rule: "disabled.model",
    id: "disable-model-invocation-ignored",
    description: "disable-model-invocation is ignored: every call is treated as user-initiated.",
    mutation: { invocation: () => "user" },
  },
];

export default mutants;
