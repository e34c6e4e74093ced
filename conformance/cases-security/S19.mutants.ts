// S19's mutants: the wrong implementations under which S19.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { raw } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S19",
    rule: "forge.catalog-warning",
    id: "warning-values-raw",
    description:
      "Catalog warnings write the broken skill's name or key raw: a line feed in one starts a forged line in the warning.",
    mutation: {
      catalog: (c) => ({ ...c, warnings: c.warnings.map(raw) }),
    },
  },
];

export default mutants;
