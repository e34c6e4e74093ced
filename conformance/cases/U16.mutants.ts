// U16's mutants: the wrong implementations under which U16.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { bytes, onOk, real } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U16", rule: "output.skill-block", id: "unwrapped-output", description: "The output is the bare body plus the note: no <skill> / <frontmatter> / <instructions> wrapper.",
    mutation: { result: onOk((r) => ({ ...r, output: r.output.replace(/^[\s\S]*<\/skill>\n/, r.body) })) },
  },
  {
    kills: "U16", rule: "body.verbatim", id: "body-trimmed",
    description: "The SKILL.md body is trimmed (its final newline and surrounding blank space dropped), as several real harnesses do: §4.5 rule 6 says verbatim.",
    mutation: {
      result: onOk((r) => {
        const body = r.body.trim();
        return body === r.body ? r : { ...r, body, bytes: bytes(body), output: r.output.replace(r.body, `${body}\n`) };
      }),
    },
  },
];

export default mutants;
