// M17's mutant: frontmatter that is not a mapping reaches field access and fails as an internal error (§4.5 rule 2).
import { errorResult, isObj, nameOf, readAuthored, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M17",
    rule: "frontmatter.mapping",
    id: "non-mapping-crashes",
    description:
      "A frontmatter list, scalar or empty block is read as if it were a mapping; the TypeError comes back as an internal IO_ERROR.",
    mutation: {
      result: (r, p, _o, ctx) => {
        if (r.kind !== "error" || r.code !== "INVALID_FRONTMATTER") return r;
        const name = nameOf(p) ?? "";
        const a = readAuthored(ctx.config, name);
        if (!a?.frontmatter.ok || isObj(a.frontmatter.value)) return r;
        return errorResult("IO_ERROR", name, "internal error: Cannot read properties of null (reading 'name')");
      },
    },
  },
];

export default mutants;
