// §5.1 roots and shadowing, §5.2 discovery (never fatal), §5.3 the fence, via the public session.
import { chmodSync, renameSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check } from "../../schemas/index.ts";
import { expectError, open, skillMd, tree } from "./helpers.ts";

describe("§5.1 precedence", () => {
  it("a lower-index root shadows a higher one; meta.shadowed lists the hidden dir (case 28, D7)", async () => {
    const project = tree({ "fmt/SKILL.md": skillMd("fmt", "project fmt") });
    const user = tree({ "fmt/SKILL.md": skillMd("fmt", "user fmt"), "only-user/SKILL.md": skillMd("only-user") });
    const h = open({ skill_roots: [project, user] });
    const cat = await h.session.catalog();
    expect(check("catalog.schema.json", cat).valid).toBe(true);
    const fmt = cat.entries.find((e) => e.name === "fmt");
    expect(fmt?.description).toBe("project fmt");
    expect(fmt?.root_index).toBe(0);
    expect(fmt?.meta.shadowed).toEqual([join(user, "fmt")]);
    expect(fmt?.frontmatter["metadata"]).toBeUndefined();
    expect(cat.entries.map((e) => e.name)).toEqual(["fmt", "only-user"]);
    expect(cat.warnings.some((w) => w.includes("shadowed"))).toBe(true);
  });

  it("a broken skill shadows a healthy one of the same name in a later root (R6)", async () => {
    const project = tree({ "fmt/SKILL.md": "---\nname: fmt\n---\n" });
    const user = tree({ "fmt/SKILL.md": skillMd("fmt") });
    const h = open({ skill_roots: [project, user] });
    expectError(await h.call({ name: "fmt" }), "INVALID_FRONTMATTER");
  });
});

describe("§5.2 discovery", () => {
  it("dirs without SKILL.md, files and hidden entries are omitted silently (case 29)", async () => {
    const root = tree({
      "a/SKILL.md": skillMd("a"),
      "empty/": "",
      "notes.txt": "x",
      ".hidden/SKILL.md": skillMd("hidden"),
    });
    const cat = await open({ skill_roots: [root] }).session.catalog();
    expect(cat.entries.map((e) => e.name)).toEqual(["a"]);
    expect(cat.warnings).toEqual([]);
  });

  it("broken skills are omitted from the catalog, warned about, and return their error by name (§5.2 step 3)", async () => {
    const root = tree({
      "ok/SKILL.md": skillMd("ok"),
      "broken/SKILL.md": "---\nname: broken\ndescription: [x\n---\n",
      "bar/SKILL.md": skillMd("foo"),
    });
    const h = open({ skill_roots: [root] });
    const cat = await h.session.catalog();
    expect(cat.entries.map((e) => e.name)).toEqual(["ok"]);
    expect(cat.warnings.length).toBe(2);
    const r = await h.call({ name: "broken" });
    expectError(r, "INVALID_FRONTMATTER");
    expect(r.path).toBe(join(root, "broken", "SKILL.md"));
    expect(r.output).toMatch(
      /^Error \[INVALID_FRONTMATTER\]: skill "broken" has malformed YAML frontmatter\.\nPath: .*\nReason: .*\nHint: /,
    );
    expectError(await h.call({ name: "bar" }), "NAME_MISMATCH");
  });

  it("a missing root or a root that is a file is a warning, not a failure", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a"), file: "x" });
    const cat = await open({ skill_roots: ["/nonexistent/skills", join(root, "file"), root] }).session.catalog();
    expect(cat.entries.map((e) => e.name)).toEqual(["a"]);
    expect(cat.warnings.length).toBe(2);
  });

  it("entries are sorted by name", async () => {
    const root = tree({ "b/SKILL.md": skillMd("b"), "a/SKILL.md": skillMd("a"), "c-1/SKILL.md": skillMd("c-1") });
    expect((await open({ skill_roots: [root] }).session.catalog()).entries.map((e) => e.name)).toEqual([
      "a",
      "b",
      "c-1",
    ]);
  });

  // Root reads everything, so there the permission bits cannot make a read fail: reported as skipped, not passed.
  it.skipIf(process.getuid?.() === 0)("an unreadable SKILL.md is IO_ERROR by name, not a crash", async () => {
    const root = tree({ "locked/SKILL.md": skillMd("locked") });
    chmodSync(join(root, "locked", "SKILL.md"), 0o000);
    expectError(await open({ skill_roots: [root] }).call({ name: "locked" }), "IO_ERROR");
  });

  it("a SKILL.md that is a directory is IO_ERROR by name, not a crash (fails the read whoever runs it)", async () => {
    const root = tree({ "odd/SKILL.md/inner.txt": "x" });
    const r = await open({ skill_roots: [root] }).call({ name: "odd" });
    expectError(r, "IO_ERROR");
    expect(r.reason).toMatch(/not a regular file/);
  });

  it("a SKILL.md over the size cap is IO_ERROR with the size (D11)", async () => {
    const root = tree({ "big/SKILL.md": skillMd("big", "d", "", "x".repeat(1024 * 1024 + 1)) });
    const r = await open({ skill_roots: [root] }).call({ name: "big" });
    expectError(r, "IO_ERROR");
    expect(r.reason).toMatch(/bytes/);
  });
});

describe("§5.3 fence", () => {
  it("a skill dir symlinked out of every root → OUTSIDE_WORKSPACE, and its text is never shown (case 10)", async () => {
    const outside = tree({ "evil/SKILL.md": skillMd("evil", "SECRET-DESCRIPTION") });
    const root = tree({ "good/SKILL.md": skillMd("good") });
    symlinkSync(join(outside, "evil"), join(root, "evil"));
    const h = open({ skill_roots: [root] });
    const cat = await h.session.catalog();
    expect(cat.tool_description).not.toContain("SECRET-DESCRIPTION");
    expectError(await h.call({ name: "evil" }), "OUTSIDE_WORKSPACE");
  });

  it("a dir reached through ../ in a symlink target → OUTSIDE_WORKSPACE", async () => {
    const base = tree({ "skills/x/SKILL.md": skillMd("x"), "other/esc/SKILL.md": skillMd("esc") });
    symlinkSync("../other/esc", join(base, "skills", "esc"));
    expectError(await open({ skill_roots: [join(base, "skills")] }).call({ name: "esc" }), "OUTSIDE_WORKSPACE");
  });

  it("a SKILL.md that is a symlink out → OUTSIDE_WORKSPACE", async () => {
    const outside = tree({ "SKILL.md": skillMd("leak") });
    const root = tree({ "leak/": "" });
    symlinkSync(join(outside, "SKILL.md"), join(root, "leak", "SKILL.md"));
    expectError(await open({ skill_roots: [root] }).call({ name: "leak" }), "OUTSIDE_WORKSPACE");
  });

  it("a root that is itself a symlink is fine: its real path is the root", async () => {
    const real = tree({ "a/SKILL.md": skillMd("a") });
    const holder = tree({});
    symlinkSync(real, join(holder, "link"));
    const r = await open({ skill_roots: [join(holder, "link")] }).call({ name: "a" });
    expect(r.kind).toBe("ok");
  });

  it("a skill dir swapped for an outside symlink after discovery is refused at activation", async () => {
    const outside = tree({ "swap/SKILL.md": skillMd("swap") });
    const root = tree({ "swap/SKILL.md": skillMd("swap") });
    const h = open({ skill_roots: [root] });
    await h.session.catalog();
    renameSync(join(root, "swap"), join(root, ".old"));
    symlinkSync(join(outside, "swap"), join(root, "swap"));
    expectError(await h.call({ name: "swap" }), "OUTSIDE_WORKSPACE");
  });
});

describe("§10 FilesystemSkillRegistry", () => {
  it("discover() lists healthy skills sorted; load() gives body and resources, null for unknown or broken", async () => {
    const { FilesystemSkillRegistry } = await import("../index.ts");
    const root = tree({
      "b/SKILL.md": skillMd("b"),
      "a/SKILL.md": skillMd("a", "d", "", "Body A\n"),
      "a/scripts/x.sh": "",
      "bad/SKILL.md": "---\nname: bad\n---\n",
    });
    const reg = new FilesystemSkillRegistry([root]);
    expect((await reg.discover()).map((e) => [e.name, e.root_index, e.dir])).toEqual([
      ["a", 0, join(root, "a")],
      ["b", 0, join(root, "b")],
    ]);
    const a = await reg.load("a");
    expect(a).toMatchObject({ name: "a", body: "Body A\n", resources: ["scripts/x.sh"] });
    expect(await reg.load("bad")).toBeNull();
    expect(await reg.load("zzz")).toBeNull();
  });
});

describe("review fixes: discovery", () => {
  it("OUTSIDE_WORKSPACE never names where the link points", async () => {
    const outside = tree({ "private-project-xyz/leak/SKILL.md": skillMd("leak") });
    const root = tree({});
    symlinkSync(join(outside, "private-project-xyz", "leak"), join(root, "leak"));
    const h = open({ skill_roots: [root] });
    const r = await h.call({ name: "leak" });
    expectError(r, "OUTSIDE_WORKSPACE");
    expect(JSON.stringify(r)).not.toContain("private-project-xyz");
    expect(JSON.stringify(await h.session.catalog())).not.toContain("private-project-xyz");
  });
  it("the same root listed twice does not shadow itself", async () => {
    const root = tree({ "dup/SKILL.md": skillMd("dup") });
    const cat = await open({ skill_roots: [root, root] }).session.catalog();
    expect(cat.entries[0]?.meta.shadowed).toEqual([]);
    expect(cat.warnings).toEqual([`skill root ${root} is the same directory as root 0; skipped`]);
  });
});

describe("skill dirs as path.join writes them", () => {
  it("a root written with a trailing slash, ./, ../ or // gives the same dirs and paths as join(root, name)", async () => {
    const root = tree({
      "a/SKILL.md": skillMd("a"),
      "b/SKILL.md": "---\nname: wrong\ndescription: d\n---\n",
      "sub/": "",
    });
    for (const written of [root, `${root}/`, `${root}/.`, `${root}//`, `${root}/sub/..`, `${root}/./`]) {
      const h = open({ skill_roots: [written], skill_trust: { trusted_roots: [root] } });
      const cat = await h.session.catalog();
      expect(cat.entries.map((e) => e.dir)).toEqual([join(written, "a")]);
      const a = await h.call({ name: "a" });
      expect(a.kind === "ok" && a.dir).toBe(join(written, "a"));
      const b = await h.call({ name: "b" });
      expectError(b, "NAME_MISMATCH");
      expect(b.path).toBe(join(written, "b", "SKILL.md"));
    }
  });
});
