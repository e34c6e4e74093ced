// M24's mutant: every call re-reads the skill from disk, so an edit after activation loads again (§7 non-behavior).
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M24",
    rule: "dedupe.survives-edit",
    id: "edit-invalidates-dedupe",
    description:
      "Every call re-reads the tree in a fresh session, forgetting what was activated: the edited skill activates again with its new body.",
    mutation: { freshSessionPerCall: true },
  },
];

export default mutants;
