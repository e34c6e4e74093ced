// M05's mutant: a parser that splits SKILL.md on every --- line, so the body ends at its first horizontal rule.
import { onOk, withBody } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M05",
    rule: "body.verbatim",
    id: "body-ends-at-next-dash-line",
    description:
      "The body is cut at its first --- line (SKILL.md split on every ---, the third piece taken as the body).",
    mutation: { result: onOk((r) => withBody(r, r.body.split(/^---$/m)[0]!)) },
  },
];

export default mutants;
