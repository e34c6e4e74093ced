// F11's mutants: the wrong implementations under which F11.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import YAML from "yaml";
import { type MutantRow, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "F11",
    rule: "render.key-order",
    id: "plain-authored-key-order",
    description:
      "Mappings keep plain authored order, integer-like keys included (what an ordered map in another language does by default): the <frontmatter> block differs from every TypeScript implementation's (R24).",
    mutation: {
      // The <frontmatter> block written from the authored document with maps that keep insertion order.
      result: (r, _p, _o, ctx) => {
        const a = r.kind === "ok" ? readAuthored(ctx.config, r.name) : undefined;
        if (r.kind !== "ok" || !a) return r;
        const block = YAML.stringify(YAML.parseDocument(a.yaml).toJS({ mapAsMap: true }), { indent: 2 });
        return {
          ...r,
          output: r.output.replace(
            /(<frontmatter>\n)[\s\S]*?(<\/frontmatter>)/,
            (_m, open: string, close: string) => open + block + close,
          ),
        };
      },
    },
  },
];

export default mutants;
