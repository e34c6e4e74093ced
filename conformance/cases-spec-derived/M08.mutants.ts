// M08's mutant: a hook's allow_once is read as a refusal (only "allow" lets an activation through).
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M08",
    rule: "hook.allow-once",
    id: "allow-once-denies",
    description: "Only the answer allow activates; allow_once is treated like any other answer, as a deny.",
    mutation: { hookAnswer: (a) => (a === "allow_once" ? "deny" : a) },
  },
];

export default mutants;
