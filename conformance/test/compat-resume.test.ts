// An interrupted compat run is never lost: the work directory it printed holds each report it finished, and
// `--resume <dir>` uses those instead of running the target again. Shown with a report only a resumed run can
// have come from (the reference run on one case): the row is built from it, nothing is run, and the dir is kept.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

  it("--no-reruns names the load-dependent cases as not rerun, and still uses a rerun the interrupted run made", async () => {
    const own = mkdtempSync(join(tmpdir(), "compat-resume-"));
    try {
      const file = join(own, "reference.json");
      const r = spawnSync(
        process.execPath,
        cliArgs(PACKAGE_ROOT, [
          "--reference",
          "--suite",
          "all",
          "--filter",
          "S16",
          "--profile",
          "exact",
          "--json",
          file,
        ]),
        { cwd: PACKAGE_ROOT, encoding: "utf8", timeout: 120_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      // The passed report stands for the rerun; the first run is made to have missed S16's 4 s by a little (K123).
      copyFileSync(file, join(own, "rerun-kept.json"));
      const report = JSON.parse(readFileSync(file, "utf8"));
      const s16 = report.cases.find((c: { id: string }) => c.id === "S16");
      Object.assign(s16, {
        status: "failed",
        mismatches: [
          {
            at: "calls[0].time",
            key: "max_ms",
            rules: ["limits.in-time"],
            effect: "fails_case",
            expected: "an answer within 4000 ms",
            actual: "5200 ms",
            what: "too slow",
            message: "too slow",
          },
        ],
      });
      writeFileSync(file, JSON.stringify(report));
      const run = () => {
        const lines: string[] = [];
        const result = runCompat({
          root: PACKAGE_ROOT,
          only: ["reference"],
          install: false,
          skills: 0,
          resume: own,
          reruns: false,
          log: (l) => lines.push(l),
        });
        return result.then((x) => ({ row: x.implementations.find((i) => i.id === "reference")!, lines }));
      };
      const first = await run();
      expect(first.row.not_rerun).toEqual(["S16"]);
      expect(first.row.reruns).toBeUndefined();
      expect(first.lines.some((l) => l.includes("once more"))).toBe(false);
      copyFileSync(join(own, "rerun-kept.json"), join(own, "reference-rerun.json"));
      const second = await run();
      expect(second.row.not_rerun).toBeUndefined();
      expect(second.row.reruns).toEqual([{ case: "S16", first: "failed", rerun: "passed", flipped: true }]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 180_000);
});
