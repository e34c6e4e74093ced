// U24's mutants: the wrong implementations under which U24.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { MutantRow } from "../mutants/wrap.ts";
import type { PermissionRequest } from "../../schemas/index.ts";

const mutants: MutantRow[] = [
  {
    kills: "U24",
    rule: "hook.deny",
    id: "deny-means-allow",
    description: "The hook's deny is ignored (treated as allow).",
    mutation: { hookAnswer: (a) => (a === "deny" ? "allow" : a) },
  },
  {
    kills: "U24",
    rule: "hook.payload",
    id: "request-without-always-patterns",
    description: 'The hook is asked without always_patterns, so it cannot offer "always allow" for the skill (§5.6).',
    mutation: {
      hook: (h) => (req) => {
        const { always_patterns: _a, ...rest } = req;
        return h(rest as PermissionRequest);
      },
    },
  },
  {
    kills: "U24",
    rule: "hook.request-schema",
    id: "request-without-action",
    description:
      "The permission request leaves out action (there is only one), a field permission-request.schema.json requires.",
    mutation: {
      hook: (h) => (req) => {
        const { action: _a, ...rest } = req;
        return h(rest as PermissionRequest);
      },
    },
  },
  {
    kills: "U24",
    rule: "hook.asked-per-activation",
    id: "trusted-skills-not-asked",
    description:
      "The hook is asked only about untrusted skills: a skill of a trusted root activates without asking the configured hook.",
    mutation: { hook: (h) => (req) => (req.metadata.reason === "normal" ? "allow" : h(req)) },
  },
  {
    kills: "U24",
    rule: "hook.request-schema-contract",
    id: "request-with-extra-field",
    description:
      "The permission request carries a field of the implementation's own (a request id) beside §5.6's: the spec's fields hold, the kit's closed request object does not.",
    mutation: { hook: (h) => (req) => h({ ...req, request_id: 1 } as PermissionRequest) },
  },
];

export default mutants;
