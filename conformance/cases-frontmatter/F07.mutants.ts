// F07's mutants: the wrong implementations under which F07.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { always, firstParseError, onRefusal, refusedAt, refusedWhen } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";
import type { SkillResult } from "../../schemas/index.ts";

const INFORMATIONAL = ["license", "version", "argument-hint"];

/**
 * A reader that, when reading the argument-hint line as text does not save the frontmatter, reports what the second
 * reading met instead of the first error (R19: the first error stands).
 */
const secondReadingStands = onRefusal(always, (r, _yaml, lines) => {
  const hint = lines[r.line - 2];
  if (!hint?.startsWith("argument-hint: ")) return undefined;
  const again = [...lines];
  again[r.line - 2] = `argument-hint: ${JSON.stringify(hint.slice("argument-hint: ".length).trim())}`;
  const err = firstParseError(again.join("\n"), true);
  return err ? refusedAt(r, err.message, err.line) : undefined;
});

const mutants: MutantRow[] = [
  {
    kills: "F07",
    rule: "frontmatter.lenient-informational",
    id: "strict-informational-fields",
    description:
      "license, version and argument-hint must be strings: argument-hint: [apk-file-or-directory], as Claude Code's docs write it, drops the skill.",
    mutation: refusedWhen((fm) =>
      INFORMATIONAL.some((k) => fm[k] !== undefined && fm[k] !== null && typeof fm[k] !== "string"),
    ),
  },
  {
    kills: "F07",
    rule: "frontmatter.lenient-informational",
    id: "second-reading-stands",
    description:
      "When the argument-hint line read as text does not save the frontmatter, the second reading's error is reported instead of the first (R19: the first error stands).",
    mutation: secondReadingStands,
  },
  {
    kills: "F07",
    rule: "discovery.warning",
    id: "listed-without-warning",
    description: "A skill kept despite an odd field is listed silently: no catalog warning names it.",
    mutation: { catalog: (c) => ({ ...c, warnings: [] }) },
  },
  {
    kills: "F07",
    rule: "frontmatter.string-fields-text",
    id: "version-as-number",
    description: "version: 1.0 comes back as the number YAML reads (1), not the text written.",
    mutation: {
      result: (r) =>
        r.kind === "ok" && typeof r.frontmatter.version === "string" && /^\d+(\.\d+)?$/.test(r.frontmatter.version)
          ? ({ ...r, frontmatter: { ...r.frontmatter, version: Number(r.frontmatter.version) } } as SkillResult)
          : r,
    },
  },
];

export default mutants;
