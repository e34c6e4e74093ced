// M09's mutants: three ways to get §9's positional placeholders wrong, each re-substituting the authored body.
import { withBody } from "../mutants/helpers.ts";
import { isObj, readAuthored, type MutantRow, type Mutation } from "../mutants/wrap.ts";

type Bug = "n-zero-based" | "index-one-based" | "strip-leftovers";

/** §9's string-form substitution with one bug in it. */
function substitute(body: string, args: string | undefined, bug: Bug): string {
  const tokens = args === undefined ? [] : args.split(/\s+/).filter(Boolean);
  return body.replace(/\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)/g, (match, i0?: string, n?: string) => {
    let value: string | undefined;
    if (i0 !== undefined) value = tokens[Number(i0) - (bug === "index-one-based" ? 1 : 0)];
    else if (n !== undefined) value = tokens[Number(n) - (bug === "n-zero-based" ? 0 : 1)];
    else value = args;
    return value ?? (bug === "strip-leftovers" ? "" : match);
  });
}

function resubstituted(bug: Bug): Mutation {
  return {
    result: (r, p, _o, ctx) => {
      if (r.kind !== "ok") return r;
      const a = readAuthored(ctx.config, r.name);
      const args = isObj(p) && typeof p.arguments === "string" ? p.arguments : undefined;
      if (!a) return r;
      return withBody(r, substitute(a.body, args, bug));
    },
  };
}

const mutants: MutantRow[] = [
  {
    kills: "M09",
    rule: "substitution.positional",
    id: "dollar-n-zero-based",
    description: "$N takes the token at index N ($1 is the second token).",
    mutation: resubstituted("n-zero-based"),
  },
  {
    kills: "M09",
    rule: "substitution.indexed",
    id: "arguments-index-one-based",
    description: "$ARGUMENTS[N] is 1-indexed like $N ($ARGUMENTS[1] is the first token).",
    mutation: resubstituted("index-one-based"),
  },
  {
    kills: "M09",
    rule: "substitution.leftover-literal",
    id: "leftovers-stripped",
    description: "A placeholder with nothing to put in it is removed from the body.",
    mutation: resubstituted("strip-leftovers"),
  },
];

export default mutants;
