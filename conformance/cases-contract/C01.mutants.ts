// C01's mutants: the wrong implementations under which C01.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { OkResult } from "../../schemas/index.ts";
import { onOk } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** R31 the other way: every resource path sorted as one list, the (... N more) markers after all of them. */
function globalSort(r: OkResult): OkResult {
  const resources = [...r.resources].sort();
  const markers = Object.values(r.resources_omitted ?? {}).map((n) => `(... ${n} more)`);
  const output = r.output.replace(
    /<resources>\n[\s\S]*?<\/resources>\n/,
    `<resources>\n${[...resources, ...markers].join("\n")}\n</resources>\n`,
  );
  return { ...r, resources, output };
}

const mutants: MutantRow[] = [
  {
    kills: "C01",
    rule: "resources.order",
    id: "resources-sorted-globally",
    description:
      "Resource paths are sorted as one list across folders (assets/ first) and the (... N more) markers follow the whole list.",
    mutation: { result: onOk(globalSort) },
  },
];

export default mutants;
