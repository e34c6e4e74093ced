// U10's mutants: the wrong implementations under which U10.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { join } from "node:path";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U10",
    rule: "fence.outside-workspace",
    id: "fence-on-parent",
    description: "The fence admits anything under a root's parent directory, so ../ symlinks out of the root activate.",
    mutation: {
      config: (c) => ({ ...c, skill_roots: [...c.skill_roots, ...c.skill_roots.map((r) => join(r, ".."))] }),
    },
  },
];

export default mutants;
