// `--jobs N` (runner/schedule.ts): N cases at once give the report one case at a time gives, verdict for verdict and
// in case order (only times differ); cases whose verdict is timed (max_ms) run after the others and alone; a run
// that ends early ends the same way. Reference in-process, a wrong implementation over stdio, and a recording fake.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Implementation } from "../../schemas/implementation.ts";
import { loadModule } from "../driver/in-process.ts";
import { spawnImplementation } from "../driver/subprocess.ts";
import { loadCases, runSuite, suites, type LoadedCase, type RunReport } from "../runner/index.ts";
import { startOrder, timeBound } from "../runner/schedule.ts";
import { main } from "../../scripts/conformance.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const ALL = suites().flatMap((s) => loadCases(s));

/** The report without what depends on the clock: durations, the start time, an abort's elapsed time. */
function verdicts(r: RunReport): unknown {
  return JSON.parse(
    JSON.stringify(r, (k, v: unknown) =>
      ["duration_ms", "started_at", "after_ms", "waited_ms"].includes(k) ? undefined : v,
    ),
  );
}

const run = (open: () => Promise<Implementation>, cases: readonly LoadedCase[], jobs: number) =>
  runSuite(open, cases, { driverLabel: "x", suite: "all", profile: "exact", jobs, timeoutMs: 20_000 });

describe("--jobs N reports what one case at a time reports", () => {
  it("the reference in-process, every suite: the same verdicts, mismatches and rules, in case order", async () => {
    const open = () => loadModule(join(REPO, "reference", "index.ts"));
    const one = await run(open, ALL, 1);
    const four = await run(open, ALL, 4);
    expect(four.cases.map((c) => c.id)).toEqual(ALL.map((c) => c.id));
    expect(verdicts(four)).toEqual(verdicts(one));
    expect(one.summary.passed).toBe(ALL.length);
  }, 300_000);

  it("a wrong implementation over stdio (each lane its own process): the same failures", async () => {
    const cases = [...loadCases("spec"), ...loadCases("security")];
    const open = () =>
      spawnImplementation(`"${process.execPath}" "${join(HERE, "faulty", "wrong.mjs")}"`, { cwd: REPO });
    const one = await run(open, cases, 1);
    const three = await run(open, cases, 3);
    expect(one.summary.failed).toBeGreaterThan(10);
    expect(verdicts(three)).toEqual(verdicts(one));
  }, 300_000);

  it("a driver that never answers ends the run the same way: the first case says why, the rest not run", async () => {
    const cases = loadCases("spec");
    const open = () => spawnImplementation(`exec sleep 60`, { requestTimeoutMs: 300, cwd: REPO });
    const one = await run(open, cases, 1);
    const three = await run(open, cases, 3);
    expect(one.aborted).toMatchObject({ at: cases[0]!.id, not_run: cases.length });
    expect(verdicts(three)).toEqual(verdicts(one));
  }, 60_000);
});

describe("the schedule of --jobs N", () => {
  it("timed cases (some max_ms) are known from the case files: S16's 1,000 calls among them, U01 not", () => {
    const timed = ALL.filter(timeBound).map((c) => c.id);
    expect(timed).toContain("S16");
    expect(timed).not.toContain("U01");
    expect(startOrder(ALL, 1)).toEqual({ together: [], alone: ALL.map((_, k) => k) });
  });

  it("runs the other cases side by side, then each timed case alone, after all of them", async () => {
    // Without race cases (S30): a race opens sessions of its own side by side inside its case, by design.
    const cases = loadCases("security").filter((c) => !c.calls.some((call) => "race" in call));
    let active = 0;
    const log: { beside: number }[] = [];
    // A fake whose sessions record how many sessions were open beside them; the verdicts do not matter here.
    const open = async (): Promise<Implementation> => ({
      info: { implementation: { name: "rec", version: "0", language: "ts" }, specVersion: "1", capabilities: {} },
      async createSession() {
        active++;
        const entry = { beside: active - 1 };
        log.push(entry);
        await new Promise((r) => setTimeout(r, 20));
        return {
          catalog: async () => ({ tool_description: "t", entries: [], warnings: [] }),
          call: async () => ({ kind: "error", code: "NOT_FOUND", message: "no" }) as never,
          close: async () => {
            entry.beside = Math.max(entry.beside, active - 1);
            active--;
          },
        };
      },
      async dispose() {},
    });
    const report = await runSuite(open, cases, { driverLabel: "rec", suite: "security", jobs: 3, timeoutMs: 5000 });
    expect(report.cases.map((c) => c.id)).toEqual(cases.map((c) => c.id));
    const timedCount = cases.filter(timeBound).length;
    const starts = log.length;
    // The last sessions opened are the timed cases', each alone; before them, some sessions overlapped.
    const tail = log.slice(starts - timedCount);
    expect(tail.every((e) => e.beside === 0)).toBe(true);
    expect(log.slice(0, starts - timedCount).some((e) => e.beside > 0)).toBe(true);
  }, 120_000);
});

describe("--jobs on the command line", () => {
  it("wants an integer ≥ 1, and only with a suite run: a usage error (exit 2) otherwise", async () => {
    for (const argv of [
      ["--reference", "--jobs", "0"],
      ["--reference", "--jobs", "two"],
      ["--reference", "--smoke", "--jobs", "2"],
    ]) {
      const err: string[] = [];
      expect(await main(argv, { out: () => {}, err: (l) => err.push(l) })).toBe(2);
      expect(err.join("\n")).toMatch(/--jobs/);
    }
  });
});
