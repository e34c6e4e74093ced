// S22's mutants: the wrong implementations under which S22.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { MutantRow } from "../mutants/wrap.ts";

/** What a lossy reader of root names does: every name decoded with U+FFFD for bad bytes, then opened by that string. */
function lossyWarnings(roots: readonly string[]): string[] {
  const out: string[] = [];
  for (const root of roots) {
    let names: string[] = [];
    try {
      names = readdirSync(root); // Node decodes a name that is not UTF-8 with U+FFFD
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.includes("\ufffd"))) {
      try {
        const text = readFileSync(join(root, name, "SKILL.md"), "utf8");
        const fmName = /^name: (.*)$/m.exec(text)?.[1] ?? "";
        out.push(
          `skill ${join(root, name)} skipped: NAME_MISMATCH: frontmatter name "${fmName}" differs from the directory name`,
        );
      } catch {
        // nothing there to leak
      }
    }
  }
  return out;
}

const mutants: MutantRow[] = [
  {
    kills: "S22",
    rule: "names.not-utf8-root",
    id: "lossy-root-names",
    description:
      "Root entry names are decoded lossily (0xff becomes U+FFFD) and opened by that string: the U+FFFD symlink's outside SKILL.md is read and its frontmatter name comes back in a catalog warning (finding 1 of issue 26).",
    mutation: {
      catalog: (c, ctx) => ({ ...c, warnings: [...c.warnings, ...lossyWarnings(ctx.config.skill_roots)] }),
    },
  },
];

export default mutants;
