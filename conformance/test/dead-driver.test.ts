// Fail fast on a dead driver (issue 20 item 2): an implementation whose handshake fails or never comes ends the run,
// said once, with the real time the attempt took; the cases left are errored without a handshake each. `--timeout`
// governs the handshake. A missing binary is one line. Also what a failure carries to act on (item 6): an in-process
// throw's stack, the case file and the command that reruns it.
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { check, type SkillResult } from "../../schemas/index.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { main } from "../../scripts/conformance.ts";
import { formatCase } from "../report/console.ts";
import { renderJunit } from "../report/junit.ts";
import { renderMarkdown } from "../report/markdown.ts";
import { spawnImplementation } from "../driver/subprocess.ts";
import { loadCases, runSuite, type RunAbort } from "../runner/index.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const SILENT = `"${process.execPath}" "${join(HERE, "faulty", "silent.mjs")}"`;

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const t0 = performance.now();
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n"), ms: performance.now() - t0 };
}

describe("a driver that never answers", () => {
  it("ends the run after one handshake: the first case says why (real time), the rest are errored as not run", async () => {
    const aborts: RunAbort[] = [];
    const shown: string[] = [];
    const cases = loadCases("spec");
    const report = await runSuite(
      // A shell starts in milliseconds, so its stderr line is there well before the deadline even on a loaded machine.
      () => spawnImplementation(`printf 'silent: started\\n' >&2; exec sleep 60`, { requestTimeoutMs: 400, cwd: REPO }),
      cases,
      { driverLabel: "silent", suite: "spec", onAbort: (a) => aborts.push(a), onResult: (r) => shown.push(r.id) },
    );
    expect(report.summary).toMatchObject({ total: cases.length, errored: cases.length, passed: 0 });
    expect(aborts).toHaveLength(1);
    expect(aborts[0]).toMatchObject({ at: "U01", not_run: cases.length, blame: "implementation" });
    expect(aborts[0]!.reason).toMatch(/no response to initialize within 400 ms/);
    expect(aborts[0]!.stderr).toContain("silent: started");
    expect(aborts[0]!.after_ms).toBeGreaterThanOrEqual(390);
    expect(report.aborted).toEqual(aborts[0]);
    expect(renderMarkdown(report)).toMatch(
      /\*\*The run ended at U01\*\*: opening the implementation: no response to initialize within 400 ms/,
    );
    expect(check("report.schema.json", JSON.parse(JSON.stringify(report)))).toEqual({ valid: true });
    // Said once: no per-case lines for a run that never started.
    expect(shown).toEqual([]);
    const [first, ...rest] = report.cases;
    expect(first!.duration_ms).toBeGreaterThanOrEqual(390);
    expect(rest.every((c) => c.status === "errored" && c.duration_ms === 0 && /^not run: /.test(c.reason!))).toBe(true);
    // One handshake was waited for, not thirty (thirty would be 12 s): the run took about one deadline, with room for a
    // loaded machine's slow spawn.
    expect(report.summary.duration_ms).toBeLessThan(400 * 10);
  });

  it("from the command line, with the default deadline: exit 2 (the run never started), one reason, the real time, nothing run", async () => {
    const r = await run("--exec", SILENT);
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(60_000);
    const m =
      /^skill-conformance: cannot start --exec .*silent\.mjs"?: no response to initialize within 20000 ms \(after (\d+) ms; nothing was run\)/.exec(
        r.err,
      );
    expect(m, r.err).not.toBeNull();
    // The time the handshake really took, not the instant a primed open returns (issue 28 item 7: "after 0 ms").
    expect(Number(m![1])).toBeGreaterThanOrEqual(19_900);
    expect(r.out).not.toMatch(/^ERROR/m);
    expect(r.out).not.toMatch(/passed/);
  }, 60_000);

  it("--timeout governs the handshake too", async () => {
    const r = await run("--exec", SILENT, "--timeout", "300");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no response to initialize within 300 ms \(after \d{3,} ms/);
    expect(r.ms).toBeLessThan(10_000);
  });

  it("a missing binary is one line, exit 2", async () => {
    const r = await run("--exec", "definitely-not-a-skill-driver-xyz");
    expect(r.code).toBe(2);
    expect(r.err.split("\n")).toHaveLength(1);
    expect(r.err).toMatch(
      /^skill-conformance: cannot start --exec definitely-not-a-skill-driver-xyz: implementation exited with code 127 \(command not found: .*definitely-not-a-skill-driver-xyz.*not found\)/,
    );
    expect(r.out).not.toMatch(/code 127/);
  });
});

describe("a driver that dies before answering initialize (issue 28 items 7, deliver 3)", () => {
  // A driver that names a missing script exits at once, as `python3 ./missing.py` does: the run ends then, not at the
  // handshake's deadline, exit 2, with what the driver said on stderr.
  const DIES = `"${process.execPath}" -e "process.stderr.write('loading config\\nError: cannot open ./missing.py\\n'); process.exit(2)"`;
  // exec: the shell the kit starts the command line with would otherwise keep stdout open itself.
  const CLOSES = `exec "${process.execPath}" -e "process.stderr.write('closing stdout now\\n'); require('fs').closeSync(1); setTimeout(() => {}, 30000)"`;

  it("exits before initialize: exit 2 at once, its stderr tail, nothing run", async () => {
    const r = await run("--exec", DIES);
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(10_000);
    expect(r.err).toMatch(
      /cannot start --exec .*: implementation exited with code 2 \(after \d+ ms; nothing was run\); its stderr ends:\n {2}\| loading config\n {2}\| Error: cannot open \.\/missing\.py$/,
    );
    expect(r.out).not.toMatch(/passed/);
  });

  it("closes stdout before initialize: the run ends then (not at the 20 s deadline), exit 2", async () => {
    const r = await run("--exec", CLOSES);
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(10_000);
    expect(r.err).toMatch(/cannot start --exec .*: implementation closed its stdout before answering initialize/);
    expect(r.err).toMatch(/\| closing stdout now/);
  });

  it("smoke says the handshake's real time and exits 2 when initialize never came", async () => {
    const r = await run("--smoke", "--exec", SILENT, "--timeout", "300");
    expect(r.code).toBe(2);
    const m = /FAILED\s+initialize .*\((\d+) ms\)/s.exec(r.out);
    expect(m, r.out).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(290);
  });

  it("a run's first case carries the handshake's real time, not the instant a primed open returns", async () => {
    const slowStart = `sleep 0.8; exec "${process.execPath}" "${join(HERE, "faulty", "wrong.mjs")}"`;
    const json = join(tmpdir(), `skill-dead-driver-${process.pid}.json`);
    const r = await run("--exec", slowStart, "--filter", "U01", "--json", json);
    expect(r.code, r.err).toBeLessThan(2);
    const report = JSON.parse(readFileSync(json, "utf8"));
    rmSync(json, { force: true });
    expect(report.cases[0].duration_ms).toBeGreaterThanOrEqual(800);
  }, 60_000);
});

describe("what a failure carries", () => {
  it("an in-process throw shows the top of its stack; a failure its case file and the command that reruns it", async () => {
    function throwsHere(): never {
      throw new RangeError("index out of range in the fake");
    }
    const impl: Implementation = {
      info: {
        implementation: { name: "thrower", version: "0", language: "typescript" },
        specVersion: "1",
        capabilities: {},
      },
      async createSession() {
        return {
          catalog: async () => ({ tool_description: "fake", entries: [], warnings: [] }),
          call: async (p): Promise<SkillResult> => {
            if ((p as { name?: string }).name === "hello") throwsHere();
            return { kind: "not_found", name: "", siblings: [], output: "none" };
          },
          close: async () => {},
        };
      },
      async dispose() {},
    };
    const report = await runSuite(async () => impl, loadCases("spec", "U01,U02"), {
      driverLabel: "thrower",
      suite: "spec",
      rerun: "skill-conformance --driver ./thrower.js",
    });
    const [u01, u02] = report.cases;
    expect(u01!.status).toBe("errored");
    expect(u01!.reason).toMatch(/threw RangeError: index out of range in the fake/);
    expect(u01!.stack!.split("\n")[0]).toMatch(/^at throwsHere \(.*dead-driver\.test\.ts:\d+:\d+\)$/);
    expect(u01!.rerun).toBe("skill-conformance --driver ./thrower.js --suite spec --filter U01");
    expect(u01!.file).toBe(join("conformance", "cases", "U01.json"));
    expect(u02!.rerun).toBe("skill-conformance --driver ./thrower.js --suite spec --filter U02");
    // Every renderer carries them.
    for (const text of [formatCase(u01!), renderJunit(report), renderMarkdown(report)]) {
      expect(text).toContain("skill-conformance --driver ./thrower.js --suite spec --filter U01");
      expect(text).toMatch(/stack \(top\):/);
      expect(text).toContain(join("conformance", "cases", "U01.json"));
    }
  });
});
