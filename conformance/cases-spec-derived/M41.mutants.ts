// M41's mutant: untrusted_project_skills "allow" gated like the default (§5.5 as D5 reads it with no hook).
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M41",
    rule: "trust.untrusted-no-hook-activates",
    id: "allow-gates-like-default",
    description:
      "untrusted_project_skills: allow is treated as hook_required: an untrusted skill without a hook is NOT_TRUSTED.",
    mutation: {
      config: (c) =>
        c.skill_trust?.untrusted_project_skills === "allow"
          ? { ...c, skill_trust: { ...c.skill_trust, untrusted_project_skills: "hook_required" } }
          : c,
    },
  },
];

export default mutants;
