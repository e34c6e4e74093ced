// A first activation re-reads and re-fences SKILL.md (§5.3, §7 step 4, R6): whatever happened to the file
// since discovery, the result is the one a fresh session would give. The activation path opens SKILL.md
// with O_NOFOLLOW and asks lstat only when that fails (R85), and reuses discovery's parse while the YAML
// text is unchanged (R86); these tests pin that neither changes a result.
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { message } from "../../schemas/messages.ts";
import type { SkillResult } from "../../schemas/index.ts";
import { expectError, open, skillMd, tree } from "./helpers.ts";

/** A session that has discovered `root`, so the next call is a first activation after discovery. */
async function discovered(root: string) {
  const h = open({ skill_roots: [root] });
  await h.session.catalog();
  return h;
}

/** SKILL.md of skill `a` in `root` replaced by a symlink to `target`, after discovery. */
async function symlinkedAfterDiscovery(root: string, target: string) {
  const h = await discovered(root);
  rmSync(join(root, "a", "SKILL.md"));
  symlinkSync(target, join(root, "a", "SKILL.md"));
  return h.call({ name: "a" });
}

/** What a session discovering the tree as it is now answers. */
async function fresh(root: string, name: string): Promise<SkillResult> {
  return open({ skill_roots: [root] }).call({ name });
}

describe("first activation after discovery: the file as it is now", () => {
  it("SKILL.md removed → IO_ERROR, SKILL.md unresolved", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a") });
    const h = await discovered(root);
    rmSync(join(root, "a", "SKILL.md"));
    const r = await h.call({ name: "a" });
    expectError(r, "IO_ERROR");
    expect(r).toMatchObject({ path: join(root, "a", "SKILL.md"), reason: message("read.md_unresolved") });
  });

  it("SKILL.md swapped for a dangling symlink → IO_ERROR, SKILL.md unresolved", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a") });
    const r = await symlinkedAfterDiscovery(root, join(root, "nowhere.md"));
    expectError(r, "IO_ERROR");
    expect(r.reason).toBe(message("read.md_unresolved"));
  });

  it("SKILL.md swapped for a directory → IO_ERROR, not a regular file", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a") });
    const h = await discovered(root);
    rmSync(join(root, "a", "SKILL.md"));
    mkdirSync(join(root, "a", "SKILL.md"));
    const r = await h.call({ name: "a" });
    expectError(r, "IO_ERROR");
    expect(r.reason).toBe(message("read.not_file"));
  });

  it("SKILL.md swapped for a symlink to a file inside the roots → followed, its text activated", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a"), "store/a.md": skillMd("a", "Moved.", "", "Moved body\n") });
    const r = await symlinkedAfterDiscovery(root, join(root, "store", "a.md"));
    expect(r).toMatchObject({ kind: "ok", body: "Moved body\n", frontmatter: { description: "Moved." } });
    expect(r).toEqual(await fresh(root, "a"));
  });

  it("SKILL.md swapped for a symlink out of every root → OUTSIDE_WORKSPACE, nothing of it shown", async () => {
    const outside = tree({ "a.md": skillMd("a", "SECRET-DESCRIPTION") });
    const root = tree({ "a/SKILL.md": skillMd("a") });
    const r = await symlinkedAfterDiscovery(root, join(outside, "a.md"));
    expectError(r, "OUTSIDE_WORKSPACE");
    expect(r.reason).toBe(message("read.md_outside"));
    expect(JSON.stringify(r)).not.toContain("SECRET");
  });

  it("frontmatter edited → the new frontmatter is validated, rendered and returned", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a", "Old.", "allowed-tools: Read\n") });
    const h = await discovered(root);
    writeFileSync(
      join(root, "a", "SKILL.md"),
      skillMd("a", "New.", "allowed-tools: Grep, Bash(git log:*)\nlicense: MIT\n"),
    );
    const r = await h.call({ name: "a" });
    expect(r).toMatchObject({
      kind: "ok",
      frontmatter: { description: "New.", "allowed-tools": ["Grep", "Bash(git log:*)"], license: "MIT" },
    });
    expect(r).toEqual(await fresh(root, "a"));
  });

  it("frontmatter made invalid → INVALID_FRONTMATTER, not the discovered value", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a") });
    const h = await discovered(root);
    writeFileSync(join(root, "a", "SKILL.md"), "---\nname: a\n---\nbody\n");
    expectError(await h.call({ name: "a" }), "INVALID_FRONTMATTER");
  });

  it("the same text with CRLF line ends → the same result as a fresh session", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a", "Same.", "metadata:\n  k: v\n") });
    const h = await discovered(root);
    writeFileSync(join(root, "a", "SKILL.md"), skillMd("a", "Same.", "metadata:\n  k: v\n").replace(/\n/g, "\r\n"));
    expect(await h.call({ name: "a" })).toEqual(await fresh(root, "a"));
  });

  it("body edited, frontmatter unchanged → the new body, the same frontmatter", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a", "D.", "metadata:\n  tags: [x, y]\n", "Old body\n") });
    const h = await discovered(root);
    writeFileSync(
      join(root, "a", "SKILL.md"),
      skillMd("a", "D.", "metadata:\n  tags: [x, y]\n", "New body $ARGUMENTS\n"),
    );
    const r = await h.call({ name: "a", arguments: "go" });
    expect(r).toMatchObject({ kind: "ok", body: "New body go\n", frontmatter: { metadata: { tags: ["x", "y"] } } });
    expect(r).toEqual(await open({ skill_roots: [root] }).call({ name: "a", arguments: "go" }));
  });

  it("the dir renamed away and another skill's dir moved in under its name → NAME_MISMATCH", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a"), "b/SKILL.md": skillMd("b") });
    const h = await discovered(root);
    renameSync(join(root, "a"), join(root, ".a-old"));
    renameSync(join(root, "b"), join(root, "a"));
    expectError(await h.call({ name: "a" }), "NAME_MISMATCH");
  });
});

describe("what a caller holds is its own", () => {
  it("changing the catalog's or a result's frontmatter changes no later activation", async () => {
    const root = tree({
      "a/SKILL.md": skillMd("a", "D.", "metadata:\n  tags: [x]\n"),
      "b/SKILL.md": skillMd("b", "E.", "metadata:\n  tags: [x]\n"),
    });
    const h = open({ skill_roots: [root] });
    const catalog = await h.session.catalog();
    for (const e of catalog.entries) {
      e.frontmatter.description = "changed";
      (e.frontmatter.metadata as { tags: string[] }).tags.push("changed");
    }
    const a = await h.call({ name: "a" });
    expect(a).toEqual(await fresh(root, "a"));
    if (a.kind !== "ok") return;
    a.frontmatter.description = "changed too";
    (a.frontmatter.metadata as { tags: string[] }).tags.push("changed too");
    expect(await h.call({ name: "b" })).toEqual(await fresh(root, "b"));
  });

  it("FilesystemSkillRegistry.load() gives a frontmatter of its own on every call", async () => {
    const { FilesystemSkillRegistry } = await import("../index.ts");
    const root = tree({ "a/SKILL.md": skillMd("a", "D.", "metadata:\n  tags: [x]\n") });
    const reg = new FilesystemSkillRegistry([root]);
    const first = await reg.load("a");
    const pristine = structuredClone(first?.frontmatter);
    expect(pristine).toMatchObject({ description: "D.", metadata: { tags: ["x"] } });
    (first?.frontmatter as { description: string }).description = "changed";
    (first?.frontmatter.metadata as { tags: string[] }).tags.push("changed");
    expect((await reg.load("a"))?.frontmatter).toEqual(pristine);
    expect((await reg.discover())[0]?.frontmatter).toEqual(pristine);
  });
});
