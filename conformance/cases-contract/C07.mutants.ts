// C07's mutants: the wrong implementations under which C07.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import type { SkillResult } from "../../schemas/index.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** R37 the other way: a SKILL.md that is not text is an IO_ERROR. */
function notTextAsIoError(r: SkillResult): SkillResult {
  if (r.kind !== "error" || r.code !== "INVALID_FRONTMATTER" || r.path === undefined) return r;
  let bytes: Buffer;
  try {
    bytes = readFileSync(r.path);
  } catch {
    return r;
  }
  if (isUtf8(bytes) && !bytes.includes(0)) return r;
  return { ...r, code: "IO_ERROR", output: r.output.replace("INVALID_FRONTMATTER", "IO_ERROR") };
}

const mutants: MutantRow[] = [
  {
    kills: "C07",
    rule: "skill-md.not-text",
    id: "binary-skill-md-as-io-error",
    description: "A SKILL.md with NUL bytes or invalid UTF-8 is reported as IO_ERROR.",
    mutation: { result: notTextAsIoError },
  },
];

export default mutants;
