// S04's mutants: the wrong implementations under which S04.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { basename } from "node:path";
import { okFrom } from "../mutants/helpers.ts";
import { type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S04",
    rule: "name.kebab-case",
    id: "path-names-not-found",
    description:
      "A name that is not kebab-case is looked up (and not found) instead of refused: not_found, never INVALID_PARAM. The security property of S04 holds (nothing is read through the name); only the classification rule fails, and S04 passes.",
    mutation: {
      before: (p) => {
        const name = nameOf(p);
        return name !== undefined && name !== "" && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) && !(name.length > 64)
          ? { kind: "not_found", name, siblings: [], output: `(No skill matches ${JSON.stringify(name)}.)` }
          : undefined;
      },
    },
  },
  {
    kills: "S04",
    rule: "name.no-path",
    id: "name-joined-as-path",
    description:
      "A name holding / \\ or .. is joined onto each root and read if a SKILL.md is there: path traversal through the name.",
    mutation: {
      before: (p, _o, ctx) => {
        const name = nameOf(p);
        if (!name || !/[\\/]|\.\./.test(name)) return undefined;
        for (const root of ctx.config.skill_roots) {
          const a = readAuthored({ skill_roots: [root] }, name.replace(/\\/g, "/"));
          if (a) return okFrom(a, basename(a.dir));
        }
        return undefined;
      },
    },
  },
];

export default mutants;
