// S17's mutants: the wrong implementations under which S17.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S17",
    rule: "params.type",
    id: "lenient-input-coercion",
    description:
      "A bare string as the tool input is taken as the skill name (and a non-string name is stringified): lenient coercion instead of INVALID_PARAM.",
    mutation: {
      params: (p) =>
        typeof p === "string"
          ? { name: p }
          : isObj(p) && typeof p["name"] === "number"
            ? { ...p, name: String(p["name"]) }
            : p,
    },
  },
];

export default mutants;
