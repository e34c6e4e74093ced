// M11's mutant: dedupe keyed by name and arguments, so other arguments activate the skill again (§7 step 6).
import { perSession } from "../mutants/helpers.ts";
import { isObj, nameOf, okFromAuthored, readAuthored, type MutantRow } from "../mutants/wrap.ts";

/** Per session: the name+arguments keys activated so far. */
const seen = perSession(() => new Set<string>());

const mutants: MutantRow[] = [
  {
    kills: "M11",
    rule: "dedupe.by-name",
    id: "dedupe-by-arguments",
    description:
      "The dedupe key is the name with the arguments: a repeat call with other arguments (or none) loads the body again.",
    mutation: {
      before: (p, _o, ctx) => {
        const name = nameOf(p);
        if (name === undefined) return undefined;
        const keys = seen(ctx);
        const args = isObj(p) ? p.arguments : undefined;
        const key = JSON.stringify([name, args ?? null]);
        const again = [...keys].some((k) => (JSON.parse(k) as unknown[])[0] === name) && !keys.has(key);
        keys.add(key);
        const a = again ? readAuthored(ctx.config, name) : undefined;
        if (!a) return undefined;
        const body = a.body.split("$ARGUMENTS").join(typeof args === "string" ? args : "$ARGUMENTS");
        return okFromAuthored({ ...a, body }, name, a.frontmatter.ok ? a.frontmatter.value : {});
      },
    },
  },
];

export default mutants;
