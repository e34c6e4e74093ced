// F05's mutants: the wrong implementations under which F05.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import YAML from "yaml";
import { errorResult, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "F05",
    rule: "yaml.aliases",
    id: "library-alias-counting",
    description:
      "Aliases counted as the yaml package's maxAliasCount counts them, not as R16 does: 100 uses of an anchor are already refused.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (r.kind !== "ok" || !name) return r;
        const a = readAuthored(ctx.config, name);
        if (!a) return r;
        try {
          YAML.parse(a.yaml, { maxAliasCount: 100, logLevel: "error" });
          return r;
        } catch (e) {
          // Only the library's alias refusal: any other error of its own is not this mutant's mistake.
          if (!/alias/i.test((e as Error).message)) return r;
          return errorResult("INVALID_FRONTMATTER", name, `skill "${name}": excessive alias count`);
        }
      },
    },
  },
];

export default mutants;
