// U03's mutants: the wrong implementations under which U03.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { withName } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U03",
    rule: "name.max-length",
    id: "long-name-truncated",
    description: "Names over 64 characters are truncated to 64 instead of refused.",
    mutation: { params: (p) => withName(p, (n) => n.slice(0, 64)) },
  },
];

export default mutants;
