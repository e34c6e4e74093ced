// M06's mutants: allowed-tools split on every comma and space, parentheses or not (§4.2, §4.6); array entries untrimmed.
import { authoredTools, onOk } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M06",
    rule: "allowed-tools.parentheses",
    id: "splits-inside-parentheses",
    description:
      "allowed-tools in string form is split on every comma and whitespace run: Bash(git log:*) becomes Bash(git and log:*).",
    mutation: {
      result: onOk((r, _p, config) => {
        const tools = authoredTools(config, r.name);
        return typeof tools === "string"
          ? { ...r, frontmatter: { ...r.frontmatter, "allowed-tools": tools.split(/[\s,]+/).filter(Boolean) } }
          : r;
      }),
    },
  },
  {
    kills: "M06",
    rule: "allowed-tools.normalised",
    id: "array-entries-untrimmed",
    description: 'allowed-tools in array form is kept byte for byte: "  Read " keeps its spaces.',
    mutation: {
      result: onOk((r, _p, config) => {
        const tools = authoredTools(config, r.name);
        return Array.isArray(tools) ? { ...r, frontmatter: { ...r.frontmatter, "allowed-tools": tools } } : r;
      }),
    },
  },
];

export default mutants;
