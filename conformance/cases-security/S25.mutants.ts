// S25's mutants: the wrong implementations under which S25.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { okFrom, real } from "../mutants/helpers.ts";
import { type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S25",
    rule: "sensitive.skill-md-real-path",
    id: "sensitive-dir-only",
    description:
      "Sensitive patterns are matched against the skill dir alone: a SKILL.md symlinked into secrets/ activates, its body returned (finding 8 of issue 26).",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "SENSITIVE" && name)) return r;
        const a = readAuthored(ctx.config, name);
        const dir = a ? real(a.dir) : undefined;
        // Only where the dir itself would pass the default patterns: the SKILL.md alone made it sensitive.
        return a && dir && !/\/(secrets|\.env)(\/|$)/.test(dir) ? okFrom(a, name) : r;
      },
    },
  },
];

export default mutants;
