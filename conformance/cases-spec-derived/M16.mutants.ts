// M16's mutant: a call without a name is looked up as the empty name (not_found) instead of refused (§2).
import type { SkillResult } from "../../schemas/index.ts";
import { isObj, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M16",
    rule: "name.missing",
    id: "missing-name-not-found",
    description: 'Tool input without a name is looked up as "": not_found with no siblings.',
    mutation: {
      before: (p): SkillResult | undefined =>
        isObj(p) && !("name" in p)
          ? ({
              kind: "not_found",
              name: "",
              siblings: [],
              output: '(No skill matches "". Run with a listed name from the catalog.)',
            } as SkillResult)
          : undefined,
    },
  },
];

export default mutants;
