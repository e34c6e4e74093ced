// F01's mutants: the wrong implementations under which F01.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { libraryDefaults } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "F01",
    rule: "yaml.no-tags",
    id: "tags-resolved",
    description:
      "Frontmatter is read with the yaml package's defaults, which resolve !!set, !!omap, !!binary, !!timestamp into a Set, pairs, a Buffer and a Date: tagged values load, converted.",
    mutation: libraryDefaults,
  },
];

export default mutants;
