// U14's mutants: the wrong implementations under which U14.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { type MutantRow, errorResult, nameOf } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U14",
    rule: "trust.not-trusted",
    id: "every-root-trusted",
    description: "Every root is trusted: untrusted project skills activate without a hook.",
    mutation: {
      config: (c) => ({ ...c, skill_trust: { ...(c.skill_trust ?? {}), trusted_roots: [...c.skill_roots] } }),
    },
  },
  {
    kills: "U14",
    rule: "trust.trusted-root-no-hook",
    id: "no-hook-fails-closed",
    description:
      "With no hook and no unsafe flag every activation is NOT_TRUSTED, trusted root or not (S-D10's fail-closed reading instead of D5's).",
    mutation: {
      before: (p, _o, ctx) => {
        const name = nameOf(p);
        const perm = ctx.config.permission;
        if (name === undefined || perm?.hook || perm?.unsafeAllowSkillWithoutHook) return undefined;
        return errorResult("NOT_TRUSTED", name, `skill "${name}" needs a permission hook to approve it`);
      },
    },
  },
];

export default mutants;
