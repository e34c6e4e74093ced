// S30's mutants: the wrong implementations under which S30.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts; conformance/test/mutants.test.ts runs them.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { OkResult } from "../../schemas/index.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** The body of a SKILL.md's text: what follows the line closing its frontmatter. */
function bodyOf(text: string): string {
  const lines = text.split("\n");
  const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === "---");
  return close < 0 ? text : lines.slice(close + 1).join("\n");
}

const mutants: MutantRow[] = [
  {
    kills: "S30",
    rule: "fence.opened-file",
    id: "check-then-open",
    description:
      "The skill dir is fenced (the reference's whole activation: its real path is inside a root), then <dir>/SKILL.md is opened again by path and its body returned: a swap of the dir for an outside symlink between the two returns the outside text (issue 26 finding 5, what both implementations did before R142).",
    mutation: {
      result: async (r) => {
        if (r.kind !== "ok") return r;
        let text: string;
        try {
          text = await readFile(join(r.dir, "SKILL.md"), "utf8");
        } catch {
          return r;
        }
        const body = bodyOf(text);
        const ok: OkResult = {
          ...r,
          body,
          bytes: Buffer.byteLength(body, "utf8"),
          output: r.output.split(r.body).join(body),
        };
        return ok;
      },
    },
  },
];

export default mutants;
