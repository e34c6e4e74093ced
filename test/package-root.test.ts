// package-root.ts: the kit finds its own data from source (this run, through tsx/vitest), and relative paths on the
// command line start where the user meant: INIT_CWD only under the kit's own npm scripts, the working directory
// otherwise. (The compiled side, dist/, is proven by scripts/pack-test.ts on the installed tarball.)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CODE_ROOT, PACKAGE_ROOT, codePath, dataPath, userCwd } from "../package-root.ts";

describe("package root", () => {
  it("is the directory of package.json, and holds the kit's data", () => {
    expect(existsSync(join(PACKAGE_ROOT, "package.json"))).toBe(true);
    expect(existsSync(dataPath("schemas", "limits.json"))).toBe(true);
    expect(existsSync(dataPath("conformance", "cases", "U01.json"))).toBe(true);
    expect(existsSync(dataPath("fixtures", "e2e"))).toBe(true);
  });

  it("holds every suite's cases and fixtures, the frontmatter suite's included", () => {
    expect(existsSync(dataPath("conformance", "cases-frontmatter", "F01.json"))).toBe(true);
    expect(existsSync(dataPath("fixtures", "frontmatter", "base", "skills", "hello", "SKILL.md"))).toBe(true);
    expect(existsSync(dataPath("schemas", "messages.json"))).toBe(true);
  });

  it("no module of the kit finds data relative to its own file (compiled, it sits in dist/): only these use import.meta", () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.name === "node_modules" || e.name === "dist" || e.name === "test" || e.name.startsWith(".")
          ? []
          : e.isDirectory()
            ? walk(join(dir, e.name))
            : [join(dir, e.name)],
      );
    const users = walk(PACKAGE_ROOT)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && readFileSync(f, "utf8").includes("import.meta"))
      .map((f) => relative(PACKAGE_ROOT, f))
      .sort();
    // package-root.ts itself; two "am I the main module" checks; bench/matrix.ts (never shipped) finds the clone; e2e/versions.ts hashes its own sources.
    expect(users).toEqual([
      "bench/matrix.ts",
      "e2e/versions.ts",
      "package-root.ts",
      "scripts/conformance.ts",
      "scripts/gen-types.ts",
    ]);
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
    expect(
      userCwd({ npm_package_json: "/home/u/rust-repo/package.json", INIT_CWD: "/home/u" }, "/home/u/rust-repo"),
    ).toBe("/home/u/rust-repo");
    expect(userCwd({ INIT_CWD: "/somewhere/else" }, "/home/u/project")).toBe("/home/u/project");
    expect(userCwd({}, "/home/u/project")).toBe("/home/u/project");
  });

  it("is the working directory when the kit's own script has no INIT_CWD", () => {
    expect(userCwd({ npm_package_json: own }, "/home/u/x")).toBe("/home/u/x");
  });
});
