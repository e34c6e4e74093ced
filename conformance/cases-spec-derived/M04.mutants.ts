// M04's mutant: an implementation that checks a frontmatter name only against its directory and a description
// only for presence (§4.1's bounds unchecked).
import { basename } from "node:path";
import { errorResult, isObj, nameOf, okFromAuthored, readAuthored, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M04",
    rule: "frontmatter.field-bounds",
    id: "bounds-unchecked",
    description:
      "No length or character check on the frontmatter name and description: a name unlike its directory is NAME_MISMATCH, anything else loads.",
    mutation: {
      result: (r, p, _o, ctx) => {
        if (r.kind !== "error" || r.code !== "INVALID_FRONTMATTER") return r;
        const name = nameOf(p) ?? "";
        const a = readAuthored(ctx.config, name);
        const fm = a?.frontmatter.ok ? a.frontmatter.value : undefined;
        if (!a || !isObj(fm) || typeof fm.name !== "string" || typeof fm.description !== "string") return r;
        if (fm.name !== basename(a.dir))
          return errorResult("NAME_MISMATCH", name, `skill "${name}" declares a different name in its frontmatter`);
        return okFromAuthored(a, name, fm);
      },
    },
  },
];

export default mutants;
