// S07's mutants: the wrong implementations under which S07.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import YAML from "yaml";
import { okFrom } from "../mutants/helpers.ts";
import { isObj, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S07",
    rule: "yaml.aliases",
    id: "alias-limit-raised",
    description:
      "The YAML alias bound is raised from 100 to 200 expansions: 150 aliases of a scalar are accepted (the 9^9 bomb still trips it).",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "INVALID_FRONTMATTER" && name)) return r;
        const a = readAuthored(ctx.config, name);
        if (!a || a.frontmatter.ok) return r;
        const lines = a.raw.split(/\r?\n/);
        const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === "---");
        try {
          const fm: unknown = YAML.parse(lines.slice(1, close).join("\n"), { maxAliasCount: 200, logLevel: "error" });
          if (!isObj(fm) || fm.name !== name) return r;
          return okFrom({ ...a, frontmatter: { ok: true, value: fm } }, name, lines.slice(close + 1).join("\n"));
        } catch {
          return r;
        }
      },
    },
  },
];

export default mutants;
