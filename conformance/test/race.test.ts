// The race call of the case format (conformance/runner/race.ts, race-writer.ts): the writer really swaps the path
// and always leaves it as it found it, with no scratch left behind, when the race ends, when a try hangs past its
// deadline, and when the budget runs out; a race too slow to judge errors instead of passing on a few tries; an
// escape is counted and told as "k of N tries escaped". S30's mutant (mutants.test.ts) shows the check failing on a
// check-then-open implementation; the reference passes S30 in security.test.ts.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RaceCall, SkillResult } from "../../schemas/index.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { loadModule } from "../driver/in-process.ts";
import { REFERENCE_MODULE } from "../mutants/wrap.ts";
import { loadCases, runCase, type LoadedCase } from "../runner/index.ts";
import { SCRATCH, startWriter } from "../runner/race-writer.ts";

const S30 = loadCases("security", "S30")[0]!;
const RACE = S30.calls[1] as RaceCall;

/** S30 with only its race, changed by `f`. */
function raceCase(f: (r: RaceCall["race"]) => Partial<RaceCall["race"]>): LoadedCase {
  return { ...S30, calls: [{ ...RACE, race: { ...RACE.race, ...f(RACE.race) } }] };
}

/** The reference, with each call passed through `call` (which sees the temp dir's skills root). */
async function wrapped(
  call: (forward: () => Promise<SkillResult>, root: string, k: number) => Promise<SkillResult>,
): Promise<Implementation> {
  const ref = await loadModule(REFERENCE_MODULE);
  let k = 0;
  return {
    ...ref,
    async createSession(config, options) {
      const s = await ref.createSession(config, options);
      return { ...s, call: (p, o) => call(() => s.call(p, o), config.skill_roots[0]!, k++) };
    },
  };
}

/** The temp dir's state the writer is responsible for: where skills/victim points, and whether its scratch is left. */
function treeOf(root: string): { victim: string; scratch: boolean } {
  const tmp = join(root, "..");
  return { victim: readlinkSync(join(root, "victim")), scratch: existsSync(join(tmp, SCRATCH)) };
}

describe("the race's writer", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("swaps the path between its two targets, and on stop leaves it at the first with no scratch", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "race-writer-"));
    dirs.push(tmp);
    mkdirSync(join(tmp, "skills"));
    symlinkSync("../in", join(tmp, "skills", "victim"));
    const writer = await startWriter(tmp, { path: "skills/victim", targets: ["../in", "../out"] });
    const seen = new Set<string>();
    const until = Date.now() + 2000;
    while (seen.size < 2 && Date.now() < until) {
      seen.add(readlinkSync(join(tmp, "skills", "victim")));
      await new Promise((r) => setImmediate(r));
    }
    const swaps = await writer.stop();
    expect([...seen].sort()).toEqual(["../in", "../out"]);
    expect(swaps).toBeGreaterThan(0);
    expect(lstatSync(join(tmp, "skills", "victim")).isSymbolicLink()).toBe(true);
    expect(treeOf(join(tmp, "skills"))).toEqual({ victim: "../in", scratch: false });
  });
});

describe("a race case", () => {
  it("counts the tries that returned the marker and says how many of N escaped", async () => {
    // Every third try's body is swapped for the outside marker: 10 of 30.
    const impl = await wrapped(async (forward, _root, k) => {
      const r = await forward();
      return k % 3 === 1 && r.kind === "ok" ? { ...r, body: `${RACE.race.marker}\n` } : r;
    });
    const r = await runCase(
      impl,
      raceCase(() => ({ tries: 30 })),
      { profile: "exact" },
    );
    expect(r.status).toBe("failed");
    const escapes = r.mismatches!.find((m) => m.key === "escapes")!;
    expect(escapes).toMatchObject({ at: "calls[0].escapes", rules: ["fence.opened-file"], effect: "fails_case" });
    expect(escapes.actual).toMatch(/^\d+ of 30 tries escaped$/);
    expect(r.observed).toEqual([expect.objectContaining({ race: 30, escaped: expect.any(Number) })]);
  });

  it("a try that hangs is cut off by the case's deadline; the writer stops and the tree is restored", async () => {
    let root = "";
    const impl = await wrapped((forward, r, k) => {
      root = r;
      return k === 2 ? new Promise<SkillResult>(() => {}) : forward();
    });
    const r = await runCase(
      impl,
      raceCase(() => ({ tries: 50 })),
      { profile: "exact", timeoutMs: 300 },
    );
    expect({ status: r.status, blame: r.blame }).toEqual({ status: "errored", blame: "implementation" });
    expect(r.reason).toMatch(/did not answer within 300 ms/);
    // The hung call never settles, so the temp dir is kept (leftover.ts): the writer left it as it found it.
    expect(treeOf(root)).toEqual({ victim: "../store/victim", scratch: false });
    rmSync(join(root, ".."), { recursive: true, force: true });
  });

  it("a race whose budget runs out before its last try errors as a missed deadline, none escaped", async () => {
    let root = "";
    const impl = await wrapped(async (forward, r) => {
      root = r;
      await new Promise((done) => setTimeout(done, 20));
      return forward();
    });
    const r = await runCase(
      impl,
      raceCase(() => ({ tries: 1000, budget_ms: 200 })),
      { profile: "exact" },
    );
    expect(r.status).toBe("errored");
    expect(r.reason).toMatch(
      /budget of 200 ms was spent after \d+ of its 1000 tries \(none escaped\): too few to judge/,
    );
    expect(r.unchecked_rules).toContain("fence.opened-file");
    expect(existsSync(join(root, "..", SCRATCH))).toBe(false);
  });
});
