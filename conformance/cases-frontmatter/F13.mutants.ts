// F13's mutants: the wrong implementations under which F13.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { SkillResult } from "../../schemas/index.ts";
import type { MutantRow, Mutation } from "../mutants/wrap.ts";

/** A blank name or description (null) reported as a value of the wrong type, not as missing (R20). */
const blankRequiredAsTypeError: Mutation = {
  result: (r) => {
    if (r.kind !== "error") return r;
    const m = /^missing required field '(name|description)'$/.exec(String(r.reason));
    if (!m || r.line === 2) return r; // absent keys are at line 2: only a blank one has a line of its own here
    const reason = `field '${m[1]}' must be a string; got null`;
    return { ...r, reason, output: r.output.replace(/^Reason: .*$/m, `Reason: ${reason}`) } as SkillResult;
  },
};

const mutants: MutantRow[] = [
  {
    kills: "F13",
    rule: "frontmatter.blank-required-reason",
    id: "blank-required-as-type-error",
    description:
      "A blank name or description (null) is reported as a value of the wrong type ('must be a string; got null'), not as the missing field R20 says it is.",
    mutation: blankRequiredAsTypeError,
  },
];

export default mutants;
