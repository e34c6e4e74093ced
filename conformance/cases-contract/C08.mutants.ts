// C08's mutants: the wrong implementations under which C08.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { onOk } from "../mutants/helpers.ts";
import { type MutantRow, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "C08",
    rule: "render.frontmatter-keys",
    id: "keys-always-bare",
    description: 'The <frontmatter> emitter writes every key bare, so "a b", with:colon and null come out unquoted.',
    mutation: {
      result: onOk((r) => {
        const m = /<frontmatter>\n([\s\S]*?)<\/frontmatter>/.exec(r.output);
        if (!m) return r;
        const bare = m[1]!.replace(/^(\s*)"((?:[^"\\]|\\.)*)":/gm, "$1$2:");
        return { ...r, output: r.output.replace(m[1]!, bare) };
      }),
    },
  },
  {
    kills: "C08",
    rule: "render.frontmatter-keys",
    id: "frontmatter-echoes-source",
    description:
      "The <frontmatter> section echoes the SKILL.md's own YAML text instead of re-serialising the parsed value (the check could once be met this way).",
    mutation: {
      result: (r, _p, _o, ctx) => {
        if (r.kind !== "ok") return r;
        const a = readAuthored(ctx.config, r.name);
        const m = /<frontmatter>\n([\s\S]*?)<\/frontmatter>/.exec(r.output);
        return a && m ? { ...r, output: r.output.replace(m[1]!, `${a.yaml}\n`) } : r;
      },
    },
  },
];

export default mutants;
