// U17's mutants: the wrong implementations under which U17.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { SkillResult } from "../../schemas/index.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U17",
    rule: "dedupe.already-loaded",
    id: "no-dedupe",
    description: "Activations are forgotten: a second call reloads instead of already_loaded.",
    mutation: { freshSessionPerCall: true },
  },
  {
    kills: "U17",
    rule: "dedupe.at-turn",
    id: "at-turn-is-now",
    description: "already_loaded.at_turn is the turn of the repeat call, not the turn of the first activation (D9).",
    mutation: { result: (r, _p, o) => (r.kind === "already_loaded" ? { ...r, at_turn: o.turn ?? 0 } : r) },
  },
  {
    kills: "U17",
    rule: "result.schema-contract",
    id: "bare-already-loaded",
    description:
      "already_loaded comes back as §3.2's structured shape alone ({kind, name, at_turn}), without the output the kit's result schema requires.",
    mutation: {
      result: (r) => {
        if (r.kind !== "already_loaded") return r;
        const { output: _output, ...bare } = r;
        return bare as SkillResult;
      },
    },
  },
];

export default mutants;
