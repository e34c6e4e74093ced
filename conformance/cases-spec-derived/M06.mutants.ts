// M06's mutants: allowed-tools split on every comma and space, parentheses or not (§4.2, §4.6); array entries untrimmed.
import { isObj, readAuthored, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M06", rule: "allowed-tools.parentheses", id: "splits-inside-parentheses",
    description: "allowed-tools in string form is split on every comma and whitespace run: Bash(git log:*) becomes Bash(git and log:*).",
    mutation: {
      result: (r, _p, _o, ctx) => {
        if (r.kind !== "ok") return r;
        const a = readAuthored(ctx.config, r.name);
        const tools = a?.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value["allowed-tools"] : undefined;
        if (typeof tools !== "string") return r;
        return { ...r, frontmatter: { ...r.frontmatter, "allowed-tools": tools.split(/[\s,]+/).filter(Boolean) } };
      },
    },
  },
  {
    kills: "M06", rule: "allowed-tools.normalised", id: "array-entries-untrimmed",
    description: "allowed-tools in array form is kept byte for byte: \"  Read \" keeps its spaces.",
    mutation: {
      result: (r, _p, _o, ctx) => {
        if (r.kind !== "ok") return r;
        const a = readAuthored(ctx.config, r.name);
        const tools = a?.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value["allowed-tools"] : undefined;
        return Array.isArray(tools) ? { ...r, frontmatter: { ...r.frontmatter, "allowed-tools": tools } } : r;
      },
    },
  },
];

export default mutants;
