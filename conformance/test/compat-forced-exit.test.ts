// A run whose implementation left work that holds the process (an open() of a FIFO blocks a libuv thread for good,
// and even process.exit() waits to join it) still ends, seconds after its reports are written, and compat reads the
// run's own exit code and report instead of waiting for its 15-minute cap (a gemini-cli row was lost so). A
// compatibility run serves such a module over stdio instead, so the cases after it are not lost.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { runSuites } from "../compat/run-suites.ts";
import { servedOverStdio, type Target } from "../compat/targets.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const HOLDS_FIFO: Target = {
  id: "holds-fifo",
  kind: "module",
  spec: join(HERE, "faulty", "holds-fifo.mjs"),
  display: "holds-fifo",
};

it("a run held by a blocked thread ends by itself with its exit code, and compat keeps its report", async () => {
  const dir = mkdtempSync(join(tmpdir(), "forced-exit-"));
  try {
    const t0 = performance.now();
    const run = await runSuites(REPO, HOLDS_FIFO, undefined, join(dir, "r.json"), 120_000, ["U01", "U02"]);
    expect(run.reason).toBeUndefined();
    expect(run.exit).toBe(1);
    expect((run.report as { aborted?: unknown } | undefined)?.aborted).toMatchObject({ at: "U01" });
    // Far below the cap: the case's deadline (5 s), the grace (2 s), start-up on a loaded machine.
    expect(performance.now() - t0).toBeLessThan(90_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

it("compat serves a module over stdio: the held process is killed at the deadline and the next case still runs", async () => {
  const dir = mkdtempSync(join(tmpdir(), "forced-exit-"));
  try {
    const run = await runSuites(REPO, servedOverStdio(REPO, HOLDS_FIFO), undefined, join(dir, "r.json"), 120_000, [
      "U01",
      "U02",
    ]);
    const cases = (run.report as { cases: { id: string; status: string; reason?: string }[] } | undefined)?.cases;
    expect((run.report as { aborted?: unknown } | undefined)?.aborted).toBeUndefined();
    // Each case opened its own process (the first was held, then killed); neither is "not run".
    expect(cases?.map((c) => [c.id, c.status])).toEqual([
      ["U01", "errored"],
      ["U02", "errored"],
    ]);
    expect(cases?.every((c) => !c.reason?.startsWith("not run"))).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
