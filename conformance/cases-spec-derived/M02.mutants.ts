// M02's mutants: implementations that scan more than the configured roots (§1, §5.1): a harness's default roots
// under HOME and the working directory, or the directory above each root.
import { dirname, join } from "node:path";
import { plusRoots } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M02",
    rule: "discovery.configured-roots-only",
    id: "default-roots-from-home",
    description:
      "~/.claude/skills, ~/.agents/skills, ./.claude/skills and ./.skills (HOME and the working directory the session runs in) are scanned after the configured roots.",
    mutation: {
      config: (c, o) =>
        o.environment
          ? plusRoots(c, [
              join(o.environment.home, ".claude/skills"),
              join(o.environment.home, ".agents/skills"),
              join(o.environment.cwd, ".claude/skills"),
              join(o.environment.cwd, ".skills"),
            ])
          : c,
    },
  },
  {
    kills: "M02",
    rule: "discovery.configured-roots-only",
    id: "walks-up-one-level",
    description: "Each root's parent directory, and its .claude/skills, are scanned too (one step of walking up).",
    mutation: {
      config: (c) =>
        plusRoots(
          c,
          c.skill_roots.flatMap((r) => [dirname(r), join(dirname(r), ".claude/skills")]),
        ),
    },
  },
];

export default mutants;
