// M20's mutant: $ARGUMENTS of object arguments written as JSON instead of key=value pairs (§9).
import { withBody } from "../mutants/helpers.ts";
import { isObj, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M20",
    rule: "substitution.map-pairs",
    id: "map-arguments-as-json",
    description: "$ARGUMENTS of object arguments is their JSON text.",
    mutation: {
      result: (r, p) => {
        if (r.kind !== "ok" || !isObj(p) || !isObj(p.arguments)) return r;
        const pairs = Object.entries(p.arguments)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(" ");
        return withBody(r, r.body.replace(pairs, JSON.stringify(p.arguments)));
      },
    },
  },
];

export default mutants;
