// C03's mutants: the wrong implementations under which C03.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { realpathSync } from "node:fs";
import type { SkillResult } from "../../schemas/index.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** R33 the other way: the path of OUTSIDE_WORKSPACE is where it resolves to. */
function resolvedPath(r: SkillResult): SkillResult {
  if (r.kind !== "error" || r.code !== "OUTSIDE_WORKSPACE" || r.path === undefined) return r;
  let real = r.path;
  try {
    real = realpathSync(r.path);
  } catch {
    // dangling: keep the path
  }
  return { ...r, path: real, output: r.output.split(r.path).join(real) };
}

const mutants: MutantRow[] = [
  {
    kills: "C03",
    rule: "fence.reported-path",
    id: "outside-reports-target",
    description: "OUTSIDE_WORKSPACE reports the resolved target (outside every root) as its path.",
    mutation: { result: resolvedPath },
  },
];

export default mutants;
