// R1's emitter: whatever frontmatter the parser can produce, the emitted YAML reads back as the same value.
import fc from "fast-check";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { emitYaml } from "../emit-yaml.ts";

const seed = Number(process.env["FC_SEED"] ?? Math.floor(Math.random() * 2 ** 31));
console.log(`emit-yaml round trip: fast-check seed ${seed} (rerun with FC_SEED=${seed})`);

describe("emitYaml", () => {
  it("writes the common shapes readably", () => {
    expect(emitYaml({ name: "demo", description: "Use it: now", "allowed-tools": ["Read", "Bash(git log:*)"], metadata: { tags: ["a"], n: 1 }, empty: {}, none: [], flag: true, v: "1.0" })).toBe(
      'name: demo\ndescription: "Use it: now"\nallowed-tools:\n  - Read\n  - Bash(git log:*)\nmetadata:\n  tags:\n    - a\n  n: 1\nempty: {}\nnone: []\nflag: true\nv: "1.0"\n',
    );
  });

  it("round-trips through the yaml package (3,000 generated frontmatters)", () => {
    const value = fc.oneof(fc.string(), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, value, fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), tie("node"), { maxKeys: 3 })),
    }));
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 10 }).filter((k) => k !== "__proto__"), tree.node, { maxKeys: 6 }), (fm) => {
        const text = emitYaml(fm);
        const back = YAML.parse(text, { uniqueKeys: true }) ?? {};
        expect(back, text).toEqual(JSON.parse(JSON.stringify(fm, (_k, v) => (Object.is(v, -0) ? 0 : v))));
      }),
      { numRuns: 3000, seed },
    );
  });
});
