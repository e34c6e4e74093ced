// S05's mutants: the wrong implementations under which S05.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { LIMITS } from "../../schemas/index.ts";
import { real } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** Files under a skill's resource folders, found by a walker that follows symlinks (bounded only by depth). */
function followingWalk(dir: string, rel: string, depth: number, out: string[]): void {
  if (depth > 4) return;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names.sort()) {
    if (n.startsWith(".")) continue;
    try {
      const st = statSync(join(dir, n));
      if (st.isDirectory()) followingWalk(join(dir, n), `${rel}/${n}`, depth + 1, out);
      else out.push(`${rel}/${n}`);
    } catch {
      // a dangling link or a loop (ELOOP): skipped
    }
  }
}

const mutants: MutantRow[] = [
  {
    kills: "S05",
    rule: "resources.no-follow-loop",
    id: "resources-follow-symlinks",
    description:
      "The resource walker follows symlinked directories (bounded only by depth), so a link to .. in scripts/ lists the skill over and over.",
    mutation: {
      result: (r) => {
        if (r.kind !== "ok") return r;
        const base = real(r.dir) ?? r.dir;
        const resources: string[] = [];
        for (const folder of LIMITS.resource_folders) {
          const all: string[] = [];
          followingWalk(join(base, folder), folder, 0, all);
          resources.push(...all.sort().slice(0, LIMITS.resources_per_folder));
        }
        return { ...r, resources };
      },
    },
  },
];

export default mutants;
