// F08's mutants: the wrong implementations under which F08.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { refusedWhen } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const OPTIONAL = [
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
  "version",
  "argument-hint",
  "user-invocable",
  "arguments",
];

const mutants: MutantRow[] = [
  {
    kills: "F08",
    rule: "frontmatter.blank-optional",
    id: "blank-fields-refused",
    description: "A blank optional field (license:, read as null) is a type error that drops the skill.",
    mutation: refusedWhen((fm) => OPTIONAL.some((k) => k in fm && fm[k] === null)),
  },
];

export default mutants;
