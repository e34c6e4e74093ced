// e2e/README.md's "Reading a report" example is the report the command it names prints today: the matrix, the
// checker/fixture versions and each cost row's scenario, model, steps and retries are deterministic for the scripted
// self-test, so a change to the scenarios, the judge or the renderer that moves them fails here instead of leaving
// the page behind (issue 28 item 15). Token counts (they include the run's temp paths) and latencies vary from run to
// run and are left out of the comparison.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../package-root.ts";
import { runCli } from "./run-cli.ts";

const README = readFileSync(join(PACKAGE_ROOT, "e2e", "README.md"), "utf8");

/**
 * The report's lines without white space or dash runs (the formatter aligns the page's tables), and a cost row kept
 * to its scenario, model, steps and retries.
 */
const steady = (lines: string[]): string[] =>
  lines.map((l) => {
    const flat = l.replace(/\s+/g, "").replace(/-{3,}/g, "---");
    const cost = /^\|(SK\d)\|([^|]+)\|[^|]+\|[^|]+\|(\d+)\|[^|]+\|(\d+)\|$/.exec(flat);
    return cost ? `|${cost[1]}|${cost[2]}|…|…|${cost[3]}|…|${cost[4]}|` : flat;
  });

describe("e2e/README.md's report example", () => {
  it("is what the command it quotes prints now, but for token counts and latencies", async () => {
    const example = README.slice(README.indexOf("> # Skill tool e2e (SK1–SK8)"), README.indexOf("\nHow to read it:"));
    const quoted = example
      .trimEnd()
      .split("\n")
      .map((l) => l.replace(/^> ?/, ""));
    const dir = mkdtempSync(join(tmpdir(), "e2e-readme-"));
    try {
      const file = join(dir, "r.md");
      const run = await runCli([
        "--model",
        "scripted:good",
        "--model",
        "scripted:bad",
        "-n",
        "4",
        "--scenario",
        "SK1,SK4,SK7",
        "-k",
        "1,2",
        "--markdown",
        file,
      ]);
      expect(run.code, run.err).toBe(0);
      const made = readFileSync(file, "utf8").split("\n## Failures and errors")[0]!.trimEnd().split("\n");
      expect(steady(quoted)).toEqual(steady(made));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
