// U01's mutants: the wrong implementations under which U01.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { type MutantRow, nameOf } from "../mutants/wrap.ts";
import type { CatalogEntry, SkillResult } from "../../schemas/index.ts";

const mutants: MutantRow[] = [
  {
    kills: "U01",
    rule: "name.required",
    id: "empty-name-looked-up",
    description: "An empty name is looked up instead of refused: not_found, not INVALID_PARAM.",
    mutation: {
      before: (p) =>
        nameOf(p) === "" ? { kind: "not_found", name: "", siblings: [], output: '(No skill matches "".)' } : undefined,
    },
  },
  {
    kills: "U01",
    rule: "result.schema",
    id: "error-without-message",
    description:
      "Error results carry their text in output only: no message field, which §3.4 names (result.schema.json requires it).",
    mutation: {
      result: (r) => {
        if (r.kind !== "error") return r;
        const { message: _m, ...rest } = r;
        return rest as SkillResult;
      },
    },
  },
  {
    kills: "U01",
    rule: "catalog.schema",
    id: "root-index-as-text",
    description: 'Catalog entries carry root_index as text ("0"), not the integer catalog.schema.json asks for.',
    mutation: {
      catalog: (c) => ({
        ...c,
        entries: c.entries.map((e) => ({ ...e, root_index: String(e.root_index) }) as unknown as CatalogEntry),
      }),
    },
  },
];

export default mutants;
