// U04's mutants: the wrong implementations under which U04.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { SkillResult } from "../../schemas/index.ts";
import { type MutantRow, errorResult } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U04",
    rule: "not-found.siblings",
    id: "no-siblings",
    description: "not_found never offers fuzzy-matched siblings.",
    mutation: { result: (r) => (r.kind === "not_found" ? { ...r, siblings: [] } : r) },
  },
  {
    kills: "U04",
    rule: "not-found.kind",
    id: "not-found-as-error",
    description:
      "An unknown name is answered as an error with code NOT_FOUND instead of the not_found kind (§3.3: a kind, not an error code).",
    mutation: {
      result: (r) => (r.kind === "not_found" ? errorResult("NOT_FOUND", r.name, `skill "${r.name}" not found`) : r),
    },
  },
  {
    kills: "U04",
    rule: "not-found.siblings-ranked",
    id: "closest-sibling-only",
    description:
      "not_found offers only the closest installed name: the spec's part holds (the closest first, none unrelated), R8's exact list of up to 3 does not.",
    mutation: {
      result: (r) => (r.kind === "not_found" ? ({ ...r, siblings: r.siblings.slice(0, 1) } as SkillResult) : r),
    },
  },
];

export default mutants;
