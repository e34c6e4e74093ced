// C05's mutants: the wrong implementations under which C05.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "C05",
    rule: "frontmatter.error-location",
    id: "missing-field-on-line-1",
    description: "A missing required field is reported on line 1 (the opening ---) instead of line 2.",
    mutation: {
      result: (r, p, _o, ctx) => {
        if (r.kind !== "error" || r.code !== "INVALID_FRONTMATTER") return r;
        const a = readAuthored(ctx.config, nameOf(p) ?? "");
        const fm = a?.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value : undefined;
        return fm && (fm.name === undefined || fm.description === undefined) ? { ...r, line: 1 } : r;
      },
    },
  },
];

export default mutants;
