// U11's mutants: the wrong implementations under which U11.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U11",
    rule: "sensitive.refused",
    id: "sensitive-ignored",
    description: "sensitive_patterns are ignored: a skill under secrets/ activates without a hook.",
    mutation: { config: (c) => ({ ...c, sensitive_patterns: [] }) },
  },
];

export default mutants;
