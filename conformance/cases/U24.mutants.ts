// U24's mutants: the wrong implementations under which U24.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U24", rule: "hook.deny", id: "deny-means-allow", description: "The hook's deny is ignored (treated as allow).",
    mutation: { hookAnswer: (a) => (a === "deny" ? "allow" : a) },
  },
];

export default mutants;
