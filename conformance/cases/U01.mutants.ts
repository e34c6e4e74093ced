// U01's mutants: the wrong implementations under which U01.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { type MutantRow, nameOf } from "../mutants/wrap.ts";
import type { Catalog, SkillResult } from "../../schemas/index.ts";

const mutants: MutantRow[] = [
  {
    kills: "U01", rule: "name.required", id: "empty-name-looked-up", description: "An empty name is looked up instead of refused: not_found, not INVALID_PARAM.",
    mutation: { before: (p) => (nameOf(p) === "" ? { kind: "not_found", name: "", siblings: [], output: '(No skill matches "".)' } : undefined) },
  },
  {
    kills: "U01", rule: "result.schema", id: "error-results-carry-stack",
    description: "Error results carry the exception's stack beside code and message: a field result.schema.json does not allow.",
    mutation: { result: (r) => (r.kind === "error" ? ({ ...r, stack: `Error: ${r.message}\n    at lookup (skill.js:1:1)` } as SkillResult) : r) },
  },
  {
    kills: "U01", rule: "catalog.schema", id: "catalog-with-version-field",
    description: "The catalog carries a version field of the implementation's own: a field catalog.schema.json does not allow.",
    mutation: { catalog: (c) => ({ ...c, version: 1 }) as Catalog },
  },
];

export default mutants;
