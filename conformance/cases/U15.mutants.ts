// U15's mutants: the wrong implementations under which U15.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U15",
    rule: "trust.unsafe-allow",
    id: "unsafe-flag-ignored",
    description: "unsafeAllowSkillWithoutHook is ignored: untrusted skills stay NOT_TRUSTED.",
    mutation: {
      config: (c) => {
        const permission = { ...(c.permission ?? {}) };
        delete permission.unsafeAllowSkillWithoutHook;
        return { ...c, permission };
      },
    },
  },
];

export default mutants;
