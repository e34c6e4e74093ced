// M21's mutant: a sensitive skill refused with SENSITIVE although a hook is configured (§5.4).
import { join } from "node:path";
import { minimatch } from "minimatch";
import { errorResult, isDir, nameOf, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M21",
    rule: "sensitive.hook-decides",
    id: "sensitive-ignores-hook",
    description:
      "A skill dir matching a sensitive pattern is refused with SENSITIVE before the hook is asked, hook or not.",
    mutation: {
      before: (p, _o, ctx) => {
        const name = nameOf(p);
        if (name === undefined) return undefined;
        const dir = ctx.config.skill_roots.map((r) => join(r, name)).find(isDir);
        const hit =
          dir !== undefined && (ctx.config.sensitive_patterns ?? []).some((pat) => minimatch(dir, pat, { dot: true }));
        return hit ? errorResult("SENSITIVE", name, `skill "${name}" lies under a sensitive path`) : undefined;
      },
    },
  },
];

export default mutants;
