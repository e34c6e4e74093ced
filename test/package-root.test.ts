// package-root.ts: the kit finds its own data from source (this run, through tsx/vitest), and relative paths on the
// command line start where the user meant: INIT_CWD only under the kit's own npm scripts, the working directory
// otherwise. (The compiled side, dist/, is proven by scripts/pack-test.ts on the installed tarball.)
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CODE_ROOT, PACKAGE_ROOT, codePath, dataPath, userCwd } from "../package-root.ts";

describe("package root", () => {
  it("is the directory of package.json, and holds the kit's data", () => {
    expect(existsSync(join(PACKAGE_ROOT, "package.json"))).toBe(true);
    expect(existsSync(dataPath("schemas", "limits.json"))).toBe(true);
    expect(existsSync(dataPath("conformance", "cases", "U01.json"))).toBe(true);
    expect(existsSync(dataPath("fixtures", "e2e"))).toBe(true);
  });

  it("names the kit's own modules with the extension they have here (.ts from source)", () => {
    expect(CODE_ROOT).toBe(PACKAGE_ROOT);
    expect(codePath("reference/index")).toBe(join(PACKAGE_ROOT, "reference", "index.ts"));
    expect(existsSync(codePath("reference/index"))).toBe(true);
  });
});

describe("userCwd", () => {
  const own = join(PACKAGE_ROOT, "package.json");

  it("is INIT_CWD under the kit's own npm script (npm runs it in the package root)", () => {
    expect(userCwd({ npm_package_json: own, INIT_CWD: "/home/u/sub" }, PACKAGE_ROOT)).toBe("/home/u/sub");
  });

  it("is the working directory under someone else's npm script, npx or a plain shell", () => {
    expect(userCwd({ npm_package_json: "/home/u/rust-repo/package.json", INIT_CWD: "/home/u" }, "/home/u/rust-repo")).toBe("/home/u/rust-repo");
    expect(userCwd({ INIT_CWD: "/somewhere/else" }, "/home/u/project")).toBe("/home/u/project");
    expect(userCwd({}, "/home/u/project")).toBe("/home/u/project");
  });

  it("is the working directory when the kit's own script has no INIT_CWD", () => {
    expect(userCwd({ npm_package_json: own }, "/home/u/x")).toBe("/home/u/x");
  });
});
