// M13's mutant: untrusted_project_skills "allow" refusing an untrusted project skill on its own (§5.5).
import { errorResult, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M13",
    rule: "trust.allow-no-gating",
    id: "allow-refuses-untrusted",
    description:
      "untrusted_project_skills: allow is read as 'trusted roots only': an untrusted project skill is NOT_TRUSTED even when the permission hook allows it.",
    mutation: {
      result: (r, _p, _o, ctx) => {
        const trust = ctx.config.skill_trust;
        if (r.kind !== "ok" || trust?.untrusted_project_skills !== "allow") return r;
        const trusted = (trust.trusted_roots ?? []).some((root) => r.dir === root || r.dir.startsWith(`${root}/`));
        return trusted ? r : errorResult("NOT_TRUSTED", r.name, `skill "${r.name}" is not from a trusted root`);
      },
    },
  },
];

export default mutants;
