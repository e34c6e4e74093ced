// Every harness folder's lockfile is one `npm ci` accepts, so `npm run compat` installs it on a fresh clone.
// A lock written by `npm install` on a registry that serves only some platform packages (this machine's serves
// linux-x64 only) leaves the others out, and npm ci then refuses the whole folder (Qwen Code did, issue 27).
// `npm ci --dry-run --offline` runs npm's own sync check without fetching anything.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../package-root.ts";

const IMPL = join(PACKAGE_ROOT, "implementations");
const folders = readdirSync(IMPL).filter((d) => existsSync(join(IMPL, d, "package-lock.json")));

describe("harness lockfiles", () => {
  it("finds the pinned harness folders", () => expect(folders.length).toBeGreaterThan(0));
  it.each(folders)("%s: npm ci accepts its lockfile", (folder) => {
    const dir = mkdtempSync(join(tmpdir(), "lockcheck-"));
    try {
      for (const f of ["package.json", "package-lock.json"]) copyFileSync(join(IMPL, folder, f), join(dir, f));
      const r = spawnSync("npm", ["ci", "--dry-run", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
        cwd: dir,
        encoding: "utf8",
        timeout: 120_000,
      });
      const errors = (r.stderr ?? "").split("\n").filter((l) => /^npm error/.test(l));
      expect(errors.slice(0, 6).join("\n")).toBe("");
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
