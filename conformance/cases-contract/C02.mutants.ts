// C02's mutants: the wrong implementations under which C02.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { normalize } from "node:path";
import type { CatalogEntry } from "../../schemas/index.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** R32 the other way: the dir keeps the root as configured ("user/../real-user/x"). */
function unnormalisedDir(text: string, roots: readonly string[]): string {
  return roots.reduce(
    (t, root) => (normalize(root) === root ? t : t.split(`${normalize(root)}/`).join(`${root}/`)),
    text,
  );
}

const mutants: MutantRow[] = [
  {
    kills: "C02",
    rule: "dir.normalised",
    id: "dir-not-normalised",
    description: "dir is the root as configured joined with the name: <tmp>/user/../real-user/x.",
    mutation: {
      result: (r, _p, _o, ctx) =>
        r.kind === "ok"
          ? {
              ...r,
              dir: unnormalisedDir(r.dir, ctx.config.skill_roots),
              output: unnormalisedDir(r.output, ctx.config.skill_roots),
            }
          : r,
      catalog: (c, ctx) => ({
        ...c,
        entries: c.entries.map((e): CatalogEntry => ({ ...e, dir: unnormalisedDir(e.dir, ctx.config.skill_roots) })),
      }),
    },
  },
];

export default mutants;
