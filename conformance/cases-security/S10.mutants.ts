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

const PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
/** The mapping without keys Object.prototype has, at every level (what a "safe" copy that strips them does). */
function withoutProtoNames(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutProtoNames);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !PROTO_NAMES.has(k))
      .map(([k, x]) => [k, withoutProtoNames(x)]),
  );
}

const mutants: MutantRow[] = [
  {
    kills: "S10",
    rule: "prototype.unchanged",
    id: "naive-deep-merge",
    description:
      "The frontmatter is deep-merged into a fresh object by a naive recursive merge: __proto__ keys pollute Object.prototype and vanish from the result.",
    mutation: {
      result: (r) =>
        r.kind === "ok" ? { ...r, frontmatter: naiveMerge({}, r.frontmatter as Obj) as OkResult["frontmatter"] } : r,
    },
  },
  {
    kills: "S10",
    rule: "frontmatter.proto-keys-data",
    id: "proto-keys-stripped",
    description:
      "A sanitiser drops frontmatter keys named like Object.prototype members (__proto__, constructor, toString, …) instead of keeping them as data.",
    mutation: {
      result: (r) =>
        r.kind === "ok" ? { ...r, frontmatter: withoutProtoNames(r.frontmatter) as OkResult["frontmatter"] } : r,
      catalog: (c) => ({
        ...c,
        entries: c.entries.map((e) => ({
          ...e,
          frontmatter: withoutProtoNames(e.frontmatter) as typeof e.frontmatter,
        })),
      }),
    },
  },
];

export default mutants;
