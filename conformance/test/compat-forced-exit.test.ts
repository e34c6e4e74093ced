// A run whose implementation left work that holds the process (an open() of a FIFO blocks a libuv thread for good,
// and even process.exit() waits to join it) still ends, seconds after its reports are written, and compat reads the
// run's own exit code and report instead of waiting for its 15-minute cap (a gemini-cli row was lost so).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { runSuites } from "../compat/run-suites.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");

it("a run held by a blocked thread ends by itself with its exit code, and compat keeps its report", async () => {
  const dir = mkdtempSync(join(tmpdir(), "forced-exit-"));
  try {
    const t0 = performance.now();
    const run = await runSuites(
      REPO,
      { id: "holds-fifo", kind: "module", spec: join(HERE, "faulty", "holds-fifo.mjs"), display: "holds-fifo" },
      undefined,
      join(dir, "r.json"),
      120_000,
      ["U01", "U02"],
    );
    expect(run.reason).toBeUndefined();
    expect(run.exit).toBe(1);
    expect((run.report as { aborted?: unknown } | undefined)?.aborted).toMatchObject({ at: "U01" });
    // Far below the cap: the case's deadline (5 s), the grace (2 s), start-up on a loaded machine.
    expect(performance.now() - t0).toBeLessThan(90_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
