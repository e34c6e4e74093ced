// The fast path's one refusal (R16's value count, R21): it refuses a frontmatter past yaml_max_nodes only
// where the authority gives the same reason and line, and declines where an error could take precedence
// (R25: a syntax error on the bound's line or before it is the answer; one on a later line is not). Also the escapes the fast path decodes in
// double-quoted scalars. Each expectation is the authority's own answer, not a copy of the fast path's.
import { mulberry32 } from "../../conformance/fuzz/seeded-random.ts";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../schemas/index.ts";
import { parseYamlContract } from "../yaml-contract.ts";
import { parseSubset } from "../yaml-subset.ts";
import { bigDocument } from "./yaml-big.ts";
import { fastDiffers } from "./yaml-fuzz.ts";

const pairs = (n: number, prefix = "k"): string => Array.from({ length: n }, (_, i) => `${prefix}${i}: v\n`).join("");
const authority = (text: string) => parseYamlContract(text);
const sameAsAuthority = (text: string): void => {
  const fast = parseSubset(text);
  if (fast === null) throw new Error("the fast path declined");
  expect(fastDiffers(fast, authority(text))).toBeNull();
};

describe("the fast path refuses past yaml_max_nodes exactly as the authority does", () => {
  it("a flat mapping: the value of the 5,000th key is node 10,001", () => {
    const text = pairs(5002);
    expect(parseSubset(text)).toEqual({
      ok: false,
      reason: `frontmatter holds more than ${LIMITS.yaml_max_nodes} values (aliases expanded)`,
      line: 5000,
    });
    sameAsAuthority(text);
  });

  it("the node past the bound inside a nested mapping is on its own line, not the key's", () => {
    const nested = Array.from({ length: 20 }, (_, i) => `  a${i}: x\n`).join("");
    const text = `${pairs(4999)}big:\n${nested}${pairs(30, "z")}`;
    expect(parseSubset(text)).toMatchObject({ ok: false, line: 5001 }); // 9,999 + `big` = 10,000; its mapping, on the next line, is 10,001
    sameAsAuthority(text);
    const list = `${pairs(4998)}big:\n\n  - a\n  - b\n  - c\n  - d\n${pairs(30, "z")}`;
    sameAsAuthority(list);
    expect(parseSubset(list)).toMatchObject({ line: 5002 }); // 9,997; big, the list and a (line 5,001, after a blank) make 10,000; b is 10,001
  });

  it("refuses when a syntax error follows the bound's line, whether or not the authority's guard has counted past it (R25)", () => {
    // 10,000 scalars, then a line the lexer counts nothing on: the guard never trips, the bound's line (5,000) still comes first.
    const text = `${pairs(5000)}]\n`;
    expect(authority(text)).toMatchObject({
      ok: false,
      line: 5000,
      reason: expect.stringMatching(/more than 10000 values/),
    });
    expect(parseSubset(text)).toBeNull(); // the entry after the bound's is not in the subset: its extent is not certain
    // Nested mappings: past the bound in values (6 per entry) long before the guard's count (4 scalars per entry).
    const deep = Array.from({ length: 1700 }, (_, i) => `k${i}:\n  a:\n    b: x\n`).join("");
    const late = `${deep}y: 1\nz: 2\n]\n`;
    expect(authority(late)).toMatchObject({
      ok: false,
      line: 5001,
      reason: expect.stringMatching(/more than 10000 values/),
    });
    sameAsAuthority(late);
    sameAsAuthority(deep);
  });

  it("a syntax error on the bound's line or before it is the answer (R25), and the fast path declines", () => {
    // The 5,000th key's value is node 10,001; a compact mapping on that very line is a syntax error there.
    const same = `${pairs(4999)}k4999: v: w\n${pairs(10, "z")}`;
    expect(authority(same)).toMatchObject({ ok: false, line: 5000, reason: expect.stringMatching(/compact mappings/) });
    expect(parseSubset(same)).toBeNull();
    const before = `${pairs(10)}]\n${pairs(6000, "z")}`;
    // The authority's side only: the fast path declines this text at the stray "]", long before any bound.
    expect(authority(before)).toMatchObject({ ok: false, line: 11, reason: expect.stringMatching(/flow-seq-end/) });
  });

  it("refuses when the error comes after the entry after the bound's", () => {
    sameAsAuthority(`${pairs(5002)}]\n`);
    expect(parseSubset(`${pairs(5000)}]\n`)).toBeNull(); // the bound is in the last entry read: its extent is not certain
  });

  it("agrees on 12 documents near the bound, with noise anywhere (npm run fuzz runs more)", () => {
    // Fixed seeds: the same 12 documents every run, so "some were refused" cannot flake.
    let refused = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const text = bigDocument(mulberry32(seed));
      const fast = parseSubset(text);
      if (fast === null) continue;
      if (!fast.ok) refused++;
      expect(fastDiffers(fast, authority(text)), `seed ${seed}: ${JSON.stringify(text.slice(-400))}`).toBeNull();
    }
    expect(refused).toBeGreaterThan(0);
  });
});

describe("double-quoted escapes on the fast path", () => {
  it("decodes every one-character escape as the authority does", () => {
    for (const e of ["0", "a", "b", "e", "f", "n", "r", "t", "v", "N", "_", "L", "P", " ", '"', "/", "\\\\"]) {
      const text = `name: x\ndescription: "a\\${e}b \\\\ \\" c"\n`;
      const fast = parseSubset(text);
      expect(fast, e).toMatchObject({ ok: true });
      expect(fastDiffers(fast!, authority(text)), e).toBeNull();
    }
  });
  it("declines \\x, \\u, \\U, unknown escapes and an escaped closing quote", () => {
    for (const v of ['"\\x41"', '"\\u00e9"', '"\\U0001F600"', '"\\q"', '"a\\"', '"a\\\\\\"', '"a" b'])
      expect(parseSubset(`a: ${v}\n`), v).toBeNull();
  });
});
