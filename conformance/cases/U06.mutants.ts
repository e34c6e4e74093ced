// U06's mutants: the wrong implementations under which U06.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { onError } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U06",
    rule: "name.matches-dir",
    id: "mismatch-as-frontmatter",
    description:
      "A frontmatter name that differs from the directory is reported as INVALID_FRONTMATTER, not NAME_MISMATCH.",
    mutation: {
      result: onError("NAME_MISMATCH", (r) => ({
        ...r,
        code: "INVALID_FRONTMATTER",
        output: r.output.replace("NAME_MISMATCH", "INVALID_FRONTMATTER"),
      })),
    },
  },
];

export default mutants;
