// S24's mutants: the wrong implementations under which S24.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { join } from "node:path";
import { okFrom } from "../mutants/helpers.ts";
import { type AuthoredSkill, type MutantRow, nameOf } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S24",
    rule: "io.no-block",
    id: "fifo-read-as-empty",
    description:
      "A SKILL.md that is not a regular file is read anyway (a FIFO read without blocking gives no bytes): activating it returns an empty skill instead of IO_ERROR. (A mutant that really blocked would stop the kit with it; the case's time bounds catch that in a driven implementation.)",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        const root = ctx.config.skill_roots[0];
        if (!(r.kind === "error" && r.code === "IO_ERROR" && name && root !== undefined)) return r;
        // Built without reading the file: this mutant must not block the kit on the FIFO it pretends to have read.
        const dir = join(root, name);
        const none: AuthoredSkill = {
          dir,
          file: join(dir, "SKILL.md"),
          raw: "",
          yaml: "",
          frontmatter: { ok: true, value: { name, description: "" } },
          body: "",
        };
        return okFrom(none, name, "");
      },
    },
  },
];

export default mutants;
