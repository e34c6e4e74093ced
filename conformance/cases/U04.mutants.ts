// U04's mutants: the wrong implementations under which U04.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U04", rule: "not-found.siblings", id: "no-siblings", description: "not_found never offers fuzzy-matched siblings.",
    mutation: { result: (r) => (r.kind === "not_found" ? { ...r, siblings: [] } : r) },
  },
];

export default mutants;
