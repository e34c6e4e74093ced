// U28's mutants: the wrong implementations under which U28.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U28", rule: "shadowing.lower-index-wins", id: "last-root-wins", description: "Shadowing order is reversed: the last root wins a name collision.",
    mutation: { config: (c) => ({ ...c, skill_roots: [...c.skill_roots].reverse() }) },
  },
  {
    kills: "U28", rule: "catalog.sorted", id: "catalog-in-directory-order",
    description: "Catalog entries come in reverse name order (the order a directory listing happened to give), not sorted by name.",
    mutation: { catalog: (c) => ({ ...c, entries: [...c.entries].reverse() }) },
  },
];

export default mutants;
