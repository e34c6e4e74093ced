// The fast path must never disagree with the authority (yaml-contract.ts, R18): whenever parseSubset answers,
// the contract parser accepts with the same value and the same key lines. Generated documents lean on the
// characters and forms that make YAML subtle: every indicator, Unicode and ASCII whitespace (U+00A0, U+3000,
// U+2000–U+200A, U+205F, VT, FF, lone CR), control characters. The wide fuzz is `npm run fuzz`.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSubset } from "../yaml-subset.ts";
import { parseYamlContract } from "../yaml-contract.ts";
import { generateSkills } from "../../bench/generate.ts";
import { dataPath } from "../../package-root.ts";

const seed = Number(process.env["FC_SEED"] ?? Math.floor(Math.random() * 2 ** 31));
console.log(`yaml-subset agreement: fast-check seed ${seed} (rerun with FC_SEED=${seed})`);

function agrees(text: string): boolean {
  const fast = parseSubset(text);
  if (fast === null) return false;
  if (!fast.ok) throw new Error(`the fast path refused a small document (${fast.reason}):\n${JSON.stringify(text)}`);
  const auth = parseYamlContract(text);
  if (!auth.ok)
    throw new Error(`the authority refuses what the fast path accepted (${auth.reason}):\n${JSON.stringify(text)}`);
  expect(JSON.stringify(fast.data), `values differ for:\n${JSON.stringify(text)}`).toBe(JSON.stringify(auth.data));
  expect([...fast.keyLines], `key lines differ for:\n${JSON.stringify(text)}`).toEqual([...auth.keyLines]);
  return true;
}

const UNICODE_SPACES =
  "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u0085\u200b";
const CONTROLS = "\x00\x01\x07\x08\x0b\x0c\r\x1b\x1f\x7f\x80\x9f\ufffe\uffff";
// Rare enough that most documents stay in the fast path's subset, common enough to hit every path.
const chars = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(..."abcz09 :#-,[]{}\"'.>|()*~@%!&\\/é?`+=;\t") },
  { weight: 1, arbitrary: fc.constantFrom(...UNICODE_SPACES, ...CONTROLS) },
);
const word = fc.string({ unit: chars, maxLength: 14 });
const keyArb = fc.constantFrom(
  "name",
  "description",
  "allowed-tools",
  "metadata",
  "version",
  "x_y",
  "True",
  "a-b",
  "__proto__",
  "name",
);
const inlineValue = fc.oneof(
  word,
  word.map((w) => `"${w}"`),
  word.map((w) => `'${w}'`),
  fc.array(word, { maxLength: 4 }).map((ws) => `[${ws.join(", ")}]`),
  fc.constantFrom(
    "true",
    "False",
    "null",
    "~",
    "1",
    "1.2",
    "1.2.0",
    "0x1f",
    ".inf",
    "-x",
    "yes",
    "Bash(git log:*)",
    "a: b",
    "a #c",
    "x  ",
    "x\u00a0",
    "\u3000x",
    "[\u2003a\u2003]",
    "a\u000bb",
    "x\r",
    "!!set {a}",
    "&a x",
    "*a",
  ),
);
const lineArb = fc.array(fc.string({ unit: chars, maxLength: 12 }), { maxLength: 4 });
const entry = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(keyArb, inlineValue).map(([k, v]) => `${k}: ${v}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(keyArb, fc.constantFrom("|", "|-", ">", ">-", "|+"), fc.integer({ min: 1, max: 3 }), lineArb, fc.boolean())
      .map(
        ([k, h, n, ls, trailingBlank]) =>
          `${k}: ${h}\n${ls.map((l) => (l === "" ? "" : " ".repeat(n) + l)).join("\n")}${trailingBlank ? "\n" : ""}`,
      ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        keyArb,
        fc.boolean(),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.tuple(keyArb, inlineValue), { maxLength: 3 }),
      )
      .map(
        ([k, list, n, kvs]) =>
          `${k}:\n${kvs.map(([kk, v]) => " ".repeat(n) + (list ? `- ${v}` : `${kk}: ${v}`)).join("\n")}`,
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom("# comment", "", "  stray", "---", "key:value", "k:  v") },
);
const docArb = fc.array(entry, { minLength: 1, maxLength: 6 }).map((es) => `${es.join("\n")}\n`);

describe("yaml-subset agrees with the yaml package", () => {
  it("on 5,000 generated documents (and answers for a fair share of them)", () => {
    let answered = 0;
    fc.assert(
      fc.property(docArb, (text) => {
        if (agrees(text)) answered++;
      }),
      { numRuns: 5000, seed },
    );
    expect(answered).toBeGreaterThan(200); // a fast path that always declines would pass vacuously (typically ~350 of 5,000 here)
  });

  it("answers, and agrees, for the frontmatter of every fixture and of the bench generator", async () => {
    const texts: string[] = [];
    const walk = (dir: string): void => {
      for (const n of readdirSync(dir)) {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (n === "SKILL.md") texts.push(readFileSync(p, "utf8"));
      }
    };
    walk(dataPath("fixtures"));
    const gen = await generateSkills(200);
    try {
      for (const name of readdirSync(gen.root)) texts.push(readFileSync(join(gen.root, name, "SKILL.md"), "utf8"));
    } finally {
      gen.dispose();
    }
    let answered = 0;
    let generated = 0;
    for (const [i, t] of texts.entries()) {
      const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(t);
      if (!m) continue;
      const ok = agrees(`${(m[1] as string).replace(/\r\n/g, "\n")}\n`);
      if (ok) answered++;
      if (ok && i >= texts.length - 200) generated++;
    }
    expect(generated).toBe(200); // the benchmark measures the fast path, not the fallback
    expect(answered).toBeGreaterThan(texts.length / 2);
  });
});
