// S15's mutants: the wrong implementations under which S15.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type CatalogEntry, LIMITS } from "../../schemas/index.ts";
import { perSession, subdirs } from "../mutants/helpers.ts";
import { errorResult, isDir, type MutantRow, nameOf } from "../mutants/wrap.ts";

const NAME_RE = new RegExp(LIMITS.name_pattern);

const stalled = perSession(() => ({ done: false }));

const mutants: MutantRow[] = [
  {
    kills: "S15",
    rule: "discovery.skip-no-skill-md",
    id: "every-entry-listed",
    description:
      "Every kebab-named subdirectory of a root is listed as a skill, SKILL.md or not (and is IO_ERROR when activated).",
    mutation: {
      catalog: (c, ctx) => {
        const extra: CatalogEntry[] = [];
        ctx.config.skill_roots.forEach((root, root_index) => {
          for (const d of subdirs(root)) {
            if (!NAME_RE.test(d) || c.entries.some((e) => e.name === d) || existsSync(join(root, d, "SKILL.md")))
              continue;
            extra.push({
              name: d,
              description: "(no SKILL.md)",
              dir: join(root, d),
              root_index,
              frontmatter: { name: d, description: "(no SKILL.md)" },
              meta: { shadowed: [] },
            });
          }
        });
        return {
          ...c,
          entries: [...c.entries, ...extra].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
        };
      },
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "not_found" && name)) return r;
        const root = ctx.config.skill_roots.find((x) => isDir(join(x, name)));
        return root ? errorResult("IO_ERROR", name, `skill "${name}": cannot read ${join(root, name, "SKILL.md")}`) : r;
      },
    },
  },
  {
    kills: "S15",
    rule: "limits.in-time",
    id: "first-lookup-stalls",
    description:
      "The first lookup of a session stalls (a lazy index built over the whole root) past the call's deadline.",
    mutation: {
      before: async (_p, _o, ctx) => {
        const state = stalled(ctx);
        if (!state.done) {
          state.done = true;
          await new Promise((resolve) => setTimeout(resolve, 1100));
        }
        return undefined;
      },
    },
  },
];

export default mutants;
