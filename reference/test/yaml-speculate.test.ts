// X5: reading a long frontmatter's prefix first (yaml-contract.ts speculate) changes no answer. Every input here is
// over the size where speculation starts (32 KiB) and is read both ways, with and without it: the same value and key
// lines, or the same refusal at the same line. The inputs are the adversary's: fuzz documents (mutated seeds and the
// small grammar) placed before, inside and after long runs of ordinary or hostile lines, the hostile shapes of
// bench/hostile.ts each followed by a real key at the very end (what a prefix cannot see), and constructs that span
// the prefix's cut (a multi-line flow key, a quoted scalar, a block scalar, an anchor chain ending in a key).
import { describe, expect, it } from "vitest";
import { parseYamlContract, type YamlOutcome } from "../yaml-contract.ts";
import { SHAPES, ordinary } from "../../bench/hostile.ts";
import { int, mulberry32, pick } from "../../conformance/fuzz/seeded-random.ts";
import { SEEDS, generated, mutate } from "../../conformance/fuzz/yaml-inputs.ts";

const KIB = 1024;
const same = (a: YamlOutcome): unknown =>
  a.ok ? { ok: true, data: a.data, keyLines: [...a.keyLines] } : { ok: false, reason: a.reason, line: a.line };
/** The YAML between the fences of a bench shape (they are whole SKILL.md files). */
const yamlOf = (skillMd: string): string => skillMd.slice(4, skillMd.lastIndexOf("---\n"));

function expectSame(text: string, label: string): void {
  const fast = parseYamlContract(text);
  const whole = parseYamlContract(text, undefined, { speculate: false });
  expect(same(fast), `${label} (${text.length} chars)`).toEqual(same(whole));
}

describe("X5: speculation on a prefix answers what the whole text answers", () => {
  it("every bench shape at 40 KiB, as built and with a key or a second document at its end", () => {
    for (const [name, make] of Object.entries(SHAPES)) {
      for (const size of [40 * KIB]) {
        const text = yamlOf(make(size));
        expectSame(text, name);
        expectSame(`${text}late: key\n`, `${name} + late key`);
        expectSame(`${text}x\n`, `${name} + plain line`);
        expectSame(`${text}---\nz: 1\n`, `${name} + second document`);
      }
    }
  }, 300_000);

  it(
    "constructs that span the cut: a flow key, quoted scalars, a block scalar, an anchor or tag chain ending in a key",
    { timeout: 120_000 },
    () => {
      const pad = (n: number) => "x: 1\n".repeat(n);
      const cases: Record<string, string> = {
        "multi-line flow key": `a: 1\n[${"b,\n".repeat(20000)}c]: v\n`,
        "multi-line flow key, a duplicate inside": `a: 1\n{${"b: 1,\n".repeat(3)}${"c,\n".repeat(20000)}d}: v\n`,
        "double-quoted across the cut": `a: 1\nb: "${"word\n".repeat(20000)}"\nb: 2\n`,
        "single-quoted across the cut, a key-like line inside": `a: 1\nb: '${"k: v\n".repeat(20000)}'\n`,
        "block scalar across the cut": `a: |\n${"  text\n".repeat(20000)}a: 2\n`,
        "anchor chain ending in a key": `a: 1\n${"&x\n".repeat(20000)}k: v\n`,
        "tag chain ending in a key": `a: 1\n${"!t\n".repeat(20000)}k: v\n`,
        "list items as the last entry's key, then a key": `a: 1\n${"\t\n-\n".repeat(20000)}k: v\n`,
        "a plain key over lines, then a key": `a: 1\n${"@x\n".repeat(20000)}k: v\n`,
        "a plain key over lines, then a document": `a: 1\n${"@x\n".repeat(20000)}---\nk: v\n`,
        "quoted keys over lines, then a key": `a: 1\n${'"a\n'.repeat(20001)}k: v\n`,
        "a quoted key over lines closed late, then a value": `a: 1\n"${"w\n".repeat(20000)}": v\nb: 1\nb: 2\n`,
        "multi-line plain root scalar": `${"word\n".repeat(20000)}k: v\n`,
        "an early refusal then a long open flow": `a: 1\na: 2\nb: [${"1,\n".repeat(20000)}`,
        "duplicate key far apart": `dup: 1\n${pad(8000)}dup: 2\n`,
        "nested block maps, a duplicate deep": `top:\n  inner:\n${"    k: 1\n".repeat(2)}${"    m: 1\n".repeat(9000)}`,
        "too many values late": `a: 1\n${"- 1\n".repeat(12000)}`,
      };
      for (const [label, text] of Object.entries(cases)) expectSame(text, label);
    },
  );

  it("fuzz documents placed before, inside and after long runs of ordinary and hostile lines (200 inputs)", () => {
    const rng = mulberry32(0x5eed26);
    const runs = [yamlOf(ordinary(48 * KIB)), ...Object.values(SHAPES).map((make) => yamlOf(make(48 * KIB)))];
    for (let i = 0; i < 200; i++) {
      let doc = rng() < 0.5 ? pick(rng, SEEDS) : generated(rng);
      for (let m = int(rng, 3); m > 0; m--) doc = mutate(rng, doc);
      if (!doc.endsWith("\n")) doc += "\n";
      const run = pick(rng, runs);
      const at = int(rng, 3);
      const cut = run.indexOf("\n", int(rng, run.length)) + 1;
      const text = at === 0 ? doc + run : at === 1 ? run.slice(0, cut) + doc + run.slice(cut) : run + doc;
      expectSame(text, `input ${i} (${["before", "inside", "after"][at]})`);
    }
  }, 600_000);

  it("X12: a run of node properties or list items after the last key, then anything, answers as the whole reading (300 inputs)", () => {
    // The run opens the last top-level entry of a prefix; what follows is what could restructure it: a key, a ':',
    // a list item, a flow opener, an indented line, a document marker, a directive, fuzz documents, more properties.
    const rng = mulberry32(0x12a1);
    const props = [
      "&a",
      "!t",
      "&b",
      "!!str",
      "!",
      "&a:",
      "&a #c",
      "!t x",
      "&a\t",
      "  &a",
      "&",
      "!<x>",
      "-",
      "- x",
      "\t",
      " ",
      "-\t",
      "- &a",
      "@x",
      "`x",
      "@x y",
      "@x: v",
      '"a',
      "'a",
      '"a: v',
    ];
    const tails = [
      "k: v",
      ": v",
      "- x",
      "? k",
      "[a, b]",
      "{a: 1}",
      "  k: v",
      "  - x",
      "x",
      "---",
      "...",
      "%YAML 1.2",
      "*a",
      "|",
      "# c",
    ];
    for (let i = 0; i < 300; i++) {
      const head = pick(rng, [yamlOf(ordinary(4 * KIB)), "a: 1\n", "", "top:\n  k: v\n"]);
      const run = Array.from({ length: 1 + int(rng, 4) }, () => pick(rng, props)).join("\n");
      const repeat = 400 + int(rng, 1200);
      let tail = rng() < 0.5 ? pick(rng, tails) : generated(rng);
      for (let m = int(rng, 2); m > 0; m--) tail = mutate(rng, tail);
      const text = `${head}${`${run}\n`.repeat(repeat)}${tail}\n${rng() < 0.3 ? "late: key\n" : ""}`;
      expectSame(text, `input ${i}`);
    }
  }, 600_000);

  it("the lexer's flow guard, tripping at the first bracket past yaml_max_depth, answers as the engine's own depth check (300 inputs)", () => {
    // Nesting from 60 to 70 levels, brackets and braces mixed, with a refusal or a syntax error before, on or after
    // the trip's line and inside the nesting, read with the guards and without them (the syntax tree's check alone).
    const rng = mulberry32(0xf10);
    const inside = ["1", "a: 1", "a: 1, a: 2", "!t x", "*x", "&x 1", "? k", "'q'", '"q', "]", "}", "", "a: [b]"];
    const around = ["a: 1\n", "a: 1\na: 2\n", "x: !t 1\n", "- x\n", "  bad indent\n", "k: 'open\n", "%\n", ""];
    for (let i = 0; i < 300; i++) {
      const depth = 60 + int(rng, 11);
      const opens = Array.from({ length: depth }, () => (rng() < 0.5 ? "[" : "{a: "));
      const closes = opens.map((o) => (o === "[" ? "]" : "}")).reverse();
      const mid = pick(rng, inside);
      const at = int(rng, depth);
      const line = `${opens.slice(0, at).join("")}${rng() < 0.3 ? `${mid}, ` : ""}${opens.slice(at).join("")}${mid}${closes.join("")}`;
      let tail = pick(rng, around);
      if (rng() < 0.3) tail = mutate(rng, generated(rng));
      const text = `${pick(rng, around)}key: ${line}\n${tail}${rng() < 0.5 ? "late: key\n" : ""}`;
      const guarded = parseYamlContract(text, undefined, { speculate: false });
      const engine = parseYamlContract(text, undefined, { speculate: false, guards: false });
      expect(same(guarded), `input ${i}: ${JSON.stringify(text).slice(0, 300)}`).toEqual(same(engine));
    }
  }, 300_000);

  it("X12: a collection nested past the bound in a prefix answers as the whole reading (300 inputs)", () => {
    // Block mappings and lists indented one level a line, to 58–72 levels, a line of trouble placed before, inside or
    // after the chain (a syntax error, a duplicate key, a tag, a directive, a document marker, a flow opener), then
    // filler of any length, so the prefixes cut before, at and after the too-deep level.
    const rng = mulberry32(0xdee9);
    let overflows = 0;
    const trouble = ["\tk: v", "a: 1", "!t", "%YAML 1.2", "---", "[", "{a: 1", "'open", "k: [1, 2", "? x", "- x"];
    for (let i = 0; i < 300; i++) {
      const depth = 58 + int(rng, 15);
      const lines = Array.from({ length: depth }, (_, d) => `${" ".repeat(d)}${rng() < 0.7 ? `k${d}:` : "-"}`);
      const at = int(rng, depth + 2);
      const bad = pick(rng, trouble);
      lines.splice(at, 0, `${at > 0 && at <= depth && rng() < 0.5 ? " ".repeat(at) : ""}${bad}`);
      const filler = pick(rng, ["x: 1\n", "- y\n", "# c\n", `${" ".repeat(depth + 1)}end: 1\n`]);
      const text = `a: 1\nroot:\n${lines.map((l) => ` ${l}`).join("\n")}\n${filler.repeat(int(rng, 3000))}${rng() < 0.5 ? "a: 2\n" : ""}`;
      // The engine's own parser overflows the stack on some of these read whole (an unclosed flow collection over
      // thousands of indented lines: its blockMap recursion), a refusal with no line: there the prefix must do better.
      const whole = parseYamlContract(text, undefined, { speculate: false });
      if (!whole.ok && whole.line === undefined && /call stack/.test(whole.reason)) {
        overflows++;
        const fast = parseYamlContract(text);
        expect(fast.ok === false && fast.line !== undefined, `input ${i}: ${JSON.stringify(fast)}`).toBe(true);
      } else expectSame(text, `input ${i}`);
    }
    expect(overflows).toBeLessThan(30); // typically 2–5: the comparison stays the rule
  }, 600_000);
});
