// R1's emitter, R17: whatever frontmatter the parser can produce, the emitted YAML reads back as the same
// value, through the yaml package and through the contract parser itself (lossless or refused).
import fc from "fast-check";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { emitYaml } from "../emit-yaml.ts";
import { parseYamlContract } from "../yaml-contract.ts";

const seed = Number(process.env["FC_SEED"] ?? Math.floor(Math.random() * 2 ** 31));
console.log(`emit-yaml round trip: fast-check seed ${seed} (rerun with FC_SEED=${seed})`);

describe("emitYaml", () => {
  it("writes the common shapes readably", () => {
    expect(
      emitYaml({
        name: "demo",
        description: "Use it: now",
        "allowed-tools": ["Read", "Bash(git log:*)"],
        metadata: { tags: ["a"], n: 1 },
        empty: {},
        none: [],
        flag: true,
        v: "1.0",
      }),
    ).toBe(
      'name: demo\ndescription: "Use it: now"\nallowed-tools:\n  - Read\n  - Bash(git log:*)\nmetadata:\n  tags:\n    - a\n  n: 1\nempty: {}\nnone: []\nflag: true\nv: "1.0"\n',
    );
  });

  it("round-trips through the yaml package (3,000 generated frontmatters)", () => {
    const value = fc.oneof(
      fc.string(),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constant(null),
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        value,
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 8 }), tie("node"), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ maxLength: 10 }).filter((k) => k !== "__proto__"),
          tree.node,
          { maxKeys: 6 },
        ),
        (fm) => {
          const text = emitYaml(fm);
          const back = YAML.parse(text, { uniqueKeys: true }) ?? {};
          expect(back, text).toEqual(JSON.parse(JSON.stringify(fm, (_k, v) => (Object.is(v, -0) ? 0 : v))));
        },
      ),
      { numRuns: 3000, seed },
    );
  });

  it("round-trips through the contract parser: any Unicode text, controls, long keys, safe integers, finite doubles (3,000 frontmatters)", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.string({
        unit: fc.constantFrom(..."a :#-[]{}'\"\u00a0\u3000\u2028\u0085\x7f\x9f\ufeff\ufffe\x0b\r\t\n\\!&*|>%@`"),
        maxLength: 12,
      }),
    );
    const value = fc.oneof(
      text,
      fc.boolean(),
      fc.maxSafeInteger(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constant(null),
    );
    const key = fc
      .oneof(text, fc.string({ unit: "binary", minLength: 100, maxLength: 128 }))
      .filter(
        (k) =>
          [...k].length <= 128 &&
          k !== "__proto__" &&
          !/[\ud800-\udfff]/.test(k.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")),
      );
    const clean = (v: unknown): unknown =>
      typeof v === "string" && /[\ud800-\udfff]/.test(v.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""))
        ? "lone surrogate dropped"
        : v;
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        value.map(clean),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(key, tie("node"), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, tree.node, { maxKeys: 6 }), (fm) => {
        const yaml = emitYaml(fm);
        const back = parseYamlContract(yaml);
        if (!back.ok)
          throw new Error(`emitted YAML refused (${back.reason}, line ${back.line}):\n${JSON.stringify(yaml)}`);
        expect(JSON.stringify(back.data ?? {}), yaml).toBe(JSON.stringify(fm, (_k, v) => (Object.is(v, -0) ? 0 : v)));
      }),
      { numRuns: 3000, seed },
    );
  });
});
