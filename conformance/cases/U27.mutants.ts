// U27's mutants: the wrong implementations under which U27.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { authoredTools, onOk } from "../mutants/helpers.ts";
import { errorResult, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U27", rule: "allowed-tools.normalised", id: "array-tools-rejected", description: "allowed-tools in array form is rejected as INVALID_FRONTMATTER (only the string form is accepted).",
    mutation: {
      result: onOk((r, _p, config) =>
        Array.isArray(authoredTools(config, r.name)) ? errorResult("INVALID_FRONTMATTER", r.name, `skill "${r.name}": allowed-tools must be a string`) : r,
      ),
    },
  },
];

export default mutants;
