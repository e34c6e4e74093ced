// F15's mutants: the wrong implementations under which F15.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { LIMITS } from "../../schemas/index.ts";
import { message } from "../../schemas/messages.ts";
import { always, firstParseError, isTooDeep, onRefusal, refusedAt, TOO_DEEP } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** The SKILL.md line (1-based) of the first of `lines` that `test` accepts, if any (the YAML starts on line 2). */
function firstLineWhere(lines: readonly string[], test: (line: string) => boolean): number | undefined {
  const i = lines.findIndex(test);
  return i < 0 ? undefined : i + 2;
}

/**
 * A reader that pre-scans the text for directives and refuses one before reading anything (yaml.rs did so until
 * R26 was read closely): a directive behind '...' wins over the first document's duplicate key, tag, depth and a
 * second document's earlier marker.
 */
const directivesFirst = onRefusal(always, (r, _yaml, lines) => {
  const line = firstLineWhere(lines, (l) => /^%(YAML|TAG)\b/.test(l));
  return line === undefined ? undefined : refusedAt(r, message("yaml.directive"), line);
});

/**
 * A reader that checks the document's directives only after its content (a check on the parsed document's
 * directive list): the duplicate key inside a document a leading %YAML opens wins over the directive (R26).
 */
const directivesLast = onRefusal(
  (reason) => reason.startsWith(message("yaml.directive")),
  (r, yaml) => {
    const err = firstParseError(yaml, true);
    return err ? refusedAt(r, err.message, err.line) : undefined;
  },
);

/**
 * A reader whose parser bounds nesting on the whole text before it builds values (a parser's own nesting limit,
 * as yaml-rust's 255 flow levels): a line nesting brackets past the bound answers depth, even where a tag before
 * the deep part is met first (R26).
 */
const depthBeforeTag = onRefusal(
  (reason) => reason.startsWith("a YAML tag"),
  (r, _yaml, lines) => {
    // Brackets open inside the top-level mapping (level 1): more than max − 1 of them is past the bound.
    let open = 0;
    const line = firstLineWhere(lines, (l) =>
      [...l].some(
        (c) => (open += c === "[" || c === "{" ? 1 : c === "]" || c === "}" ? -1 : 0) > LIMITS.yaml_max_depth - 1,
      ),
    );
    return line === undefined ? undefined : refusedAt(r, TOO_DEEP, line);
  },
);

const KEY_COLLECTION = message("yaml.key_not_string", { got: "a list or mapping" });

/**
 * A reader that checks what a collection is for before its depth (a list or mapping in key position is refused as
 * a key first, as an event reader that looks at each event's role before the stack might): a list key that is
 * itself the 65th level is refused as a non-string key, not for depth (R26).
 */
const keyKindBeforeDepth = onRefusal(isTooDeep, (r, _yaml, lines) =>
  // A flow collection right after a flow mapping's opening brace, or after an explicit key's '?': a collection key.
  /\{\s*[[{]|\?\s+[-[{]/.test(lines[r.line - 2] ?? "") ? refusedAt(r, KEY_COLLECTION, r.line) : undefined,
);

/**
 * A reader that knows an implicit key when it opens (reading ahead to its ':') and refuses a list or mapping there
 * before the depth inside it: 70 nested lists written as a key are refused as a non-string key (R26 gives depth).
 */
const implicitKeyKnownFirst = onRefusal(isTooDeep, (r, _yaml, lines) =>
  /^\s*[[{].*[\]}]:\s/.test(lines[r.line - 2] ?? "") ? refusedAt(r, KEY_COLLECTION, r.line) : undefined,
);

/**
 * A reader that locates an empty key where its empty scalar is read, the next token (yaml-rust's own place for it):
 * `? ` alone on a line, then `: x`, is reported on the ':' line instead of the '?' one (R26).
 */
const emptyKeyAtItsValue = onRefusal(
  (reason) => reason.includes("an empty (null) key"),
  (r, _yaml, lines) => {
    const at = lines.slice(r.line - 1).findIndex((l) => l.trim() !== "");
    return /^\s*\?\s*$/.test(lines[r.line - 2] ?? "") && at >= 0
      ? refusedAt(r, message("yaml.key_not_string", { got: "an empty (null) key" }), r.line + 1 + at)
      : undefined;
  },
);

const mutants: MutantRow[] = [
  {
    kills: "F15",
    rule: "frontmatter.first-refusal",
    id: "directives-first",
    description:
      "Directives are refused by a pre-scan before the document is read: a directive behind '...' wins over the first document's duplicate key, tag and depth and over a second document's earlier marker (R26).",
    mutation: directivesFirst,
  },
  {
    kills: "F15",
    rule: "frontmatter.first-refusal",
    id: "directives-last",
    description:
      "A document's directives are checked only after its content is read: a duplicate key inside the document a leading %YAML opens wins over the directive (R26).",
    mutation: directivesLast,
  },
  {
    kills: "F15",
    rule: "frontmatter.first-refusal",
    id: "depth-before-tag",
    description:
      "Nesting is bounded on the whole text before values are built (a parser's own nesting limit): 1,100 brackets after a tag answer depth, not the tag met first (R26).",
    mutation: depthBeforeTag,
  },
  {
    kills: "F15",
    rule: "frontmatter.first-refusal",
    id: "empty-key-at-its-value",
    description:
      "An empty key is located where its empty scalar is read (the next token): '? ' alone on a line is reported on the ':' line after it, not at the '?' (R26).",
    mutation: emptyKeyAtItsValue,
  },
  {
    kills: "F15",
    rule: "frontmatter.first-refusal",
    id: "implicit-key-known-first",
    description:
      "An implicit key is known when it opens (read ahead to its ':'): 70 nested lists written as a key are refused as a non-string key before the depth inside them (R26 gives depth).",
    mutation: implicitKeyKnownFirst,
  },
  {
    kills: "F15",
    rule: "frontmatter.first-refusal",
    id: "key-kind-before-depth",
    description:
      "What a collection is for is checked before its depth: a list key that is itself the 65th level is refused as a non-string key, not for depth (R26).",
    mutation: keyKindBeforeDepth,
  },
];

export default mutants;
