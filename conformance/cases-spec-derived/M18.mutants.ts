// M18's mutant: discovery that descends one level further than §5.2's immediate subdirectories.
import { join } from "node:path";
import { plusRoots, subdirs } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M18",
    rule: "discovery.immediate-subdirs",
    id: "discovers-two-levels",
    description: "Every subdirectory of a root is scanned as a root too, so a SKILL.md two levels down is a skill.",
    mutation: {
      config: (c) =>
        plusRoots(
          c,
          c.skill_roots.flatMap((root) => subdirs(root).map((n) => join(root, n))),
        ),
    },
  },
];

export default mutants;
