// F04's mutants: the wrong implementations under which F04.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { libraryDefaults } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "F04",
    rule: "yaml.depth",
    id: "no-depth-bound",
    description:
      "No nesting bound: 65 levels load (and a deep enough file overflows the stack). The same wrong implementation as F01's: the yaml package's defaults.",
    mutation: libraryDefaults,
  },
];

export default mutants;
