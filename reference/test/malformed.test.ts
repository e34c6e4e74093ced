// Issue #2 acceptance: no input, however malformed, makes the tool throw; each is a structured result.
import { describe, expect, it } from "vitest";
import { open, tree } from "./helpers.ts";

const md = (s: string) => `---\nname: x\ndescription: d\n${s}\n---\nbody\n`;

describe("malformed SKILL.md never throws", () => {
  it.each([
    ["binary bytes", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0xff, 0xfe])],
    [
      "invalid UTF-8",
      Buffer.concat([Buffer.from("---\nname: x\ndescription: "), Buffer.from([0xc3, 0x28]), Buffer.from("\n---\n")]),
    ],
    ["NUL bytes", "---\nname: x\ndescription: d\0d\n---\n"],
    ["YAML a list", "---\n- x\n---\n"],
    ["YAML a scalar", "---\n42\n---\n"],
    [
      "alias bomb",
      md(
        "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]",
      ),
    ],
    ["deep nesting", md(`deep: ${"[".repeat(5000)}${"]".repeat(5000)}`)],
    ["tabs and junk", "---\n\tname: : :\n---\n"],
    ["only the fence", "---"],
    ["empty file", ""],
    ["huge key", md(`${"k".repeat(200_000)}: v`)],
  ])("%s → error INVALID_FRONTMATTER or IO_ERROR", async (_l, content) => {
    const h = open({ skill_roots: [tree({ "x/SKILL.md": content })] });
    const r = await h.call({ name: "x" });
    expect(r.kind).toBe("error");
    expect(["INVALID_FRONTMATTER", "IO_ERROR"]).toContain(r.kind === "error" ? r.code : "");
    expect(r.output.length).toBeLessThan(2000);
  });
});
