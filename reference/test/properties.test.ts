// Property tests (issue #5): over generated tool params and SKILL.md contents, nothing throws, every
// result validates against result.schema.json, and no result names a path outside the roots.
// Seeded: FC_SEED=<n> reproduces a run; the seed is printed either way.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALIASES, validator } from "../../schemas/index.ts";
import type { SkillResult } from "../../schemas/index.ts";
import { parseSkillMd } from "../frontmatter.ts";
import { createSession } from "../index.ts";
import { skillMd, tree } from "./helpers.ts";

const seed = Number(process.env["FC_SEED"] ?? Math.floor(Math.random() * 2 ** 31));
console.log(`property tests: fast-check seed ${seed} (rerun with FC_SEED=${seed})`);
const validResult = validator("result.schema.json");

function assertResult(r: SkillResult, roots: readonly string[]): void {
  if (!validResult(r))
    throw new Error(
      `result does not validate: ${JSON.stringify(validResult.errors)} for ${JSON.stringify(r).slice(0, 300)}`,
    );
  for (const p of [(r as { dir?: string }).dir, (r as { path?: string }).path]) {
    if (p !== undefined && !roots.some((root) => p === root || p.startsWith(root + sep)))
      throw new Error(`result names a path outside the roots: ${p}`);
  }
}

const installed = ["alpha", "beta-tool", "named-args", "manual", "broken", "mismatch"];
const kebab = fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/);
const nameArb = fc.oneof(fc.constantFrom(...installed), kebab, fc.string({ maxLength: 80 }), fc.anything());
const argsArb = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 40 }),
  fc.dictionary(
    fc.oneof(fc.constantFrom("path", "mode", "__proto__", "constructor"), fc.string({ maxLength: 8 })),
    fc.string({ maxLength: 20 }),
    { maxKeys: 3 },
  ),
  fc.anything(),
);
const extraKeyArb = fc.oneof(fc.constantFrom(...ALIASES.map((a) => a.alias)), fc.string({ maxLength: 10 }));
const paramsArb = fc.oneof(
  { weight: 6, arbitrary: fc.record({ name: nameArb, arguments: argsArb }, { requiredKeys: ["name"] }) },
  {
    weight: 2,
    arbitrary: fc
      .record({ name: nameArb, extra: extraKeyArb, value: fc.anything() })
      .map(({ name, extra, value }) => ({ name, [extra]: value })),
  },
  { weight: 1, arbitrary: fc.anything() },
);

describe("properties of the tool over generated params", () => {
  it("never throws; results validate; paths stay inside the roots (6,000 inputs)", async () => {
    const root = tree({
      "alpha/SKILL.md": skillMd("alpha", "d", "", "all=$ARGUMENTS one=$1 ${path}\n"),
      "alpha/scripts/run.sh": "",
      "beta-tool/SKILL.md": skillMd("beta-tool", "d", "allowed-tools: Read, Bash(git:*)\n"),
      "named-args/SKILL.md": skillMd(
        "named-args",
        "d",
        "arguments:\n  path: {type: string, required: true}\n  mode: {type: string}\n",
        "p=${path} m=${mode}\n",
      ),
      "manual/SKILL.md": skillMd("manual", "d", "disable-model-invocation: true\n"),
      "broken/SKILL.md": "---\nname: broken\ndescription: [x\n---\n",
      "mismatch/SKILL.md": skillMd("other"),
    });
    let session = createSession({ skill_roots: [root], skill_trust: { trusted_roots: [root] } });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(paramsArb, fc.constantFrom("model" as const, "user" as const), async (params, invocation) => {
        // A fresh session now and then, so ok activations keep happening instead of only already_loaded.
        if (++n % 50 === 0) session = createSession({ skill_roots: [root], skill_trust: { trusted_roots: [root] } });
        assertResult(await session.call(params, { invocation }), [root]);
      }),
      { numRuns: 6000, seed },
    );
  });
});

// SKILL.md text built from pieces that stress the parser: fences, CRLF, YAML syntax, known fields of the wrong type.
const yamlValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    "true",
    "null",
    "[1, 2]",
    "{a: b}",
    "&a x",
    "*a",
    "|",
    ">-",
    "'unterminated",
    '"',
    ": :",
    "- item",
    "0x1F",
    "~",
    "!!binary AAAA",
  ),
);
const fieldLine = fc
  .tuple(
    fc.constantFrom(
      "name",
      "description",
      "allowed-tools",
      "metadata",
      "arguments",
      "disable-model-invocation",
      "user-invocable",
      "version",
      "compatibility",
      "__proto__",
      "hooks",
      "x",
    ),
    yamlValue,
  )
  .map(([k, v]) => `${k}: ${v}`);
const bodyArb = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom("---\n", "$ARGUMENTS $1 ${x}", "\r\n---\r\n", "\0"),
);
const skillTextArb = fc
  .tuple(
    fc.constantFrom("---\n", "---\r\n", "", "\uFEFF---\n", "--- \n", "----\n"),
    fc.array(fc.oneof({ weight: 4, arbitrary: fieldLine }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }), {
      maxLength: 8,
    }),
    fc.constantFrom(true, false),
    fc.constantFrom("---\n", "---", "--- \r\n", "...\n", ""),
    bodyArb,
    fc.constantFrom("\n", "\r\n"),
  )
  .map(([open, lines, withName, close, body, eol]) => {
    const all = withName ? ["name: demo", "description: generated", ...lines] : lines;
    return `${open}${all.join(eol)}${eol}${close}${body}`;
  });

describe("properties of the parser over generated SKILL.md", () => {
  it("parseSkillMd never throws and fails only with a frontmatter code (4,000 inputs)", () => {
    fc.assert(
      fc.property(
        fc.oneof({ weight: 4, arbitrary: skillTextArb }, { weight: 1, arbitrary: fc.string({ maxLength: 300 }) }),
        (text) => {
          const r = parseSkillMd(text, "demo");
          if (r.ok) {
            expect(r.frontmatter.name).toBe("demo");
            expect(typeof r.body).toBe("string");
          } else expect(["INVALID_FRONTMATTER", "NAME_MISMATCH"]).toContain(r.code);
        },
      ),
      { numRuns: 4000, seed },
    );
  });

  it("activating generated SKILL.md files from disk gives schema-valid results (400 inputs)", async () => {
    const root = tree({});
    let i = 0;
    await fc.assert(
      fc.asyncProperty(skillTextArb, async (text) => {
        // One root per input, so each session scans one skill (not all earlier ones).
        const sub = join(root, `r${i}`);
        const name = `s${i++}`;
        mkdirSync(join(sub, name), { recursive: true });
        writeFileSync(join(sub, name, "SKILL.md"), text.replace("name: demo", `name: ${name}`));
        const s = createSession({ skill_roots: [sub], skill_trust: { trusted_roots: [sub] } });
        assertResult(await s.call({ name }, { invocation: "user" }), [sub]);
      }),
      { numRuns: 400, seed },
    );
  });
});
