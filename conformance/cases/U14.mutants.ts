// U14's mutants: the wrong implementations under which U14.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U14", rule: "trust.not-trusted", id: "every-root-trusted", description: "Every root is trusted: untrusted project skills activate without a hook.",
    mutation: { config: (c) => ({ ...c, skill_trust: { ...(c.skill_trust ?? {}), trusted_roots: [...c.skill_roots] } }) },
  },
];

export default mutants;
