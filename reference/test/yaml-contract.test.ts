// The frontmatter YAML contract, rule by rule (R12–R18): what is read as what, what is refused and on
// which line, and that hostile shapes are refused by a bound instead of a stack overflow or a stall.
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../schemas/index.ts";
import { parseSkillMd } from "../frontmatter.ts";
import { parseYamlContract } from "../yaml-contract.ts";
import { parseSubset } from "../yaml-subset.ts";
import { runFuzz } from "./yaml-fuzz.ts";

const ok = (text: string): unknown => {
  const r = parseYamlContract(text);
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r.data;
};
const refused = (text: string): { reason: string; line?: number } => {
  const r = parseYamlContract(text);
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(r.data)}`);
  return r;
};

describe("R12: YAML 1.2, core schema", () => {
  it("reads the core schema's scalars and no YAML 1.1 forms", () => {
    expect(
      ok("a: yes\nb: on\nc: True\nd: ~\ne: 0x1F\nf: 0o17\ng: 1e3\nh: 010\ni: 1_000\nj: 2024-01-01\nk: <<\n"),
    ).toEqual({
      a: "yes",
      b: "on",
      c: true,
      d: null,
      e: 31,
      f: 15,
      g: 1000,
      h: 10,
      i: "1_000",
      j: "2024-01-01",
      k: "<<",
    });
  });
  it("refuses directives, even %YAML 1.2, and a second document", () => {
    expect(refused("%YAML 1.1\n---\na: yes\n").line).toBe(1);
    expect(refused("a: b\n--- c\n").line).toBe(2);
    expect(refused("a: b\n...\nc: d\n").reason).toMatch(/more than one YAML document/);
  });
});

describe("R13: characters", () => {
  it.each([
    ["a: b\u000bc\n", "U+000B"],
    ["a: b\rc: d\n", "carriage return"],
    ["a: x\n# \u0085\n", "U+0085"],
    ["a: \ufeffx\n", "U+FEFF"],
    ["a: \u007f\n", "U+007F"],
    ["a: \ufffe\n", "U+FFFE"],
  ])("refuses %j naming the line", (text, what) => {
    const r = refused(text);
    expect(r.reason).toContain(what);
    expect(r.line).toBe(text.startsWith("a: x\n") ? 2 : 1);
  });
  it("keeps Unicode spaces as content: only space and tab are YAML whitespace", () => {
    expect(ok("a: \u00a0x\u3000\nb: [\u2003c\u2003]\n")).toEqual({ a: "\u00a0x\u3000", b: ["\u2003c\u2003"] });
  });
  it("refuses \\u escapes of surrogates, paired or not, and accepts the character or \\U", () => {
    expect(refused('a: "\\uD83D\\uDE00"\n').reason).toMatch(/surrogate/);
    expect(refused('a: "x\\ud800"\n').line).toBe(1);
    expect(ok('a: "\\U0001F600 😀 \\\\uD800"\n')).toEqual({ a: "😀 😀 \\uD800" });
  });
});

describe("R14: JSON data only", () => {
  it.each([
    "a: !!set {x, y}\n",
    "a: !!omap [{x: 1}]\n",
    "a: !!binary aGk=\n",
    "a: !!timestamp 2024-01-01\n",
    "a: !!str 1\n",
    "a: ! x\n",
    "a: !custom x\n",
    "!!str k: v\n",
  ])("refuses the tag in %j on its line", (text) => {
    const r = refused(`n: 1\n${text}`);
    expect(r.reason).toMatch(/tag/);
    expect(r.line).toBe(2);
  });
  it("refuses non-string keys, naming the line", () => {
    for (const k of ["1", "1.0", "true", "null", "~", "[a]", "{a: b}"]) {
      const text = k.startsWith("[") || k.startsWith("{") ? `x: 1\n? ${k}\n: v\n` : `x: 1\n${k}: v\n`;
      expect(refused(text).line, k).toBe(2);
    }
    expect(refused("x: 1\n: v\n").reason).toMatch(/null/);
    expect(ok("\"1\": v\n'true': w\n")).toEqual({ 1: "v", true: "w" });
  });
  it("refuses integers a double cannot hold and non-finite numbers; -0 is 0", () => {
    expect(refused("a: 12345678901234567890\n").reason).toMatch(/integer/);
    expect(refused("a: 0x20000000000000\n").reason).toMatch(/integer/);
    expect(ok("a: 9007199254740991\nb: -9007199254740991\nc: 1e300\nd: -0\ne: 12345678901234567890.0\n")).toEqual({
      a: 9007199254740991,
      b: -9007199254740991,
      c: 1e300,
      d: 0,
      e: 12345678901234567000,
    });
    for (const v of [".inf", "-.Inf", ".NaN", "1e400"])
      expect(refused(`a: ${v}\n`).reason, v).toMatch(/not a JSON number/);
  });
  it("refuses duplicate keys (also spelled differently) on the second one's line; __proto__ is data", () => {
    expect(refused('a: 1\nb: 2\n"a": 3\n')).toMatchObject({ line: 3 });
    expect(refused("m:\n  x: 1\n  x: 2\n")).toMatchObject({ line: 3 });
    const d = ok("__proto__: {polluted: true}\n") as Record<string, unknown>;
    expect(Object.keys(d)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
  it(`refuses keys over ${LIMITS.yaml_max_key_length} code points`, () => {
    expect(Object.keys(ok(`"${"é".repeat(LIMITS.yaml_max_key_length)}": 1\n`) as object)[0]).toHaveLength(
      LIMITS.yaml_max_key_length,
    );
    expect(refused(`a: 1\n"${"k".repeat(LIMITS.yaml_max_key_length + 1)}": 1\n`)).toMatchObject({ line: 2 });
    expect(refused(`? ${"k".repeat(1100)}\n: 1\n`).reason).toMatch(/limit is 128/);
  });
});

describe("R15: depth", () => {
  const nest = (n: number) => `a: ${"[".repeat(n)}${"]".repeat(n)}\n`;
  it(`accepts ${LIMITS.yaml_max_depth} levels and refuses one more, before the engine recurses`, () => {
    expect(ok(nest(LIMITS.yaml_max_depth - 1))).toBeTruthy(); // the top-level mapping is level 1
    expect(refused(nest(LIMITS.yaml_max_depth)).reason).toMatch(/deeper than 64/);
    for (const text of [
      nest(200_000),
      `a: ${"{a: ".repeat(100_000)}1${"}".repeat(100_000)}\n`,
      `a:\n  ${"- ".repeat(100_000)}x\n`,
    ]) {
      expect(refused(text)).toMatchObject({ line: 1 + (text.startsWith("a:\n") ? 1 : 0) });
    }
  });
  it("counts depth with aliases expanded", () => {
    const deep = `a: &x ${"[".repeat(40)}${"]".repeat(40)}\nb: ${"[".repeat(26)}*x${"]".repeat(26)}\n`;
    expect(refused(deep)).toMatchObject({ line: 2 });
  });
});

describe("R16: aliases and size", () => {
  it(`expands up to ${LIMITS.yaml_max_aliases} aliases, each met counted, and refuses more`, () => {
    const uses = (n: number) => `a: &x v\nb: [${Array.from({ length: n }, () => "*x").join(", ")}]\n`;
    expect((ok(uses(LIMITS.yaml_max_aliases)) as { b: string[] }).b).toHaveLength(LIMITS.yaml_max_aliases);
    expect(refused(uses(LIMITS.yaml_max_aliases + 1))).toMatchObject({ line: 2 });
    // 10 aliases of a list holding 10 aliases: 10 + 10 * 10 = 110 expansions.
    expect(
      refused(`a: &x v\nb: &y [${Array(10).fill("*x").join(",")}]\nc: [${Array(10).fill("*y").join(",")}]\n`).reason,
    ).toMatch(/aliases/);
    const bomb = ["a: &a [x,x,x,x,x,x,x,x,x]"];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(",")}]`,
      );
    expect(refused(`${bomb.join("\n")}\n`).reason).toMatch(/aliases/);
  });
  it("refuses an alias to no earlier anchor, or to its own anchor", () => {
    expect(refused("a: *nope\n").reason).toMatch(/no earlier anchor/);
    expect(refused("a: &x [*x]\n").reason).toMatch(/no earlier anchor/);
  });
  it("refuses amplification: expanded strings past the SKILL.md size, values past the node bound", () => {
    const big = "x".repeat(20_000);
    expect(refused(`a: &x ${big}\nb: [${Array(60).fill("*x").join(",")}]\n`).reason).toMatch(
      /bytes once aliases are expanded/,
    );
    expect(
      refused(`a: &x [${Array(2000).fill("1").join(",")}]\nb: [${Array(10).fill("*x").join(",")}]\n`),
    ).toMatchObject({ line: 2, reason: expect.stringMatching(/more than 10000 values/) });
    // Without aliases too, and the fast path refuses it with the authority's reason and line (R21).
    const keys = Array.from({ length: 5001 }, (_, i) => `k${i}: v`).join("\n");
    expect(refused(`${keys}\n`)).toMatchObject({ line: 5000 }); // node 10,001 is the value of k4999
    expect(parseSubset(`${keys}\n`)).toEqual({ ok: false, ...refused(`${keys}\n`) });
    expect(parseSubset(`${keys.split("\n").slice(0, 4999).join("\n")}\n`)).toMatchObject({ ok: true });
  });
});

describe("the fast path agrees with the authority (R18)", () => {
  it("over 5,000 fuzzed inputs (npm run fuzz runs 100,000)", () => {
    const r = runFuzz(5000, 12);
    expect(r.examples).toEqual([]);
    expect(r.fastAnswered).toBeGreaterThan(500); // not vacuous
    expect(r.accepted).toBeGreaterThan(1000);
  });
});

describe("R19–R20: real skills written for Claude Code load, with warnings", () => {
  it("a list-valued argument-hint, a number version, a blank license", () => {
    const r = parseSkillMd(
      "---\nname: apk\ndescription: Audit APKs.\nargument-hint: [apk-file-or-directory]\nversion: 1.0\nlicense:\n---\nBody\n",
      "apk",
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.frontmatter).toEqual({
      name: "apk",
      description: "Audit APKs.",
      "argument-hint": ["apk-file-or-directory"],
      version: "1.0",
    });
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings.join("\n")).toMatch(/argument-hint.*line 4/);
  });
  it("an argument-hint that is not YAML is read as its text, only on its own line's error", () => {
    for (const v of ["[pr-number] [priority] [assignee]", "[--flag] <file>", "[file]: optional"]) {
      const r = parseSkillMd(`---\nname: a\ndescription: d\nargument-hint: ${v}  \n---\n`, "a");
      if (!r.ok) throw new Error(r.reason);
      expect(r.frontmatter["argument-hint"]).toBe(v);
      expect(r.warnings.join()).toMatch(/line 4/);
    }
    // An error elsewhere, a quoted value, a refused character: the first error stands.
    expect(parseSkillMd("---\nname: a\ndescription: d\nargument-hint: [x] [y]\nbad: [\n---\n", "a")).toMatchObject({
      ok: false,
    });
    expect(parseSkillMd("---\nname: a\ndescription: d\nother: [x] [y]\n---\n", "a")).toMatchObject({
      ok: false,
      line: 4,
    });
    expect(parseSkillMd('---\nname: a\ndescription: d\nargument-hint: "x" y\n---\n', "a")).toMatchObject({
      ok: false,
      line: 4,
    });
    expect(parseSkillMd("---\nname: a\ndescription: d\nargument-hint: [x] \u000b\n---\n", "a")).toMatchObject({
      ok: false,
      line: 4,
    });
  });
  it("a blank disable-model-invocation fails closed; blank name or description are missing", () => {
    expect(parseSkillMd("---\nname: a\ndescription: d\ndisable-model-invocation:\n---\n", "a")).toMatchObject({
      ok: false,
      code: "INVALID_FRONTMATTER",
      line: 4,
    });
    expect(parseSkillMd("---\nname: a\ndescription:\n---\n", "a")).toMatchObject({
      ok: false,
      code: "INVALID_FRONTMATTER",
    });
  });
  it("every blank optional field but disable-model-invocation is dropped", () => {
    const r = parseSkillMd(
      "---\nname: a\ndescription: d\ncompatibility:\nmetadata:\nallowed-tools:\nuser-invocable:\narguments:\nextra:\n---\n",
      "a",
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.frontmatter).toEqual({ name: "a", description: "d", extra: null });
    expect(r.warnings).toHaveLength(5);
  });
});

describe("R26: every refusal of the contract and a syntax error, the first by line", () => {
  const syntax = "Nested mappings are not allowed in compact mappings";
  const at = (text: string) => {
    const r = parseYamlContract(text);
    return r.ok ? "accepted" : { reason: r.reason, line: r.line };
  };
  it("a refusal on an earlier line wins over a later syntax error, whatever its kind", () => {
    expect(at("a: 1\na: 2\nlate: a: b\n")).toEqual({ reason: "duplicate key 'a'", line: 2 });
    expect(at(`${"k".repeat(129)}: 1\nlate: a: b\n`)).toMatchObject({ line: 1 });
    expect(at("1: one\nlate: a: b\n")).toMatchObject({
      line: 1,
      reason: expect.stringContaining("keys must be strings"),
    });
    expect(at("n: 99999999999999999999\nlate: a: b\n")).toMatchObject({
      line: 1,
      reason: expect.stringContaining("integer"),
    });
    expect(at("a: *nope\nlate: a: b\n")).toMatchObject({ line: 1, reason: expect.stringContaining("alias") });
  });
  it("a tag is located at its property, lines before the block collection it tags", () => {
    expect(at("a: !!omap\n  - x: 1\n")).toMatchObject({ line: 1, reason: expect.stringContaining("!!omap") });
    expect(at("a: !!omap\n  - x: a: b\n")).toMatchObject({ line: 1, reason: expect.stringContaining("!!omap") });
  });
  it("a syntax error on the refusal's line or before it wins; the depth refusal is final on its own line", () => {
    expect(at("a: 1\na: b: c\n")).toEqual({ reason: syntax, line: 2 });
    expect(at("early: a: b\na: 1\na: 2\n")).toEqual({ reason: syntax, line: 1 });
    const deep = `d: ${"[".repeat(65)}${"]".repeat(65)}`;
    expect(at(`early: a: b\n${deep}\n`)).toEqual({ reason: syntax, line: 1 });
    expect(at(`${deep} ]\n`)).toMatchObject({ line: 1, reason: expect.stringContaining("deeper than 64") });
  });
  it("a collection key is refused where it opens, before anything inside it; the first document's refusal before a second document", () => {
    expect(at("? [!!str a]\n: 1\n")).toMatchObject({ line: 1, reason: expect.stringContaining("list or mapping") });
    expect(at("a: 1\na: 2\n--- x\n")).toEqual({ reason: "duplicate key 'a'", line: 2 });
  });
  it("past the lexer's depth guards (1,000 open brackets, 65 dashes on a line) the answer is the whole document's, read only up to the trip", () => {
    // The guard path reads the text up to its trip (R21: a megabyte of nesting on one line costs its prefix);
    // these are the answers the full rules give, and the Rust crate's too (a probe of both drivers agreed).
    const flow = (k: number, tail = "1") => `${"[".repeat(k)}${tail}${"]".repeat(k)}`;
    const deep = expect.stringContaining("deeper than 64");
    expect(at(`a: ${flow(1500)}\n`)).toMatchObject({ line: 1, reason: deep });
    expect(at(`a: ${"[".repeat(1500)}1, x: y: z\n`)).toMatchObject({ line: 1, reason: deep }); // a later error on its line
    expect(at(`x: a: b\na: ${flow(1500)}\n`)).toEqual({ reason: syntax, line: 1 }); // an earlier line's syntax error
    expect(at(`a: 1\na: 2\nb: ${flow(1500)}\n`)).toEqual({ reason: "duplicate key 'a'", line: 2 }); // an earlier refusal
    expect(at(`q: "open\na: ${flow(1500)}\n`)).toMatchObject({ reason: expect.stringContaining("quote") }); // a quote the guard cannot see close
    expect(at(`t: !!set\n  ? x\na:\n  ${"- ".repeat(100)}x\n`)).toMatchObject({
      line: 1,
      reason: expect.stringContaining("!!set"),
    });
    expect(at(`a:\n  ${"- ".repeat(100)}x\n`)).toMatchObject({ line: 2, reason: deep });
    expect(at(`%YAML 1.2\n---\na: ${flow(1500)}\n`)).toMatchObject({
      line: 1,
      reason: expect.stringContaining("directive"),
    });
  });
  it("a refusal on the depth's own line before the too-deep collection is met first (R26: first in document order)", () => {
    const flow = (k: number) => `${"[".repeat(k)}1${"]".repeat(k)}`;
    for (const k of [70, 1500]) {
      expect(at(`a: [!!str x, ${flow(k)}]\n`)).toMatchObject({ line: 1, reason: expect.stringContaining("!!str") });
      expect(at(`a: 1\na: ${flow(k)}\n`)).toEqual({ reason: "duplicate key 'a'", line: 2 });
    }
    expect(at(`a: ${flow(70)} !!str x\n`)).toMatchObject({
      line: 1,
      reason: expect.stringContaining("deeper than 64"),
    }); // after it: depth
  });
  it("a syntax error on an earlier line that only the depth line's text before the collection reveals wins over depth", () => {
    // 'a' then ' ,:' makes a key spanning two lines: the parser locates the error at line 1 once it reads the ':' on
    // line 2, before the too-deep collection starts. The whole document's answer is that earlier syntax error.
    const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
    const implicitKey = "Implicit keys need to be on a single line";
    expect(at("a\n ,: [[1]]\n")).toEqual({ reason: implicitKey, line: 1 }); // no depth: the error is line 1's
    expect(at(`a\n ,: ${deep}\n`)).toEqual({ reason: implicitKey, line: 1 });
    expect(at(`a\n ,: !!str ${deep}\n`)).toEqual({ reason: implicitKey, line: 1 }); // and over a tag on line 2
  });
  it("brackets the cut before a too-deep collection leaves open are not syntax errors of the lines before it", () => {
    // The 65th level starts line 2; the flow mapping opened on line 1 is still open there. Read alone, the text up
    // to that point would report it unclosed at its last item, on line 1: the whole document has no such error.
    expect(at(`d: ${"{a: ".repeat(63)}\n  {b: 1}${"}".repeat(63)}\n`)).toMatchObject({
      line: 2,
      reason: expect.stringContaining("deeper than 64"),
    });
    expect(at(`d: ${"[".repeat(63)}\n  [1]${"]".repeat(63)}\n`)).toMatchObject({
      line: 2,
      reason: expect.stringContaining("deeper than 64"),
    });
  });
  it("a pair in a flow sequence is a mapping of its own: [a: [a: …]] nests two levels a bracket, refused as written depth", () => {
    const pairs = (k: number) => `d: ${"[a: ".repeat(k)}1${"]".repeat(k)}\n`;
    expect(at(pairs(31))).toBe("accepted"); // 1 + 31 × 2 = 63 levels
    expect(at(pairs(32))).toEqual({ reason: "frontmatter nests deeper than 64 levels of lists and mappings", line: 1 }); // not "(aliases expanded)"
    expect(at(`d: ${"[? a : ".repeat(32)}1${"]".repeat(32)}\n`)).toMatchObject({
      line: 1,
      reason: expect.stringContaining("deeper than 64 levels of lists and mappings"),
    });
  });
  it("an implicit key holding the 65th level is refused for depth wherever it stands; a ? key for its kind first", () => {
    const deep = `${"[".repeat(70)}${"]".repeat(70)}`;
    const depth = { line: 2, reason: "frontmatter nests deeper than 64 levels of lists and mappings" };
    expect(at(`a: 1\n${deep}: 1\n`)).toEqual(depth); // the text before the 65th level read alone makes it a key: not counted
    expect(at(`a:\n  ${deep}: 1\n`)).toEqual(depth);
    expect(at(`a: 1\n[!!str x, ${deep}]: 1\n`)).toMatchObject({ line: 2, reason: expect.stringContaining("!!str") }); // met before depth
    expect(at(`a: 1\n? ${deep}\n: 1\n`)).toMatchObject({
      line: 2,
      reason: expect.stringContaining("got a list or mapping"),
    });
  });
  it("a collection key that is itself the 65th level is refused for depth, one level shallower as a key", () => {
    expect(at(`d: ${"[".repeat(62)}{[x]: 1}${"]".repeat(62)}\n`)).toMatchObject({
      line: 1,
      reason: expect.stringContaining("deeper than 64"),
    });
    expect(at(`d: ${"[".repeat(61)}{[x]: 1}${"]".repeat(61)}\n`)).toMatchObject({
      line: 1,
      reason: expect.stringContaining("got a list or mapping"),
    });
  });
  it("a directive is met where it stands: after a first document's refusals, before the content of the document it opens", () => {
    const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
    expect(at("a: 1\na: 2\n...\n%YAML 1.2\n--- x\n")).toEqual({ reason: "duplicate key 'a'", line: 2 });
    expect(at(`d: ${deep}\n...\n%YAML 1.2\n--- x\n`)).toMatchObject({
      line: 1,
      reason: expect.stringContaining("deeper than 64"),
    });
    expect(at("a: 1\n--- x\n...\n%YAML 1.2\n--- y\n")).toMatchObject({
      line: 2,
      reason: expect.stringContaining("more than one YAML document"),
    });
    expect(at("a: 1\n...\n%YAML 1.2\n--- x\n")).toMatchObject({
      line: 3,
      reason: expect.stringContaining("directive"),
    });
    expect(at("%YAML 1.2\n--- {a: 1, a: 2}\n")).toMatchObject({
      line: 1,
      reason: expect.stringContaining("directive"),
    });
  });
});

describe("R97: an open quote is a syntax error, whatever the engine makes of the text after it", () => {
  it("an unterminated quoted flow key is the unclosed quote at the text's end, long or short, single or double", () => {
    const long = "x".repeat(140);
    for (const text of [`a: {'${long}: 1}\n`, `a: {'abc: 1}\n`, `a: {"${long}: 1}\n`, `a: {'${long}\nb: 2\n`]) {
      const r = parseYamlContract(text);
      expect(r.ok, text).toBe(false);
      expect(!r.ok && r.reason, text).toMatch(/^Missing closing ["']quote$/);
      expect(!r.ok && r.line, text).toBe(text.split("\n").length);
    }
  });
  it("a closed quote with escapes is read as before", () => {
    expect(parseYamlContract(`a: {'it''s': "q\\"x"}\n`)).toMatchObject({ ok: true, data: { a: { "it's": 'q"x' } } });
  });
});
