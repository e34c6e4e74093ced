// S08's mutants: the wrong implementations under which S08.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { LIMITS } from "../../schemas/index.ts";
import { bytes, okFrom } from "../mutants/helpers.ts";
import { type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S08",
    rule: "errors.io-error",
    id: "oversized-truncated",
    description:
      "A SKILL.md over the 1 MiB cap is read anyway and its body cut at the cap, instead of refused with IO_ERROR.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "IO_ERROR" && name)) return r;
        const a = readAuthored(ctx.config, name);
        if (!a?.frontmatter.ok || bytes(a.raw) <= LIMITS.skill_md_max_bytes) return r;
        return okFrom(a, name, a.body.slice(0, LIMITS.skill_md_max_bytes));
      },
    },
  },
];

export default mutants;
