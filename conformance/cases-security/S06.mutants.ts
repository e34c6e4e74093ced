// S06's mutants: the wrong implementations under which S06.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { okFrom, perSession } from "../mutants/helpers.ts";
import { type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const discovered = perSession(() => new Set<string>());

const mutants: MutantRow[] = [
  {
    kills: "S06",
    rule: "fence.outside-workspace",
    id: "fence-at-discovery-only",
    description:
      "The fence runs at discovery only; activation reads whatever the discovered path points at by then (a time-of-check/time-of-use gap).",
    mutation: {
      catalog: (c, ctx) => {
        for (const e of c.entries) discovered(ctx).add(e.name);
        return c;
      },
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "OUTSIDE_WORKSPACE" && name && discovered(ctx).has(name))) return r;
        const a = readAuthored(ctx.config, name);
        return a ? okFrom(a, name) : r;
      },
    },
  },
];

export default mutants;
