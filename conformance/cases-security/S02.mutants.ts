// S02's mutants: the wrong implementations under which S02.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { join, sep } from "node:path";
import { okFrom, real } from "../mutants/helpers.ts";
import { type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

function insideAny(path: string, roots: readonly string[]): boolean {
  return roots.some((r) => path === r || path.startsWith(r.endsWith(sep) ? r : r + sep));
}

const mutants: MutantRow[] = [
  {
    kills: "S02",
    rule: "fence.outside-workspace",
    id: "fence-dir-only",
    description:
      "The fence checks the skill directory's real path but not its SKILL.md's, so a SKILL.md symlinked out of the root is read.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "OUTSIDE_WORKSPACE" && name)) return r;
        const roots = ctx.config.skill_roots.map((x) => real(x) ?? x);
        for (const root of ctx.config.skill_roots) {
          const dir = real(join(root, name));
          const a = dir && insideAny(dir, roots) ? readAuthored({ skill_roots: [root] }, name) : undefined;
          if (a) return okFrom(a, name);
        }
        return r;
      },
    },
  },
];

export default mutants;
