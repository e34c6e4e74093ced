// F10's mutants: the wrong implementations under which F10.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { SkillResult } from "../../schemas/index.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "F10",
    rule: "render.frontmatter-roundtrip",
    id: "raw-json-quoting",
    description:
      "Rendered strings are quoted with plain JSON, which leaves DEL and C1 characters raw: the <frontmatter> block no longer reads back under R13.",
    mutation: {
      result: (r: SkillResult) =>
        r.kind === "ok"
          ? {
              ...r,
              output: r.output.replace(/\\u(007f|008[0-9a-f]|009[0-9a-f])/g, (_m, h: string) =>
                String.fromCharCode(parseInt(h, 16)),
              ),
            }
          : r,
    },
  },
];

export default mutants;
