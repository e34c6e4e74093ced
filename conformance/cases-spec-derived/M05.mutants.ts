// M05's mutant: a parser that splits SKILL.md on every --- line, so the body ends at its first horizontal rule.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M05", rule: "body.verbatim", id: "body-ends-at-next-dash-line",
    description: "The body is cut at its first --- line (SKILL.md split on every ---, the third piece taken as the body).",
    mutation: {
      result: (r) => {
        if (r.kind !== "ok") return r;
        const body = r.body.split(/^---$/m)[0]!;
        return { ...r, body, bytes: Buffer.byteLength(body), output: r.output.split(r.body).join(body) };
      },
    },
  },
];

export default mutants;
