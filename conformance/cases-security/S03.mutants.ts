// S03's mutants: the wrong implementations under which S03.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { CatalogEntry } from "../../schemas/index.ts";
import { real } from "../mutants/helpers.ts";
import { errorResult, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S03",
    rule: "fence.root-symlink",
    id: "symlinked-root-refused",
    description:
      "The fence compares a skill's real path with the root as configured (not its real path), so a symlinked root, or one spelled with .., refuses every skill in it.",
    mutation: {
      catalog: (c, ctx) => {
        const bad = (e: CatalogEntry) => {
          const root = ctx.config.skill_roots[e.root_index];
          return root !== undefined && real(root) !== root;
        };
        return { ...c, entries: c.entries.filter((e) => !bad(e)) };
      },
      result: async (r, _p, _o, ctx) => {
        if (r.kind !== "ok") return r;
        const entry = (await ctx.inner.catalog()).entries.find((e) => e.name === r.name);
        const root = entry ? ctx.config.skill_roots[entry.root_index] : undefined;
        return root !== undefined && real(root) !== root
          ? errorResult("OUTSIDE_WORKSPACE", r.name, `skill "${r.name}" resolves outside the configured skill roots`)
          : r;
      },
    },
  },
];

export default mutants;
