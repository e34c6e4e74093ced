// S28's mutants: the wrong implementations under which S28.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import type { SkillResult } from "../../schemas/index.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** R91's set as it was before R147: the format characters and lone surrogates written back raw (escaped pairs, \U escapes, single units). */
const FORMAT =
  /\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})|\\U(000e00[0-7][0-9a-f])|\\u(00ad|200[b-d]|206[0-4]|fff[9ab]|d[89a-f][0-9a-f]{2})/g;
const unescape = (text: string): string =>
  text.replace(FORMAT, (_m, hi?: string, lo?: string, astral?: string, one?: string) =>
    hi !== undefined
      ? String.fromCharCode(parseInt(hi, 16), parseInt(lo!, 16))
      : String.fromCodePoint(parseInt((astral ?? one)!, 16)),
  );

const mutants: MutantRow[] = [
  {
    kills: "S28",
    rule: "forge.invisible-characters",
    id: "format-characters-raw",
    description:
      "Only R91's controls and line breaks are escaped: tag characters (U+E0000–U+E007F), zero-width and other format characters and lone surrogates reach the tool description, the <skill> block and messages raw (finding 7 of issue 26).",
    mutation: {
      catalog: (c) => ({ ...c, tool_description: unescape(c.tool_description) }),
      result: (r): SkillResult => ({ ...r, output: unescape(r.output) }) as SkillResult,
    },
  },
];

export default mutants;
