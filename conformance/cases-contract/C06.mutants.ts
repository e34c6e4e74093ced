// C06's mutants: the wrong implementations under which C06.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow, nameOf, okFromAuthored, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "C06",
    rule: "arguments.required-missing",
    id: "required-arguments-unchecked-without-arguments",
    description:
      "Required named arguments are only checked when arguments is given: a call without arguments activates.",
    mutation: {
      result: (r, p, _o, ctx) => {
        if (!(r.kind === "error" && r.code === "INVALID_PARAM" && isObj(p) && p.arguments === undefined)) return r;
        const a = readAuthored(ctx.config, nameOf(p) ?? "");
        if (!a?.frontmatter.ok || !isObj(a.frontmatter.value)) return r;
        return okFromAuthored(a, String(p.name), a.frontmatter.value);
      },
    },
  },
];

export default mutants;
