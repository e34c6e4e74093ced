// U08's mutants: the wrong implementations under which U08.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { OkResult } from "../../schemas/index.ts";
import { bytes, onError } from "../mutants/helpers.ts";
import { isObj, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U08",
    rule: "frontmatter.required-fields",
    id: "description-optional",
    description: "description is treated as optional: a SKILL.md without it activates.",
    mutation: {
      result: onError("INVALID_FRONTMATTER", (r, p, config) => {
        const name = nameOf(p) ?? "";
        const a = readAuthored(config, name);
        if (!a?.frontmatter.ok || !isObj(a.frontmatter.value) || a.frontmatter.value.description !== undefined)
          return r;
        return {
          kind: "ok",
          name,
          dir: a.dir,
          body: a.body,
          frontmatter: a.frontmatter.value as OkResult["frontmatter"],
          resources: [],
          bytes: bytes(a.body),
          output: `<skill name="${name}">\n${a.body}</skill>`,
        };
      }),
    },
  },
];

export default mutants;
