// §4.5 parser rules and the field rows of frontmatter-fields.md, on the pure parser.
import { describe, expect, it } from "vitest";
import { parseSkillMd } from "../frontmatter.ts";
import { splitAllowedTools } from "../allowed-tools.ts";
import { LIMITS } from "../../schemas/index.ts";
import { message } from "../../schemas/messages.ts";
import { emitYaml } from "../emit-yaml.ts";
import { parseYamlContract } from "../yaml-contract.ts";

const ok = (text: string, dir = "demo") => {
  const r = parseSkillMd(text, dir);
  if (!r.ok) throw new Error(`expected ok, got ${r.code}: ${r.reason}`);
  return r;
};
const bad = (text: string, dir = "demo") => {
  const r = parseSkillMd(text, dir);
  if (r.ok) throw new Error("expected a failure");
  return r;
};

describe("§4.5 rule 1: the --- fences", () => {
  it("body is everything after the closing ---, verbatim", () => {
    expect(ok("---\nname: demo\ndescription: d\n---\n# T\n\n  indented `code`\n").body).toBe(
      "# T\n\n  indented `code`\n",
    );
  });
  it("missing opening --- → no frontmatter, so the required fields are missing", () => {
    const r = bad("# just markdown\nname: demo\n");
    expect(r.code).toBe("INVALID_FRONTMATTER");
    expect(r.reason).toMatch(/no frontmatter/);
  });
  it("missing closing --- → INVALID_FRONTMATTER", () => {
    expect(bad("---\nname: demo\ndescription: d\n# body\n").reason).toMatch(/not closed/);
  });
  it("a --- with trailing spaces still fences; ---- does not", () => {
    expect(ok("---  \nname: demo\ndescription: d\n--- \nB").body).toBe("B");
    expect(bad("---\nname: demo\ndescription: d\n----\nB\n").reason).toMatch(/not closed/);
  });
  it("closing fence as the last line without newline gives an empty body", () => {
    expect(ok("---\nname: demo\ndescription: d\n---").body).toBe("");
  });
  it("CRLF file parses like its LF twin (case 30)", () => {
    const lf = "---\nname: demo\ndescription: d\nversion: 1.0.0\n---\n# T\nline\n";
    expect(ok(lf.replace(/\n/g, "\r\n"))).toEqual(ok(lf));
  });
  it("a BOM is dropped", () => {
    expect(ok("\uFEFF---\nname: demo\ndescription: d\n---\nB").frontmatter.name).toBe("demo");
  });
});

describe("§4.5 rules 2–5: fields", () => {
  it.each([
    ["malformed YAML", "---\nname: demo\ndescription: [oops\n---\n", /./],
    ["missing description", "---\nname: demo\n---\n", /description/],
    ["missing name", "---\ndescription: d\n---\n", /name/],
    ["empty description", "---\nname: demo\ndescription: '  '\n---\n", /description/],
    ["description too long", `---\nname: demo\ndescription: ${"x".repeat(1025)}\n---\n`, /1024/],
    ["name not a string", "---\nname: [12]\ndescription: d\n---\n", /name/],
    ["YAML that is a list", "---\n- a\n- b\n---\n", /mapping/],
    ["YAML that is a scalar", "---\njust text\n---\n", /mapping/],
    ["empty YAML", "---\n---\nbody", /empty/],
    ["duplicate keys", "---\nname: demo\nname: demo\ndescription: d\n---\n", /./],
    ["metadata a list", "---\nname: demo\ndescription: d\nmetadata: [1, 2]\n---\n", /metadata/],
    [
      "disable-model-invocation a string",
      '---\nname: demo\ndescription: d\ndisable-model-invocation: "yes"\n---\n',
      /disable-model-invocation/,
    ],
    ["allowed-tools a number", "---\nname: demo\ndescription: d\nallowed-tools: 3\n---\n", /allowed-tools/],
    [
      "arguments of non-string type",
      "---\nname: demo\ndescription: d\narguments: {n: {type: integer}}\n---\n",
      /strings only/,
    ],
  ])("%s → INVALID_FRONTMATTER", (_l, text, reason) => {
    const r = bad(text);
    expect(r.code).toBe("INVALID_FRONTMATTER");
    expect(r.reason).toMatch(reason);
  });

  it("reports the line of a bad field (1-based, counting the opening ---)", () => {
    expect(bad("---\nname: demo\ndescription: d\nuser-invocable: maybe\n---\n").line).toBe(4);
  });

  it("a blank name or description is a missing field (fm.missing) at its key's line, never a type error (R20)", () => {
    for (const [yaml, field, line] of [
      ["license: MIT\nname:\ndescription: d", "name", 3],
      ["name: s\ndescription: ~", "description", 3],
      ["description: null\nname: s", "description", 2],
    ] as const) {
      expect(parseSkillMd(`---\n${yaml}\n---\nb\n`, "s"), yaml).toEqual({
        ok: false,
        code: "INVALID_FRONTMATTER",
        kind: "field",
        reason: `missing required field '${field}'`,
        line,
      });
    }
  });
  it("name ≠ directory → NAME_MISMATCH (case 6)", () => {
    expect(bad("---\nname: foo\ndescription: d\n---\n", "bar").code).toBe("NAME_MISMATCH");
  });

  it("unknown fields are preserved (case 9)", () => {
    const r = ok("---\nname: demo\ndescription: d\nhooks:\n  PreToolUse: [x]\ncontext: fork\n---\n");
    expect(r.frontmatter["hooks"]).toEqual({ PreToolUse: ["x"] });
    expect(r.frontmatter["context"]).toBe("fork");
  });

  it("YAML alias bombs are refused, never expanded (D11)", () => {
    const bomb = [
      "a: &a [x,x,x,x,x,x,x,x,x]",
      "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
      "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
      "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
      "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
    ].join("\n");
    expect(bad(`---\nname: demo\ndescription: d\n${bomb}\n---\n`).code).toBe("INVALID_FRONTMATTER");
  });

  it("a __proto__ key is kept as data, not as a prototype", () => {
    const r = ok("---\nname: demo\ndescription: d\n__proto__: {polluted: true}\n---\n");
    expect(Object.getPrototypeOf(r.frontmatter)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("§4.5 rule 4: allowed-tools normalisation (cases 26, 27)", () => {
  it.each([
    ["Read, Grep", ["Read", "Grep"]],
    ["Read, Grep, Bash(git log:*)", ["Read", "Grep", "Bash(git log:*)"]],
    ["Read Grep", ["Read", "Grep"]],
    ["Bash(git log:*) Read", ["Bash(git log:*)", "Read"]],
    ["Bash(a, b), Read", ["Bash(a, b)", "Read"]],
    [" , Read,, ", ["Read"]],
  ])("%j → %j", (text, expected) => {
    expect(splitAllowedTools(text)).toEqual(expected);
  });
  it("array form is taken as is, trimmed", () => {
    expect(
      ok("---\nname: demo\ndescription: d\nallowed-tools: [' Read', Grep]\n---\n").frontmatter["allowed-tools"],
    ).toEqual(["Read", "Grep"]);
  });
});

describe("review fixes: parser", () => {
  it("lengths count code points, as JSON Schema's maxLength does", () => {
    expect(
      ok(`---\nname: demo\ndescription: "${"\u{1F600}".repeat(600)}"\n---\n`).frontmatter.description,
    ).toHaveLength(1200);
  });
  it("a fence line may end in spaces, not tabs (R2)", () => {
    expect(bad("---\t\nname: demo\ndescription: d\n---\t\nbody\n").reason).toMatch(/no frontmatter/);
  });
});

describe("R93: fields typed as strings keep their source text", () => {
  const parse = (extra: string) => {
    const r = parseSkillMd(`---\nname: demo\ndescription: d\n${extra}---\nB\n`, "demo");
    if (!r.ok) throw new Error(r.reason);
    return r;
  };
  it('version: 1.10 is "1.10", in metadata too, each with a warning that says what YAML would have read and where', () => {
    const r = parse("version: 1.10\nmetadata:\n  version: 1.0\n  n: 2\n");
    expect(r.frontmatter.version).toBe("1.10");
    expect(r.frontmatter.metadata).toEqual({ version: "1.0", n: "2" });
    expect(r.warnings).toEqual([
      `field 'version' is written 1.10, which YAML reads as the number 1.1; kept as the string "1.10" (line 4)`,
      `field 'metadata.version' is written 1.0, which YAML reads as the number 1; kept as the string "1.0" (line 6)`,
      `field 'metadata.n' is written 2, which YAML reads as the number 2; kept as the string "2" (line 7)`,
    ]);
  });
  it("a boolean the fast path reads, a hex number, a number past binary64 and an alias of a number keep their text", () => {
    const r = parse("license: True\ncompatibility: 0x1F\nversion: 1e400\nmetadata: {a: &x 1.50, b: *x}\n");
    expect(r.frontmatter).toMatchObject({
      license: "True",
      compatibility: "0x1F",
      version: "1e400",
      metadata: { a: "1.50", b: "1.50" },
    });
    expect(r.warnings.join("\n")).toContain("the boolean true");
    expect(r.warnings.join("\n")).toContain("the number Infinity");
  });
  it("a quoted value, and a field not typed as a string, are left alone and warn nothing", () => {
    const r = parse('version: "1.10"\nuser-invocable: true\narguments: {n: {required: true}}\n');
    expect(r.frontmatter).toMatchObject({
      version: "1.10",
      "user-invocable": true,
      arguments: { n: { required: true } },
    });
    expect(r.warnings).toEqual([]);
  });
  it("no warning claims what did not happen: a mapping kept as written is kept as written, its numbers as their text (R160)", () => {
    const r = parse("license: {a: 1}\n");
    expect(r.frontmatter.license).toEqual({ a: "1" });
    expect(r.warnings).toEqual([
      `field 'license.a' is written 1, which YAML reads as the number 1; kept as the string "1" (line 4)`,
      "field 'license' should be a string; got a mapping (line 4); kept as written",
    ]);
  });

  it("R160: version: [1.10] keeps 1.10 as written, and so does metadata {v: [1.10]}, at any depth, each with its warning (issue 28 item 9)", () => {
    const list = parse("version: [1.10]\n");
    expect(list.frontmatter.version).toEqual(["1.10"]);
    expect(list.warnings).toEqual([
      `field 'version[0]' is written 1.10, which YAML reads as the number 1.1; kept as the string "1.10" (line 4)`,
      `field 'version' should be a string; got a list (line 4) (YAML reads [..] as a list; quote it: version: "[...]"); kept as written`,
    ]);
    const meta = parse("metadata: {v: [1.10]}\n");
    expect(meta.frontmatter.metadata).toEqual({ v: ["1.10"] });
    expect(meta.warnings).toEqual([
      `field 'metadata.v[0]' is written 1.10, which YAML reads as the number 1.1; kept as the string "1.10" (line 4)`,
    ]);
    // Block style, a mapping in a list, and a boolean the fast path would read (it hands such a text to the contract reader).
    const deep = parse("metadata:\n  v:\n    - 1.10\n    - k: true\n");
    expect(deep.frontmatter.metadata).toEqual({ v: ["1.10", { k: "true" }] });
    expect(deep.warnings).toEqual([
      `field 'metadata.v[0]' is written 1.10, which YAML reads as the number 1.1; kept as the string "1.10" (line 6)`,
      `field 'metadata.v[1].k' is written true, which YAML reads as the boolean true; kept as the string "true" (line 7)`,
    ]);
    expect(parse("argument-hint: [true]\n").frontmatter["argument-hint"]).toEqual(["true"]);
    // An alias elsewhere copies what YAML reads (R93 keeps text only at a text field's own place).
    expect(parse("version: &a [1.10]\nx-other: *a\n").frontmatter["x-other"]).toEqual([1.1]);
  });
});

describe("R94: bounds apply after normalisation", () => {
  // name, description, allowed-tools: the mapping (1), three keys, two strings, the list (1) and its tools.
  const skill = (n: number) =>
    `---\nname: demo\ndescription: d\nallowed-tools: ${Array.from({ length: n }, (_, i) => `T${i}`).join(" ")}\n---\nB\n`;
  it("an allowed-tools string that splits into more values than R16 allows is refused at its line; one fewer is accepted and reads back (R17)", () => {
    const atBound = parseSkillMd(skill(LIMITS.yaml_max_nodes - 7), "demo");
    if (!atBound.ok) throw new Error(atBound.reason);
    const back = parseYamlContract(emitYaml(atBound.frontmatter));
    expect(back.ok && back.data).toEqual(atBound.frontmatter);
    const past = parseSkillMd(skill(LIMITS.yaml_max_nodes - 6), "demo");
    expect(past).toMatchObject({ ok: false, code: "INVALID_FRONTMATTER", line: 4 });
    expect(!past.ok && past.reason).toBe(message("fm.allowed_tools_too_many", { max: LIMITS.yaml_max_nodes }));
  });
});
