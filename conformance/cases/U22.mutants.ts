// U22's mutants: the wrong implementations under which U22.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { onOk } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U22",
    rule: "resources.listed",
    id: "scripts-only-resources",
    description: "Only scripts/ is enumerated: references/ and assets/ are never listed.",
    mutation: {
      result: onOk((r) => ({
        ...r,
        resources: r.resources.filter((x) => x.startsWith("scripts/")),
        output: r.output.replace(/^(references|assets)\/.*\n/gm, ""),
      })),
    },
  },
  {
    kills: "U22",
    rule: "resources.rendered",
    id: "resources-not-rendered",
    description:
      "resources is filled in the result, but the output has no <resources> section: the model never sees the names.",
    mutation: { result: onOk((r) => ({ ...r, output: r.output.replace(/<resources>\n[\s\S]*?<\/resources>\n/, "") })) },
  },
];

export default mutants;
