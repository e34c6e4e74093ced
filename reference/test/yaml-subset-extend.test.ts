// The fast path's reach past plain strings (issue 26 item 6: wide-flow, many-anchors and dense-flow-accepted cost
// 16–70× ordinary frontmatter per KiB through the engine): integers in a flow list, a flow list over lines with
// comments, an anchor on a value, and lines of spaces and tabs between entries. Whenever
// parseSubset answers here, the authority answers the same value and key lines, or refuses with the same reason and
// line (R18); the generated items and anchors lean on what is close to them and is not (signs, leading zeros, 16
// digits, exponents, an anchor name holding ':' or ',' or nothing, two anchors, an alias). A typed item inside a text
// field still reaches R160 through the contract reader.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSubset } from "../yaml-subset.ts";
import { parseYamlContract } from "../yaml-contract.ts";
import { parseSkillMd } from "../frontmatter.ts";
import { LIMITS } from "../../schemas/index.ts";

const seed = Number(process.env["FC_SEED"] ?? Math.floor(Math.random() * 2 ** 31));
console.log(`yaml-subset-extend: fast-check seed ${seed} (rerun with FC_SEED=${seed})`);

/** Whether the fast path answered; throws when its answer is not the authority's. */
function agrees(text: string): boolean {
  const fast = parseSubset(text);
  if (fast === null) return false;
  const auth = parseYamlContract(text);
  const show = (o: unknown): string => JSON.stringify(o);
  if (!fast.ok) {
    expect(auth.ok ? auth : { reason: auth.reason, line: auth.line }, show(text)).toEqual({
      reason: fast.reason,
      line: fast.line,
    });
    return true;
  }
  if (!auth.ok) throw new Error(`the authority refuses what the fast path accepted (${auth.reason}):\n${show(text)}`);
  expect(show(fast.data), `values differ for:\n${show(text)}`).toBe(show(auth.data));
  expect([...fast.keyLines], `key lines differ for:\n${show(text)}`).toEqual([...auth.keyLines]);
  return true;
}

const item = fc.oneof(
  fc.constantFrom(
    "0",
    "00",
    "01",
    "1",
    "7",
    "-1",
    "+1",
    "10",
    "999999999999999",
    "1234567890123456",
    "9007199254740993",
    "1e3",
    "1.0",
    "0x1f",
    "0o7",
    "1_000",
    "12a",
    "a1",
    "1:",
    "1 2",
    ".5",
    "true",
    "x",
    "*a",
    "&a 1",
    "",
  ),
  fc.integer({ min: 0, max: 10 ** 6 }).map(String),
);
const spaces = fc.constantFrom("", " ", "  ");
const flowList = fc
  .array(fc.tuple(spaces, item, spaces), { maxLength: 6 })
  .map((xs) => `[${xs.map(([a, x, b]) => `${a}${x}${b}`).join(",")}]`);
const anchorName = fc.oneof(
  fc.constantFrom("a", "x1", "A_b-c", "", "a:", "a,b", "a]", "é", "*", "&b", "a\tb"),
  fc.string({ unit: fc.constantFrom(..."az09_-:,[]{}*&!#é"), maxLength: 6 }),
);
const plainValue = fc.constantFrom("v", "text here", "1", "true", "null", "'q'", '"dq"', "|", "*a", "&b v", "# c", "");
const anchored = fc
  .tuple(anchorName, fc.constantFrom(" ", "  ", "", "\t"), fc.oneof(plainValue, flowList))
  .map(([n, s, v]) => `&${n}${s}${v}`);
/** A flow list over lines: pieces of items, commas, comments, indents (none, one, two spaces, a tab), blank lines, a close. */
const flowPiece = fc.oneof(
  { weight: 8, arbitrary: item },
  { weight: 8, arbitrary: fc.constantFrom(",", ", ", " ,") },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom("\n ", "\n  ", "\n ", "\n", "\n\t", "\n\n "), fc.boolean())
      .map(([n, c]) => (c ? ` #c${n}` : n)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("#c", " # c ] ", "[", "{}", ":", "a: b", "]", " ]x", "- x", "? k", "\n---", "\n..."),
  },
);
const flowLines = fc
  .tuple(
    fc.constantFrom("", " ", " #c"),
    fc.array(flowPiece, { maxLength: 14 }),
    fc.constantFrom("\n ]", "\n]", "]", "\n  ] ", " ]  "),
  )
  .map(([open, pieces, close]) => `[${open}\n ${pieces.join("")}${close}`);
/** Mostly well formed: lines of `item,` (a comma after every item: one left out ends the list there), comments, indents. */
const goodItem = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom("1", "x", "two words", "0", "42", "a-b", "é") },
  { weight: 1, arbitrary: item },
);
const flowLinesFormed = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.constantFrom(" ", " ", " ", " ", "  ", "   ", "", "\t"),
        fc.array(goodItem, { maxLength: 3 }),
        fc.constantFrom("", "", "", "", " #c", " #c", "#c", "  # c"),
      ),
      { maxLength: 4 },
    ),
    fc.constantFrom(" ]", " ]", " ]", " ]", " ]", "]", "  ] ", " ] #c", " ]x", " x]"),
  )
  .map(
    ([ls, close]) =>
      `[\n${ls.map(([ind, xs, c]) => `${ind}${xs.map((x) => `${x},`).join(" ")}${c}`).join("\n")}\n${close}`,
  );
const value = fc.oneof(flowList, anchored, plainValue, flowLines, flowLinesFormed);
const key = fc.constantFrom("a", "b", "list", "k-1", "metadata");
const entry = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`) },
  { weight: 1, arbitrary: fc.tuple(key, key, value).map(([k, k2, v]) => `${k}:\n  ${k2}: ${v}`) },
  { weight: 1, arbitrary: fc.tuple(key, value).map(([k, v]) => `${k}:\n  - ${v}`) },
  { weight: 1, arbitrary: fc.constantFrom("*a", "ref: *a", "x: &a v\ny: *a", "# c", "") },
  // Lines of spaces and tabs, maybe a comment (the search's slow shapes), and near misses with text after the white.
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      " ",
      "\t",
      "  \t ",
      " #c",
      "\t#c",
      " \t# c",
      "\t-",
      " x",
      "\t a: 1",
      "  - x",
      " #",
      "\t\t",
    ),
  },
);
const doc = fc.array(entry, { minLength: 1, maxLength: 5 }).map((es) => `${es.join("\n")}\n`);

describe("the fast path's integers and anchors are the authority's", () => {
  it("on 5,000 generated documents, answering for a fair share", () => {
    let answered = 0;
    let extended = 0; // of those, the ones holding an anchor or an integer item: the forms added
    let overLines = 0; // and the ones holding a flow list over lines
    fc.assert(
      fc.property(doc, (text) => {
        if (!agrees(text)) return;
        answered++;
        if (/&|[[,] *[0-9]/.test(text)) extended++;
        if (/\[ *(#c)?\n/.test(text)) overLines++;
      }),
      { numRuns: 5000, seed },
    );
    // A path that declined every new form would pass vacuously (typically ~380 answered, ~200 of them extended).
    expect(answered).toBeGreaterThan(200);
    expect(extended).toBeGreaterThan(80);
    expect(overLines).toBeGreaterThan(0);
  });

  it("on 6,000 documents holding a flow list over lines, answering for a fair share", () => {
    let answered = 0;
    const lines = fc
      .tuple(
        fc.array(entry, { maxLength: 2 }),
        key,
        fc.oneof(flowLines, flowLinesFormed, flowLinesFormed),
        fc.array(entry, { maxLength: 2 }),
      )
      .map(([a, k, v, b]) => `${[...a, `${k}: ${v}`, ...b].join("\n")}\n`);
    fc.assert(
      fc.property(lines, (text) => {
        if (agrees(text)) answered++;
      }),
      { numRuns: 6000, seed },
    );
    expect(answered).toBeGreaterThan(60); // typically ~140 (the entries around it often decline)
  });

  it("answers the forms it was extended for: a list of integers, an anchored value, the bound past them", () => {
    for (const text of [
      "a: [1, 22, 0, 999999999999999]\n",
      "a: &x1 v\nb: &y [1, b]\n",
      "m:\n  k: &a-b 'q'\n",
      "list: [ # c\n  1, x, #c\n  # only a comment\n two words,\n ]\nnext: v\n",
      "a: x\n \n\t\n  \t # c\nb: y\n\t\n",
    ])
      expect(agrees(text), text).toBe(true);
    // R16 past the bound on one line of integers, and on anchored values: the authority's reason and line.
    const wide = `name: n\nlist: [${"1,".repeat(LIMITS.yaml_max_nodes)}1]\nafter: x\n`;
    const lines = `name: n\nlist: [\n${" 1, #c\n".repeat(LIMITS.yaml_max_nodes)} ]\nafter: x\n`;
    const anchors = Array.from({ length: LIMITS.yaml_max_nodes / 2 + 2 }, (_, i) => `k${i}: &a${i} v${i}\n`).join("");
    for (const text of [wide, lines, anchors]) {
      const fast = parseSubset(text);
      expect(fast?.ok, text.slice(0, 60)).toBe(false);
      expect(agrees(text)).toBe(true);
    }
  });

  it("declines where the engine differs: a sign, a leading zero, 16 digits, an alias, a bad anchor name", () => {
    for (const text of [
      "a: [+1]\n",
      "a: [01]\n",
      "a: [1234567890123456]\n",
      "a: &x v\nb: *x\n",
      "a: &x: v\n",
      "a: & v\n",
      "a: &x &y v\n",
      "a: [\n1]\n",
      "a: [\n a\n ]\n",
      "a: [\n a,,\n ]\n",
      "a: [\n\n a]\n",
      "a: [ a, #c\n b] # c\n",
    ])
      expect(parseSubset(text), text).toBeNull();
  });

  it("R160: an integer in a text field's list still reads as its text (the contract reader reads it)", () => {
    const r = parseSkillMd("---\nname: typed\ndescription: d\nmetadata:\n  tags: [1, 22]\n---\nBody.\n", "typed");
    expect(r.ok && r.frontmatter.metadata).toEqual({ tags: ["1", "22"] });
  });
});
