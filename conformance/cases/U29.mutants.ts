// U29's mutants: the wrong implementations under which U29.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { CatalogEntry, SessionConfig } from "../../schemas/index.ts";
import { errorResult, isDir, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

/** Subdirectories of the roots that hold no SKILL.md, as the broken scanner of the U29 mutant sees them. */
function dirsWithoutSkillMd(config: SessionConfig): Array<{ name: string; dir: string; root_index: number }> {
  const out: Array<{ name: string; dir: string; root_index: number }> = [];
  config.skill_roots.forEach((root, root_index) => {
    let names: string[] = [];
    try {
      names = readdirSync(root);
    } catch {
      return;
    }
    for (const n of names) {
      const dir = join(root, n);
      if (!n.startsWith(".") && isDir(dir) && !readAuthored({ skill_roots: [root] }, n))
        out.push({ name: n, dir, root_index });
    }
  });
  return out;
}

const mutants: MutantRow[] = [
  {
    kills: "U29",
    rule: "discovery.skip-no-skill-md",
    id: "dirs-without-skill-md-listed",
    description: "Every subdirectory is a skill: one without SKILL.md is listed and activating it is IO_ERROR.",
    mutation: {
      catalog: (c, ctx) => {
        const extra: CatalogEntry[] = dirsWithoutSkillMd(ctx.config)
          .filter((d) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(d.name) && !c.entries.some((e) => e.name === d.name))
          .map((d) => ({
            name: d.name,
            description: "(no SKILL.md)",
            dir: d.dir,
            root_index: d.root_index,
            frontmatter: { name: d.name, description: "(no SKILL.md)" },
            meta: { shadowed: [] },
          }));
        return {
          ...c,
          entries: [...c.entries, ...extra].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
        };
      },
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        const hit =
          name && r.kind === "not_found"
            ? dirsWithoutSkillMd(ctx.config).find((d) => basename(d.dir) === name)
            : undefined;
        return hit ? errorResult("IO_ERROR", name!, `skill "${name}": cannot read ${join(hit.dir, "SKILL.md")}`) : r;
      },
    },
  },
  {
    kills: "U29",
    rule: "discovery.skip-silently",
    id: "warns-on-dirs-without-skill-md",
    description: "A directory without SKILL.md is skipped, but with a catalog warning naming it.",
    mutation: {
      catalog: (c, ctx) => ({
        ...c,
        warnings: [
          ...c.warnings,
          ...dirsWithoutSkillMd(ctx.config).map((d) => `skipped ${d.name}: no SKILL.md in ${d.dir}`),
        ],
      }),
    },
  },
];

export default mutants;
