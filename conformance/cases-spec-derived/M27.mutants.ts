// M27's mutants: deferred Claude Code fields acted on (§1 non-goals, §4.4): paths gating activation, context: fork
// sending the body to a subagent instead of the result.
import { errorResult, isObj, readAuthored, type MutantRow, type Mutation } from "../mutants/wrap.ts";
import { onOk } from "../mutants/helpers.ts";

/** The authored frontmatter field of the skill a result is about. */
function authored(config: Parameters<typeof readAuthored>[0], name: string, field: string): unknown {
  const a = readAuthored(config, name);
  return a?.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value[field] : undefined;
}

const pathsGate: Mutation = {
  result: onOk((r, _p, config) =>
    authored(config, r.name, "paths") !== undefined
      ? errorResult(
          "DISABLED",
          r.name,
          `skill "${r.name}" activates only for the files its paths match, and none is in context`,
        )
      : r,
  ),
};

const forked: Mutation = {
  result: onOk((r, _p, config) =>
    authored(config, r.name, "context") === "fork"
      ? { ...r, body: "", bytes: 0, output: `(Skill "${r.name}" forked to a subagent; its result will follow.)` }
      : r,
  ),
};

const mutants: MutantRow[] = [
  {
    kills: "M27",
    rule: "frontmatter.deferred-inert",
    id: "paths-gate-activation",
    description:
      "A skill declaring paths refuses activation while none of its globs matches a file in context (Claude Code's path gating).",
    mutation: pathsGate,
  },
  {
    kills: "M27",
    rule: "frontmatter.deferred-inert",
    id: "context-fork-forks",
    description: "A skill with context: fork returns no body: it is said to run in a subagent (Claude Code's fork).",
    mutation: forked,
  },
];

export default mutants;
