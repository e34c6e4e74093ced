// U18's mutants: the wrong implementations under which U18.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { type MutantRow, isObj, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U18",
    rule: "substitution.string",
    id: "string-arguments-dropped",
    description: "String arguments are dropped: $ARGUMENTS stays literal.",
    mutation: {
      params: (p) => {
        if (!isObj(p) || typeof p.arguments !== "string") return p;
        const { arguments: _a, ...rest } = p;
        return rest;
      },
    },
  },
  {
    kills: "U18",
    rule: "output.body-shown",
    id: "output-shows-raw-body",
    description:
      "The body field is substituted, but the output is rendered from the body as written: the model reads $ARGUMENTS.",
    mutation: {
      result: (r, _p, _o, ctx) => {
        if (r.kind !== "ok") return r;
        const a = readAuthored(ctx.config, r.name);
        return a && a.body !== r.body ? { ...r, output: r.output.replace(r.body, a.body) } : r;
      },
    },
  },
];

export default mutants;
