// Discovery decodes SKILL.md only up to the closing fence (R23): for any bytes, parsing that head gives the
// same frontmatter, warnings and failure as parsing the whole file (only the body, unused at discovery, differs).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSkillMd } from "../frontmatter.ts";
import { headEnd } from "../registry.ts";

const seed = Number(process.env["FC_SEED"] ?? Math.floor(Math.random() * 2 ** 31));
console.log(`head decode: fast-check seed ${seed} (rerun with FC_SEED=${seed})`);

const line = fc.constantFrom(
  "---",
  "--- ",
  "---  ",
  "---\r",
  "--- \r",
  "---\r\r",
  "----",
  " ---",
  "--",
  "name: demo",
  "description: d",
  "a: [1",
  "",
  "\r",
  "x: é😀",
  "---x",
);
const textArb = fc
  .tuple(fc.boolean(), fc.array(line, { maxLength: 8 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
  .map(([bom, ls, eol, trailing]) => `${bom ? "\uFEFF" : ""}${ls.join(eol)}${trailing ? eol : ""}`);

describe("decoding only the head of SKILL.md", () => {
  it("parses exactly as the whole file but for the body (3,000 texts)", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const bytes = Buffer.from(text, "utf8");
        const head = bytes.toString("utf8", 0, headEnd(bytes));
        const a = parseSkillMd(text, "demo");
        const b = parseSkillMd(head, "demo");
        const strip = (r: ReturnType<typeof parseSkillMd>) => (r.ok ? { ...r, body: undefined } : r);
        expect(strip(b), JSON.stringify(text)).toEqual(strip(a));
      }),
      { numRuns: 3000, seed },
    );
  });
});
