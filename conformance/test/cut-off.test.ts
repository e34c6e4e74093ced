// A case that misses its deadline in-process is cut off (issue 19 item 7): the kit stops waiting, calls close(),
// waits one more deadline for the calls close() must answer (PROTOCOL.md), and removes the case's temp dir only once
// its work has settled. Work close() leaves running ends an in-process run there, said once, instead of running
// into the next case (over stdio the kit kills the process instead). A closed in-process session refuses the kit.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { check, type SkillResult } from "../../schemas/index.ts";
import type { InProcessModule } from "../../schemas/implementation.ts";
import { DriverError } from "../driver/errors.ts";
import { fromModule } from "../driver/in-process.ts";
import { loadCases, runSuite, type RunAbort } from "../runner/index.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A harness with one worker for the whole process (module-level, shared by every session), 2 ms per call. Its
 * close() either answers the session's queued calls at once (as PROTOCOL.md asks) or ignores them. Each call
 * notes whether its session's skill root still existed when it ran.
 */
function sharedWorker(closeCancels: boolean) {
  const seen = { ran: 0, rootGone: 0, cancelled: 0 };
  let tail: Promise<unknown> = Promise.resolve();
  const mod: InProcessModule = {
    implementationInfo: {
      implementation: { name: "shared-worker", version: "0", language: "typescript" },
      specVersion: "1",
      capabilities: {},
    },
    createSession(config) {
      const root = config.skill_roots[0]!;
      let closed = false;
      const loaded = new Set<string>();
      const answer = (name: string): SkillResult => {
        if (name === "")
          return {
            kind: "error",
            code: "INVALID_PARAM",
            message: "empty name",
            output: "Error [INVALID_PARAM]: empty name",
          };
        if (loaded.has(name)) return { kind: "already_loaded", name, at_turn: 1, output: "already" };
        loaded.add(name);
        return {
          kind: "ok",
          name,
          dir: `${root}/${name}`,
          body: "Say hello.\n",
          frontmatter: { name, description: "d" },
          resources: [],
          bytes: 11,
          output: "<skill/>",
        };
      };
      return {
        catalog: async () => ({ tool_description: "fake", entries: [], warnings: [] }),
        call: (params) => {
          const name = String((params as { name?: unknown }).name ?? "");
          const run = tail.then(async (): Promise<SkillResult> => {
            if (closed && closeCancels) {
              seen.cancelled++;
              return {
                kind: "error",
                code: "INVALID_PARAM",
                message: "session closed",
                output: "Error [INVALID_PARAM]: session closed",
              };
            }
            await sleep(2);
            seen.ran++;
            if (!existsSync(root)) seen.rootGone++;
            return answer(name);
          });
          tail = run;
          return run;
        },
        close: async () => {
          closed = true;
        },
      };
    },
  };
  return { mod, seen, idle: () => tail };
}

const s16ThenU01 = () => [...loadCases("security", "S16"), ...loadCases("spec", "U01")];

describe("a case cut off at its deadline, in-process", () => {
  it("close() that answers pending calls: the case errors on its deadline and the next case runs untouched", async () => {
    const w = sharedWorker(true);
    const report = await runSuite(async () => fromModule(w.mod), s16ThenU01(), {
      driverLabel: "shared-worker",
      suite: "mixed",
      timeoutMs: 300,
    });
    const [s16, u01] = report.cases;
    expect(s16!.status).toBe("errored");
    expect(s16!.reason).toMatch(/did not answer within 300 ms/);
    expect(s16!.leftover).toBeUndefined();
    expect(w.seen.cancelled).toBeGreaterThan(500);
    expect(u01!.status, u01!.reason).toBe("passed");
    expect(report.aborted).toBeUndefined();
    expect(w.seen.rootGone).toBe(0);
  });

  it("close() that leaves them running: reported on the case that left them, the run ends there, and no temp dir is removed under them", async () => {
    const w = sharedWorker(false);
    const aborts: RunAbort[] = [];
    const report = await runSuite(async () => fromModule(w.mod), s16ThenU01(), {
      driverLabel: "shared-worker",
      suite: "mixed",
      timeoutMs: 300,
      onAbort: (a) => aborts.push(a),
    });
    const [s16, u01] = report.cases;
    expect(s16!.status).toBe("errored");
    expect(s16!.reason).toMatch(
      /did not answer within 300 ms; close\(\) left \d+ of this case's call\(s\) unanswered \d+ ms after it returned \(PROTOCOL\.md/,
    );
    expect(s16!.leftover!.pending).toBeGreaterThan(100);
    // The next case is not run beside that work (it would queue behind it and time out, blamed for S16's work).
    expect(u01!.status).toBe("errored");
    expect(u01!.reason).toMatch(/^not run: case S16 left \d+ call\(s\) running after close\(\)/);
    expect(aborts).toHaveLength(1);
    expect(aborts[0]).toMatchObject({ at: "S16", not_run: 1 });
    expect(check("report.schema.json", JSON.parse(JSON.stringify(report)))).toEqual({ valid: true });
    // The leftover work finishes in S16's own temp dir, which is removed only once it has.
    await w.idle();
    expect(w.seen.ran).toBe(1000);
    expect(w.seen.rootGone).toBe(0);
  }, 30_000);

  it("a call that never settles: the case errors on its deadline, the leftover is named, the run ends there", async () => {
    const hangs: InProcessModule = {
      createSession: () => ({
        catalog: async () => ({ tool_description: "fake", entries: [], warnings: [] }),
        call: () => new Promise<SkillResult>(() => {}),
        close: async () => {},
      }),
    };
    const report = await runSuite(async () => fromModule(hangs), loadCases("spec", "U01,U02"), {
      driverLabel: "hangs",
      suite: "spec",
      timeoutMs: 200,
    });
    expect(report.cases[0]!.reason).toMatch(
      /call 0 .* did not answer within 200 ms; close\(\) left 1 of this case's call\(s\) unanswered/,
    );
    expect(report.cases[1]!.reason).toMatch(/^not run: case U01 left 1 call\(s\) running/);
    expect(report.summary.duration_ms).toBeLessThan(5_000);
  });

  it("a closed session refuses the kit's calls (a kit fault), without reaching the implementation", async () => {
    let calls = 0;
    const impl = fromModule({
      createSession: () => ({
        catalog: async () => ({ tool_description: "fake", entries: [], warnings: [] }),
        call: async () => (calls++, { kind: "not_found", name: "x", siblings: [], output: "none" }),
        close: async () => {},
      }),
    });
    const s = await impl.createSession({ skill_roots: ["/nonexistent"] }, {});
    await s.close();
    const err = await s.call({ name: "x" }, { invocation: "model" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverError);
    expect((err as DriverError).blame).toBe("kit");
    expect(calls).toBe(0);
  });
});
