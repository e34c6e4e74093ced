// F02's mutants: the wrong implementations under which F02.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { reparsedBy } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/**
 * YAML 1.1, as many parsers still read it: yes/no/on/off/y booleans, dates, 010 octal, 1_000 a number, << a merge key;
 * every skill's frontmatter is read that way, refused ones included (then numbers past 2^53, .inf and non-string keys load).
 */
const yaml11 = reparsedBy({ version: "1.1", uniqueKeys: false }, true);

const mutants: MutantRow[] = [
  {
    kills: "F02",
    rule: "yaml.core-schema",
    id: "lossy-scalars",
    description:
      'Frontmatter read as YAML 1.1: yes/no/on/off become booleans, 010 octal 8, 1_000 the number 1000, << a merge key; and, where the contract refuses, 12345678901234567890 becomes 12345678901234567000, .inf Infinity, the key 1.0 the string "1".',
    mutation: yaml11,
  },
];

export default mutants;
