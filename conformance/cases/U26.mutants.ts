// U26's mutants: the wrong implementations under which U26.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { authoredTools, onOk } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U26",
    rule: "allowed-tools.normalised",
    id: "string-tools-unsplit",
    description: 'allowed-tools in string form is kept as one entry ("Read, Grep") instead of split.',
    mutation: {
      result: onOk((r, _p, config) => {
        const t = authoredTools(config, r.name);
        return typeof t === "string" ? { ...r, frontmatter: { ...r.frontmatter, "allowed-tools": [t] } } : r;
      }),
    },
  },
  {
    kills: "U26",
    rule: "hook.allowed-tools",
    id: "hook-tools-unsplit",
    description:
      "The hook's metadata.frontmatter.allowed_tools is the field as written (one string) instead of the normalised list.",
    mutation: {
      hook: (h) => (req) =>
        h({
          ...req,
          metadata: {
            ...req.metadata,
            frontmatter: {
              ...req.metadata.frontmatter,
              allowed_tools: [req.metadata.frontmatter.allowed_tools.join(", ")],
            },
          },
        }),
    },
  },
];

export default mutants;
