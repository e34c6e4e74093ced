// An interrupted compat run is never lost: the work directory it printed holds each report it finished, and
// `--resume <dir>` uses those instead of running the target again. Shown with a report only a resumed run can
// have come from (the reference run on one case): the row is built from it, nothing is run, and the dir is kept.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../package-root.ts";
import { runCompat } from "../compat/index.ts";
import { cliArgs } from "../compat/run-suites.ts";

const dir = mkdtempSync(join(tmpdir(), "compat-resume-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("compat --resume", () => {
  it("builds a target's row from the report an interrupted run left, without running it again", async () => {
    const file = join(dir, "reference.json");
    const r = spawnSync(
      process.execPath,
      cliArgs(PACKAGE_ROOT, ["--reference", "--suite", "all", "--filter", "U01", "--profile", "exact", "--json", file]),
      { cwd: PACKAGE_ROOT, encoding: "utf8", timeout: 120_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const lines: string[] = [];
    const result = await runCompat({
      root: PACKAGE_ROOT,
      only: ["reference"],
      install: false,
      skills: 0,
      resume: dir,
      log: (l) => lines.push(l),
    });
    const row = result.implementations.find((i) => i.id === "reference")!;
    const spec = row.cells.find((c) => c.profile === "exact" && c.suite === "spec")!;
    // A fresh run would have judged all 30 spec cases; the kept report holds one.
    expect(spec.passed).toBe(1);
    expect(lines.some((l) => l.includes("report from the interrupted run is used"))).toBe(true);
    expect(existsSync(file)).toBe(true);
  }, 180_000);
});
