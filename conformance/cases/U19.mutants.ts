// U19's mutants: the wrong implementations under which U19.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { bytes, onOk } from "../mutants/helpers.ts";
import { isObj, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U19",
    rule: "substitution.named",
    id: "named-arguments-not-substituted",
    description: "Named arguments are validated but ${name} placeholders are left in the body.",
    mutation: {
      result: onOk((r, p) => {
        if (!isObj(p) || !isObj(p.arguments)) return r;
        let body = r.body;
        let output = r.output;
        for (const [k, v] of Object.entries(p.arguments)) {
          if (typeof v !== "string" || !v) continue;
          body = body.split(v).join("${" + k + "}");
          output = output.split(v).join("${" + k + "}");
        }
        return { ...r, body, output, bytes: bytes(body) };
      }),
    },
  },
];

export default mutants;
