// S12's mutants: the wrong implementations under which S12.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { errorResult, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (const ch of text) {
    if (ch === "[" || ch === "{") max = Math.max(max, ++depth);
    else if (ch === "]" || ch === "}") depth--;
  }
  return max;
}

const mutants: MutantRow[] = [
  {
    kills: "S12",
    rule: "yaml.deep-structured",
    id: "deep-yaml-as-io-error",
    description:
      "A parser stack overflow on deeply nested YAML escapes as an unexpected failure (IO_ERROR) instead of INVALID_FRONTMATTER.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "INVALID_FRONTMATTER" && name)) return r;
        const a = readAuthored(ctx.config, name);
        const deep = a && (flowDepth(a.raw) > 1000 || /(- ){1000}/.test(a.raw));
        return deep
          ? errorResult("IO_ERROR", name, `skill "${name}" could not be read: Maximum call stack size exceeded`)
          : r;
      },
    },
  },
];

export default mutants;
