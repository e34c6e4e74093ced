// C04's mutants: the wrong implementations under which C04.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "C04",
    rule: "catalog.user-only-mark",
    id: "user-only-as-suffix",
    description:
      'A user-only skill\'s catalog line marks it with a (user-only) suffix on the description instead of the user-only="true" attribute.',
    mutation: {
      catalog: (c) => ({
        ...c,
        tool_description: c.tool_description.replace(
          /<skill name="([^"]+)" user-only="true">([^\n]*)<\/skill>/g,
          '<skill name="$1">$2 (user-only)</skill>',
        ),
      }),
    },
  },
  {
    kills: "C04",
    rule: "tool-description.verbatim",
    id: "guidance-paraphrased",
    description:
      'The tool description paraphrases §2.2\'s guidance ("is shown to you") instead of carrying it verbatim.',
    mutation: {
      catalog: (c) => ({
        ...c,
        tool_description: c.tool_description.replace("is always visible in your tool-call context", "is shown to you"),
      }),
    },
  },
];

export default mutants;
