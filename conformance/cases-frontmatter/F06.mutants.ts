// F06's mutants: the wrong implementations under which F06.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { OkResult } from "../../schemas/index.ts";
import { isObj, type MutantRow } from "../mutants/wrap.ts";

/** JavaScript's trim() on every string value: strips U+00A0, U+3000, U+2000–U+200A, U+205F, VT… which YAML keeps. */
function jsTrimmed(v: unknown): unknown {
  if (typeof v === "string") return v.trim();
  if (Array.isArray(v)) return v.map(jsTrimmed);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.trim(), jsTrimmed(x)]));
  return v;
}

const mutants: MutantRow[] = [
  {
    kills: "F06",
    rule: "yaml.characters",
    id: "js-trim",
    description:
      "Values are trimmed with JavaScript's trim(), which also strips U+00A0, U+3000, U+2003, U+205F: a value changes silently.",
    mutation: {
      result: (r) => (r.kind === "ok" ? { ...r, frontmatter: jsTrimmed(r.frontmatter) as OkResult["frontmatter"] } : r),
    },
  },
];

export default mutants;
