// S21's mutants: the wrong implementations under which S21.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { raw } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S21",
    rule: "forge.skill-block",
    id: "attribute-values-raw",
    description:
      "The <skill> block writes the dir attribute, the note's paths and the resource names raw (XML entities only): a line feed in the root's path or a file name starts a forged line.",
    mutation: {
      result: (r) => (r.kind === "ok" ? { ...r, output: raw(r.output) } : r),
    },
  },
];

export default mutants;
