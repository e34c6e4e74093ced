// M40's mutants: the wrong implementations under which M40.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts; conformance/test/mutants.test.ts runs them.
import levenshtein from "fast-levenshtein";
import type { SkillResult } from "../../schemas/index.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const similarity = (a: string, b: string): number => 1 - levenshtein.get(a, b) / Math.max(a.length, b.length);

const mutants: MutantRow[] = [
  {
    kills: "M40",
    rule: "not-found.siblings",
    id: "siblings-uncapped",
    description:
      "not_found offers every installed name above the similarity threshold, closest first, with no cut at 3.",
    mutation: {
      result: async (r, _p, _o, ctx) => {
        if (r.kind !== "not_found") return r;
        const names = (await ctx.inner.catalog()).entries.map((e) => e.name);
        const siblings = names
          .filter((n) => similarity(n, r.name) >= 0.6)
          .sort((a, b) => similarity(b, r.name) - similarity(a, r.name) || (a < b ? -1 : 1));
        return { ...r, siblings } as SkillResult;
      },
    },
  },
  {
    kills: "M40",
    rule: "not-found.siblings",
    id: "siblings-by-prefix",
    description:
      "not_found offers the first 3 installed names, by name, that share the asked name's first word (a prefix match, not Levenshtein-ranked): hello comes before hello-a.",
    mutation: {
      result: async (r, _p, _o, ctx) => {
        if (r.kind !== "not_found") return r;
        const head = r.name.split("-")[0]!;
        const siblings = (await ctx.inner.catalog()).entries
          .map((e) => e.name)
          .filter((n) => n.startsWith(head))
          .sort()
          .slice(0, 3);
        return { ...r, siblings } as SkillResult;
      },
    },
  },
];

export default mutants;
