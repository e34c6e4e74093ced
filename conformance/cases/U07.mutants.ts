// U07's mutants: the wrong implementations under which U07.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import YAML from "yaml";
import { onError } from "../mutants/helpers.ts";
import { type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U07", rule: "frontmatter.malformed", id: "yaml-error-as-io-error", description: "Frontmatter that is not valid YAML is reported as IO_ERROR instead of INVALID_FRONTMATTER.",
    mutation: {
      result: onError("INVALID_FRONTMATTER", (r, p, config) => {
        const a = readAuthored(config, nameOf(p) ?? "");
        return a && !a.frontmatter.ok ? { ...r, code: "IO_ERROR", output: r.output.replace("INVALID_FRONTMATTER", "IO_ERROR") } : r;
      }),
    },
  },
];

export default mutants;
