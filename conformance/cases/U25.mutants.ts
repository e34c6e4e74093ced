// U25's mutants: the wrong implementations under which U25.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U25",
    rule: "hook.ask-is-deny",
    id: "ask-means-allow",
    description: "The hook's ask is treated as allow instead of deny.",
    mutation: { hookAnswer: (a) => (a === "ask" ? "allow" : a) },
  },
  {
    kills: "U25",
    rule: "hook.untrusted-reason",
    id: "untrusted-asked-as-normal",
    description:
      "The hook is asked about an untrusted project skill with reason normal, so it cannot tell it from a trusted one.",
    mutation: {
      hook: (h) => (req) =>
        h(
          req.metadata.reason === "untrusted_project_skill"
            ? { ...req, metadata: { ...req.metadata, reason: "normal" } }
            : req,
        ),
    },
  },
];

export default mutants;
