// M01's mutant: an implementation that runs !`cmd` blocks on activation, as Claude Code does (§1 non-goal, §15).
import { execSync } from "node:child_process";
import { onOk, withBody } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M01",
    rule: "body.no-shell-injection",
    id: "runs-bang-blocks",
    description:
      "Each !`cmd` block of the body is run in the skill's directory on activation and replaced by its output (Claude Code's dynamic shell injection).",
    mutation: {
      result: onOk((r) =>
        withBody(
          r,
          r.body.replace(/!`([^`]+)`/g, (_m, cmd: string) =>
            execSync(cmd, { cwd: r.dir, encoding: "utf8", timeout: 2000 }).trim(),
          ),
        ),
      ),
    },
  },
];

export default mutants;
