// U01's mutants: the wrong implementations under which U01.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { type MutantRow, nameOf } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U01", rule: "name.required", id: "empty-name-looked-up", description: "An empty name is looked up instead of refused: not_found, not INVALID_PARAM.",
    mutation: { before: (p) => (nameOf(p) === "" ? { kind: "not_found", name: "", siblings: [], output: '(No skill matches "".)' } : undefined) },
  },
];

export default mutants;
