// F12's mutants: the wrong implementations under which F12.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import YAML from "yaml";
import { LIMITS } from "../../schemas/index.ts";
import { message } from "../../schemas/messages.ts";
import { onRefusal, refusedAt, syntaxFirst } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const VALUE_BOUND = message("yaml.too_many_values", { max: LIMITS.yaml_max_nodes });

/** The offset of value number `max` + 1 in document order (R16's count: collections, keys, scalars; aliases not expanded), if any. */
function offsetPastBound(node: unknown, max: number, seen = { n: 0 }): number | undefined {
  const at = (n: unknown): number | undefined => (YAML.isNode(n) ? n.range?.[0] : undefined);
  if (++seen.n > max) return at(node) ?? -1;
  if (YAML.isMap(node) || YAML.isSeq(node)) {
    for (const item of node.items as unknown[]) {
      const parts = YAML.isPair(item) ? [item.key, item.value] : [item];
      for (const part of parts) {
        const found = offsetPastBound(part, max, seen);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

/**
 * A reader that counts the values of the parsed tree before it looks at the tree's syntax errors: the value
 * bound wins over a syntax error on its own line or before it (R25 gives those to the syntax error).
 */
const boundCountedFirst = onRefusal(
  (reason) => !reason.startsWith(VALUE_BOUND),
  (r, yaml) => {
    const lc = new YAML.LineCounter();
    const offset = offsetPastBound(YAML.parseDocument(yaml, { lineCounter: lc }).contents, LIMITS.yaml_max_nodes);
    return offset === undefined || offset < 0 ? undefined : refusedAt(r, VALUE_BOUND, lc.linePos(offset).line + 1); // + the opening --- line
  },
);

const mutants: MutantRow[] = [
  {
    kills: "F12",
    rule: "frontmatter.first-refusal",
    id: "syntax-checked-first",
    description:
      "The whole frontmatter is parsed for syntax before values are counted: a syntax error on a later line wins over the value bound passed before it (R25).",
    mutation: syntaxFirst((reason) => reason.startsWith(VALUE_BOUND)),
  },
  {
    kills: "F12",
    rule: "frontmatter.first-refusal",
    id: "bound-counted-first",
    description:
      "Values are counted on the parsed tree before its syntax errors are looked at: the value bound wins over a syntax error on its own line or before it (R25).",
    mutation: boundCountedFirst,
  },
];

export default mutants;
