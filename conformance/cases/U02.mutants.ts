// U02's mutants: the wrong implementations under which U02.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { withName } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U02",
    rule: "name.kebab-case",
    id: "name-case-folded",
    description: 'Names are case-folded and _ turned into - before the check, so "Hello" activates hello.',
    mutation: { params: (p) => withName(p, (n) => n.toLowerCase().replace(/_/g, "-")) },
  },
];

export default mutants;
