// U13's mutants: the wrong implementations under which U13.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U13",
    rule: "disabled.user-ok",
    id: "user-invocation-ignored",
    description:
      "The harness's user-invocation flag is ignored: every call is treated as the model's, so user-only skills are DISABLED.",
    mutation: { invocation: () => "model" },
  },
];

export default mutants;
