// F14's mutants: the wrong implementations under which F14.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import YAML from "yaml";
import { LIMITS } from "../../schemas/index.ts";
import { always, firstParseError, isTooDeep, onRefusal, refusedAt, syntaxFirst, TOO_DEEP } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** The first duplicate key or collection past yaml_max_depth on the tree the parser recovers, in document order. */
function firstContentFault(
  node: unknown,
  lc: YAML.LineCounter,
  depth = 0,
): { line: number; message: string } | undefined {
  if (!(YAML.isMap(node) || YAML.isSeq(node))) return undefined;
  const line = (n: unknown): number => lc.linePos((YAML.isNode(n) ? n.range?.[0] : undefined) ?? 0).line + 1;
  if (depth + 1 > LIMITS.yaml_max_depth) return { line: line(node), message: TOO_DEEP };
  const seen = new Set<string>();
  for (const item of node.items as unknown[]) {
    if (YAML.isPair(item)) {
      const key = YAML.isScalar(item.key) ? String(item.key.value) : undefined;
      if (key !== undefined && seen.has(key)) return { line: line(item.key), message: `duplicate key '${key}'` };
      if (key !== undefined) seen.add(key);
    }
    for (const part of YAML.isPair(item) ? [item.key, item.value] : [item]) {
      const found = firstContentFault(part, lc, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * A reader that applies the contract's rules to the tree the parser recovers before it looks at the tree's
 * syntax errors: a duplicate key or the depth bound wins over a syntax error on its own line or before it
 * (R26 gives those to the syntax error).
 */
const rulesBeforeSyntax = onRefusal(always, (r, yaml) => {
  if (!firstParseError(yaml)) return undefined;
  const lc = new YAML.LineCounter();
  const fault = firstContentFault(YAML.parseDocument(yaml, { lineCounter: lc, uniqueKeys: false }).contents, lc);
  return fault ? refusedAt(r, fault.message, fault.line) : undefined;
});

/**
 * A reader that, at the depth refusal, reads the text before the too-deep collection alone with a library and
 * takes its errors as the document's: the brackets still open there are reported unclosed at their last item,
 * on an earlier line, and that "syntax error" wins over depth (R26: the cut's own errors never count).
 */
const cutLeavesBracketsOpen = onRefusal(isTooDeep, (r, _yaml, lines) => {
  const before = [...lines.slice(0, r.line - 2), /^\s*/.exec(lines[r.line - 2] ?? "")?.[0] ?? ""].join("\n");
  const err = firstParseError(before);
  return err && err.line < r.line ? refusedAt(r, err.message, err.line) : undefined;
});

const mutants: MutantRow[] = [
  {
    kills: "F14",
    rule: "frontmatter.first-refusal",
    id: "syntax-before-every-rule",
    description:
      "The whole frontmatter is parsed for syntax before any other rule of the contract is applied: a syntax error on a later line wins over a duplicate key, a long or non-string key, a tag, an unsafe number, an unknown alias or the depth bound met before it (R26).",
    mutation: syntaxFirst(() => true),
  },
  {
    kills: "F14",
    rule: "frontmatter.first-refusal",
    id: "rules-before-syntax",
    description:
      "The contract's rules are applied to the tree the parser recovers before its syntax errors are looked at: a duplicate key or the depth bound wins over a syntax error on its own line or before it (R26).",
    mutation: rulesBeforeSyntax,
  },
  {
    kills: "F14",
    rule: "frontmatter.first-refusal",
    id: "cut-leaves-brackets-open",
    description:
      "At the depth refusal the text before the too-deep collection is read alone and its errors taken as the document's: brackets still open there are reported unclosed on an earlier line, and that wins over depth (R26).",
    mutation: cutLeavesBracketsOpen,
  },
];

export default mutants;
