// Every scenario's checker, exercised through the real loop against the reference implementation (reached only
// through the driver interface): the good policy passes, every bad policy fails with a reason. Transcripts saved as
// JSONL re-score offline to the same verdicts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModule } from "../../conformance/driver/in-process.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { scriptedProvider } from "../providers/scripted.ts";
import { rescoreDir, runTrials } from "../run.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import type { TrialResult } from "../score.ts";

let impl: Implementation;
let dir: string;
let results: TrialResult[];

beforeAll(async () => {
  impl = await loadModule(join(import.meta.dirname, "..", "..", "reference", "index.ts"));
  dir = mkdtempSync(join(tmpdir(), "e2e-scen-test-"));
  const names = ["good", ...SCENARIOS.flatMap((s) => Object.keys(s.bad).map((k) => `bad-${k}`)), "bad"];
  results = await runTrials({
    scenarios: SCENARIOS,
    providers: names.map((n) => scriptedProvider(n, SCENARIOS)),
    implementation: impl,
    n: 1,
    concurrency: 8,
    temperature: 0,
    transcriptsDir: dir,
  });
  // ~25 policies × 8 scenarios of real bash and git: seconds alone, longer on a loaded machine.
}, 120_000);

afterAll(async () => {
  await impl?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const find = (model: string, scenario: string) => results.find((r) => r.model === model && r.scenario === scenario);

describe.each(SCENARIOS.map((s) => [s.id, s] as const))("%s", (id, scenario) => {
  it("the good policy passes", () => {
    const r = find("scripted:good", id);
    expect(r, "trial ran").toBeDefined();
    expect(r!.reason).not.toBe("");
    expect({ outcome: r!.outcome, reason: r!.reason }).toMatchObject({ outcome: "pass" });
  });
  it.each(Object.entries(scenario.bad))("bad-%s fails with a reason", (name) => {
    const r = find(`scripted:bad-${name}`, id);
    expect(r, "trial ran").toBeDefined();
    expect({ outcome: r!.outcome, reason: r!.reason }).toMatchObject({ outcome: "fail" });
    expect(r!.reason.length).toBeGreaterThan(10);
  });
  it("scripted:bad plays the scenario's first mistake and fails", () => {
    const r = find("scripted:bad", id);
    const first = find(`scripted:bad-${Object.keys(scenario.bad)[0]}`, id);
    expect(r?.outcome).toBe("fail");
    expect(r?.reason.replace(/\/tmp\/\S+/g, "")).toBe(first?.reason.replace(/\/tmp\/\S+/g, ""));
  });
});

describe("bookkeeping", () => {
  it("a named bad policy runs only where it is defined", () => {
    expect(results.filter((r) => r.model === "scripted:bad-refetch").map((r) => r.scenario)).toEqual(["SK3"]);
  });
  it("no trial errored", () => {
    expect(results.filter((r) => r.outcome === "error")).toEqual([]);
  });
  it("saved transcripts re-score offline to the same verdicts", () => {
    const again = rescoreDir(dir, SCENARIOS);
    expect(again).toHaveLength(results.length);
    const key = (r: TrialResult) => `${r.model} ${r.scenario} ${r.trial}`;
    const before = new Map(results.map((r) => [key(r), `${r.outcome}: ${r.reason}`]));
    for (const r of again) expect(`${r.outcome}: ${r.reason}`, key(r)).toBe(before.get(key(r)));
    expect(again.every((r) => r.modelKind === "scripted")).toBe(true);
  });
});
