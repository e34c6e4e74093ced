// skill-reference-driver's own command line: --help and --version answer (they used to be imported as a module
// path and crash), and a bad argument is one line on stderr, exit 2, with nothing on stdout (the protocol channel).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../package-root.ts";

const driver = join(PACKAGE_ROOT, "scripts", "reference-driver.ts");
const run = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", driver, ...args], {
    cwd: PACKAGE_ROOT,
    encoding: "utf8",
    input: "",
    timeout: 30_000,
  });

describe("skill-reference-driver", () => {
  it("--help prints the usage, --version the kit's version; both exit 0", () => {
    const help = run("--help");
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: skill-reference-driver \[module\.js\]/);
    const version = run("--version");
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^skill-reference-driver \d+\.\d+\.\d+ \(spec 1\)\n$/);
  });

  it("an unknown option or a missing module is one line on stderr, exit 2, nothing on stdout", () => {
    for (const [args, message] of [
      [["--bogus"], /unknown option --bogus/],
      [["./no-such.js"], /no such file .*no-such\.js/],
    ] as const) {
      const r = run(...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  });
});
