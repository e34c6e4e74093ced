// M23's mutant: the hook is never told a skill is untrusted (every ask says reason normal), §5.5.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M23",
    rule: "hook.untrusted-flag",
    id: "no-untrusted-flag",
    description:
      "The hook is asked about every skill with reason normal, trusted root or not (the session runs as if untrusted_project_skills were allow).",
    mutation: {
      config: (c) =>
        c.skill_trust && c.skill_trust.untrusted_project_skills === undefined
          ? { ...c, skill_trust: { ...c.skill_trust, untrusted_project_skills: "allow" } }
          : c,
    },
  },
];

export default mutants;
