// S10's mutants: the wrong implementations under which S10.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { OkResult } from "../../schemas/index.ts";
import { isObj, type MutantRow, type Obj } from "../mutants/wrap.ts";

/** The naive recursive merge of a thousand tutorials: follows __proto__ / constructor into the prototypes. */
function naiveMerge(target: Obj, source: Obj): Obj {
  for (const key in source) {
    const value = source[key];
    if (isObj(value)) {
      if (target[key] === null || typeof target[key] !== "object") target[key] = {};
      naiveMerge(target[key] as Obj, value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

const mutants: MutantRow[] = [
  {
    kills: "S10", rule: "prototype.unchanged", id: "naive-deep-merge",
    description: "The frontmatter is deep-merged into a fresh object by a naive recursive merge: __proto__ keys pollute Object.prototype and vanish from the result.",
    mutation: {
      result: (r) => (r.kind === "ok" ? { ...r, frontmatter: naiveMerge({}, r.frontmatter as Obj) as OkResult["frontmatter"] } : r),
    },
  },
];

export default mutants;
