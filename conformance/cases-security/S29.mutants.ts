// S29's mutants: the wrong implementations under which S29.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import YAML from "yaml";
import { okFrom } from "../mutants/helpers.ts";
import { isObj, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "S29",
    rule: "frontmatter.document-end",
    id: "document-end-ignored",
    description:
      "A '...' line is dropped before the frontmatter is read, so what follows it joins the first document: dots-content activates with extra: x (the Rust port's finding 9 of issue 26).",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "INVALID_FRONTMATTER" && name)) return r;
        const a = readAuthored(ctx.config, name);
        if (!a || !/^\.\.\.[ \t]*(#.*)?$/m.test(a.yaml)) return r;
        const value: unknown = YAML.parse(a.yaml.replace(/^\.\.\.[ \t]*(#.*)?$/gm, ""));
        return isObj(value) ? okFrom({ ...a, frontmatter: { ok: true, value } }, name) : r;
      },
    },
  },
  {
    kills: "S29",
    rule: "frontmatter.document-end",
    id: "second-document-end-skipped",
    description:
      "A '...' line after the first, with only blanks and comments between, is skipped as if the stream had no more documents: dots-twice activates with its first document (what the Rust port did before issue 26, finding 9).",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "INVALID_FRONTMATTER" && name)) return r;
        const a = readAuthored(ctx.config, name);
        const end = a ? a.yaml.search(/^\.\.\.[ \t]*(#.*)?$/m) : -1;
        if (!a || end < 0) return r;
        const after = a.yaml.slice(end).split("\n");
        if (!after.every((l) => /^(\.\.\.[ \t]*(#.*)?|[ \t]*(#.*)?)$/.test(l))) return r;
        const value: unknown = YAML.parse(a.yaml.slice(0, end));
        return isObj(value) ? okFrom({ ...a, frontmatter: { ok: true, value } }, name) : r;
      },
    },
  },
];

export default mutants;
