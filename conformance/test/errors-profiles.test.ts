// Errors and profiles (issue 25, deliver 4): a crash, a throw or a dead session is §3.4's errors.structured under
// every profile; a missed deadline in a case whose rules the profile scores none of is shown and not scored; a rule
// is never passed when a case that checks it ended before checking it; a finding a later call shows only because an
// earlier call went wrong says so (a cascade). Each implementation here is the reference with one step broken.
import { describe, expect, it } from "vitest";
import { errorResult, nameOf, wrapReference, type Mutation } from "../mutants/wrap.ts";
import { loadCases, runSuite, type RunReport } from "../runner/index.ts";
import type { Profile } from "../runner/rules.ts";

const run = (m: Mutation, suite: string, id: string, profile: Profile, timeoutMs?: number): Promise<RunReport> =>
  runSuite(() => wrapReference("broken", m), loadCases(suite, id), {
    driverLabel: "broken",
    suite,
    profile,
    ...(timeoutMs ? { timeoutMs } : {}),
  });

const rule = (r: RunReport, id: string) => r.rules.find((x) => x.id === id)!;

/** Throws on the activation of `name`, as an implementation with an uncaught exception would. */
const throwsOn = (name: string): Mutation => ({
  before: (p) => {
    if (nameOf(p) === name) throw new RangeError("Maximum call stack size exceeded");
    return undefined;
  },
});

/** Answers the activation of `name` only after `ms` (past the case's deadline), then as the reference would. */
const hangsOn = (name: string, ms: number): Mutation => ({
  before: async (p, o, ctx) => {
    if (nameOf(p) !== name) return undefined;
    await new Promise((r) => setTimeout(r, ms));
    return ctx.forward(p, o);
  },
});

describe("a crash is errors.structured under every profile", () => {
  it("S07 tests only decisions; a throw on its alias bomb still fails §3.4's errors.structured under spec, decisions and exact", async () => {
    for (const profile of ["spec", "decisions", "exact"] as const) {
      const r = await run(throwsOn("bomb"), "security", "S07", profile);
      expect(r.cases[0]!.status, profile).toBe("errored");
      expect(rule(r, "errors.structured"), profile).toMatchObject({ status: "failed", cases: ["S07"] });
      expect(r.cases[0]!.mismatches!.find((m) => m.key === "fault")).toMatchObject({
        rules: ["errors.structured"],
        what: "the implementation crashed instead of answering",
      });
    }
  }, 60_000);
});

describe("a missed deadline", () => {
  it("in a case whose rules the profile scores none of is shown and not scored; under a profile that scores them it errors", async () => {
    const spec = await run(hangsOn("bomb", 1500), "security", "S07", "spec", 400);
    expect(spec.cases[0]).toMatchObject({
      status: "not_scored",
      reason: expect.stringMatching(/did not answer within 400 ms.*: a missed deadline, not scored \(profile spec/),
    });
    expect(rule(spec, "errors.structured").status).not.toBe("failed");
    expect(spec.summary).toMatchObject({ errored: 0, not_scored: 1 });
    const decisions = await run(hangsOn("bomb", 1500), "security", "S07", "decisions", 400);
    expect(decisions.cases[0]!.status).toBe("errored");
    // Its own rule was never shown to hold: not passed.
    expect(rule(decisions, "yaml.aliases")).toMatchObject({ status: "errored", note: expect.stringContaining("S07") });
  }, 60_000);
});

describe("no rule passes on a case that did not check it", () => {
  it("S12's deep YAML crashing the parser: yaml.deep-structured is not passed (errored), errors.structured failed", async () => {
    const r = await run(throwsOn("deep-seq"), "security", "S12", "spec");
    expect(r.cases[0]!.status).toBe("errored");
    expect(r.cases[0]!.unchecked_rules).toEqual(expect.arrayContaining(["yaml.deep-structured"]));
    expect(rule(r, "yaml.deep-structured").status).toBe("errored");
    expect(rule(r, "errors.structured")).toMatchObject({ status: "failed", cases: ["S12"] });
    expect(r.score.rules.passed + r.score.rules.failed + r.score.rules.errored).toBeGreaterThan(0);
    expect(r.rules.filter((x) => x.status === "passed").map((x) => x.id)).not.toContain("yaml.deep-structured");
  }, 60_000);
});

describe("a cascade says so", () => {
  it("U17: a first activation refused makes the second call's kind wrong too; that finding names the call it may follow from", async () => {
    let calls = 0;
    const refuseFirst: Mutation = {
      before: (p) =>
        calls++ === 0 ? errorResult("NOT_TRUSTED", nameOf(p) ?? "", `skill "${nameOf(p)}" is not trusted`) : undefined,
    };
    const r = await run(refuseFirst, "spec", "U17", "spec");
    const ms = r.cases[0]!.mismatches!;
    expect(ms.find((m) => m.at === "calls[0].kind")!.after).toBeUndefined();
    expect(ms.find((m) => m.at === "calls[1].kind")).toMatchObject({
      after: "calls[0]",
      message: expect.stringContaining("after calls[0] went wrong"),
    });
    // dedupe.already-loaded is shown only by the cascade: its verdict says so.
    expect(rule(r, "dedupe.already-loaded")).toMatchObject({
      status: "failed",
      note: expect.stringContaining("U17 calls[0]"),
    });
  });
});
