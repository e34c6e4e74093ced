// M03's mutant: an implementation that coerces fields of the wrong type instead of refusing them (§4.2, §4.3).
import { errorResult, isObj, nameOf, okFromAuthored, readAuthored, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M03",
    rule: "frontmatter.field-types",
    id: "coerces-wrong-types",
    description:
      "A field of the wrong type is coerced: a truthy disable-model-invocation disables the skill (DISABLED), anything else loads as authored.",
    mutation: {
      result: (r, p, _o, ctx) => {
        if (r.kind !== "error" || r.code !== "INVALID_FRONTMATTER") return r;
        const name = nameOf(p) ?? "";
        const a = readAuthored(ctx.config, name);
        const fm = a?.frontmatter.ok ? a.frontmatter.value : undefined;
        if (!a || !isObj(fm) || typeof fm.name !== "string" || typeof fm.description !== "string") return r;
        if (fm["disable-model-invocation"])
          return errorResult("DISABLED", name, `skill "${name}" cannot be activated by the model`);
        return okFromAuthored(a, name, fm);
      },
    },
  },
];

export default mutants;
