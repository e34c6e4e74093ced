// S16's mutants: the wrong implementations under which S16.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { SkillResult } from "../../schemas/index.ts";
import { perSession } from "../mutants/helpers.ts";
import { type MutantRow, nameOf } from "../mutants/wrap.ts";

const racy = perSession(() => ({
  loaded: new Map<string, number>(),
  bodies: new Map<string, SkillResult>(),
  activations: 0,
}));

const mutants: MutantRow[] = [
  {
    kills: "S16",
    rule: "concurrency.once-each",
    id: "check-then-load-race",
    description:
      "Dedupe is check-then-act across an await: a call checks the loaded set, loads (re-rendering the body if it was loaded meanwhile), and only then marks the skill, so concurrent calls for one skill all come back ok.",
    mutation: {
      before: async (p, o, ctx) => {
        const name = nameOf(p);
        if (!name) return undefined;
        const st = racy(ctx);
        const at = st.loaded.get(name);
        if (at !== undefined)
          return {
            kind: "already_loaded",
            name,
            at_turn: at,
            output: `(Skill "${name}" is already active in this session.)`,
          };
        const r = await ctx.forward(p, o);
        const earlier = st.bodies.get(name);
        if (r.kind === "already_loaded" && earlier) return earlier;
        if (r.kind === "ok") {
          st.bodies.set(name, r);
          st.loaded.set(name, ++st.activations);
        }
        return r;
      },
    },
  },
  {
    kills: "S16",
    rule: "concurrency.call-order",
    id: "unordered-settlement",
    description:
      "Results are right but settle out of call order: each ok is held back a few milliseconds, so later already_loaded answers overtake it.",
    mutation: {
      result: async (r) => {
        if (r.kind === "ok") await new Promise((done) => setTimeout(done, 3));
        return r;
      },
    },
  },
];

export default mutants;
