// M25's mutant: the activated set outlives its session (kept per skill tree, as a process-wide cache would), §7 step 7.
import type { SkillResult } from "../../schemas/index.ts";
import { perSession } from "../mutants/helpers.ts";
import { nameOf, type MutantRow } from "../mutants/wrap.ts";

/** Names activated in any session, per first root (one case's tree); and per session, those activated in it. */
const everActivated = new Map<string, Set<string>>();
const inSession = perSession(() => new Set<string>());

const mutants: MutantRow[] = [
  {
    kills: "M25",
    rule: "session.no-persistence",
    id: "activations-outlive-session",
    description:
      "What was activated is remembered across sessions: in a new session, a skill activated in an earlier one is already_loaded.",
    mutation: {
      before: (p, _o, ctx): SkillResult | undefined => {
        const name = nameOf(p);
        const ever = everActivated.get(ctx.config.skill_roots[0] ?? "");
        if (name === undefined || !ever?.has(name) || inSession(ctx).has(name)) return undefined;
        return {
          kind: "already_loaded",
          name,
          at_turn: 1,
          output: `(Skill "${name}" is already active in this session. Body was loaded at turn 1. No new content was added.)`,
        } as SkillResult;
      },
      result: (r, _p, _o, ctx) => {
        if (r.kind !== "ok") return r;
        const root = ctx.config.skill_roots[0] ?? "";
        everActivated.set(root, (everActivated.get(root) ?? new Set()).add(r.name));
        inSession(ctx).add(r.name);
        return r;
      },
    },
  },
];

export default mutants;
