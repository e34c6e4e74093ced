// S01's mutants: the wrong implementations under which S01.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { real, subdirs } from "../mutants/helpers.ts";
import { isDir, type MutantRow } from "../mutants/wrap.ts";

/** Roots plus every sibling directory whose path starts with a root's path: what a separator-less prefix fence admits. */
function withPrefixSiblings(roots: readonly string[]): string[] {
  const out = [...roots];
  for (const root of roots) {
    const r = real(root) ?? root;
    let siblings: string[] = [];
    try {
      siblings = readdirSync(dirname(r));
    } catch {
      continue;
    }
    for (const s of siblings) {
      const p = join(dirname(r), s);
      if (p !== r && p.startsWith(r) && isDir(p) && !out.includes(p)) out.push(p);
    }
  }
  return out;
}

const mutants: MutantRow[] = [
  {
    kills: "S01",
    rule: "fence.never-listed",
    id: "fence-string-prefix",
    description:
      "The fence compares path strings without a separator, so <tmp>/skills-evil/x passes for the root <tmp>/skills.",
    mutation: {
      config: (c) => ({
        ...c,
        skill_roots: withPrefixSiblings(c.skill_roots),
        ...(c.skill_trust
          ? { skill_trust: { ...c.skill_trust, trusted_roots: withPrefixSiblings(c.skill_trust.trusted_roots) } }
          : {}),
      }),
    },
  },
  {
    kills: "S01",
    rule: "fence.no-leak",
    id: "outside-text-in-warning",
    description:
      "A skill dir linked out of every root is skipped, but the warning quotes the SKILL.md it points at: text from outside the roots reaches the catalog.",
    mutation: {
      catalog: (c, ctx) => {
        const roots = ctx.config.skill_roots.map((r) => real(r) ?? r);
        const leaks = ctx.config.skill_roots.flatMap((root) =>
          subdirs(root).flatMap((n) => {
            const target = real(join(root, n));
            const inside = target !== undefined && roots.some((r) => target === r || target.startsWith(r + sep));
            if (inside || target === undefined || !existsSync(join(target, "SKILL.md"))) return [];
            return [
              `skipped ${n}: outside the workspace (${readFileSync(join(target, "SKILL.md"), "utf8").slice(0, 300).replace(/\s+/g, " ")})`,
            ];
          }),
        );
        return { ...c, warnings: [...c.warnings, ...leaks] };
      },
    },
  },
];

export default mutants;
