// U17's mutants: the wrong implementations under which U17.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U17", rule: "dedupe.already-loaded", id: "no-dedupe", description: "Activations are forgotten: a second call reloads instead of already_loaded.",
    mutation: { freshSessionPerCall: true },
  },
];

export default mutants;
