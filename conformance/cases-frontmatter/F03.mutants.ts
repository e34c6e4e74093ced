// F03's mutants: the wrong implementations under which F03.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { reparsedBy } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "F03",
    rule: "yaml.keys",
    id: "keys-unbounded",
    description:
      "No key length bound and no duplicate check (the last value wins): a 1,100-character key is accepted and renders as YAML no parser reads back.",
    mutation: reparsedBy({ uniqueKeys: false }),
  },
];

export default mutants;
