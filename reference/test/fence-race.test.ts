// Issue 26 finding 5, made deterministic (R142): the swap a concurrent writer makes at the worst moment is made
// here right before the reference's first open(2) under the skill dir during activation, whatever it opens first
// (the dir itself, or SKILL.md by a path checked earlier). Fencing what was opened refuses; fencing what was
// checked and then opening by path returns the outside body. hostile-tree.test.ts races a real writer process.
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { skillMd, tree } from "./helpers.ts";

const armed: { dir: string | null; outside: string } = { dir: null, outside: "" };

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const swapBefore = (path: fs.PathLike): void => {
    const p = Buffer.isBuffer(path) ? path.toString("latin1") : String(path);
    const dir = armed.dir;
    if (dir === null || !(p === dir || p.startsWith(`${dir}/`))) return;
    armed.dir = null; // once
    real.renameSync(dir, `${dir}.real`);
    real.symlinkSync(armed.outside, dir);
  };
  const openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
    swapBefore(path);
    return (real.openSync as (...a: unknown[]) => number)(path, ...rest);
  }) as typeof real.openSync;
  return { ...real, default: { ...real, openSync }, openSync };
});

const { createSession } = await import("../index.ts");

describe("R142: the SKILL.md returned is the file opened, fenced after the open", () => {
  it("a swap of the skill dir for an outside symlink right before the first open is refused, never read", async () => {
    const root = tree({
      "outside/victim/SKILL.md": skillMd("victim", "V.", "", "OUTSIDE-BODY\n"),
      "skills/victim/SKILL.md": skillMd("victim", "V.", "", "inside body\n"),
    });
    const skills = join(root, "skills");
    const s = createSession({ skill_roots: [skills], skill_trust: { trusted_roots: [skills] } });
    await s.catalog();
    armed.dir = join(skills, "victim");
    armed.outside = join(root, "outside/victim");
    const r = await s.call({ name: "victim" }, { invocation: "model" });
    expect(armed.dir, "the swap was made (activation opened something under the skill dir)").toBeNull();
    expect(JSON.stringify(r)).not.toContain("OUTSIDE-BODY");
    expect(r.kind === "error" ? r.code : r.kind).toBe("OUTSIDE_WORKSPACE");
  });
});
