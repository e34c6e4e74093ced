// U23's mutants: the wrong implementations under which U23.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { onOk } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U23", rule: "resources.omitted-count", id: "no-more-marker", description: "Lists 10 resources per folder but drops the (... N more) marker and resources_omitted.",
    mutation: {
      result: onOk((r) => {
        const { resources_omitted: _o, ...rest } = r;
        return { ...rest, output: r.output.replace(/^\(\.\.\. \d+ more\)\n/gm, "") };
      }),
    },
  },
];

export default mutants;
