// S18's mutants: the wrong implementations under which S18.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { raw } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S18",
    rule: "forge.error-output",
    id: "error-values-raw",
    description:
      "An error's output writes the values it echoes (a requested name, a frontmatter name or key, an argument name, an argument-hint) raw: a line feed in one starts a forged 'Hint:' line.",
    mutation: {
      result: (r) => (r.kind === "error" ? { ...r, output: raw(r.output) } : r),
    },
  },
];

export default mutants;
