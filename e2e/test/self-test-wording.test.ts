// The scripted self-test reads the skill tool's structured result (kind, code, siblings, dir, body), never the
// reference's wording (issue 20 item 5): scripted:good must pass every scenario against an implementation that says the
// same things in its own words, and scripted:bad must still fail each. Before the policies read the structured result,
// SK2's good policy looked for the reference's "No skill matches … Did you mean:" and failed here.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModule } from "../../conformance/driver/in-process.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import type { SkillResult } from "../../schemas/index.ts";
import { scriptedProvider } from "../providers/scripted.ts";
import { runTrials } from "../run.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import type { TrialResult } from "../score.ts";

/** Same results, other words: no `<skill … dir=…>` block, no "Did you mean:", no "Error [CODE]". */
function reword(r: SkillResult): SkillResult {
  switch (r.kind) {
    case "ok":
      return {
        ...r,
        output: `=== skill ${r.name} loaded from ${r.dir} ===\n${r.body}\n(files: ${r.resources.join(", ") || "none"})`,
      };
    case "not_found":
      return {
        ...r,
        output: `There is no skill called '${r.name}'. Close matches: ${r.siblings.join(" | ") || "nothing"}.`,
      };
    case "already_loaded":
      return { ...r, output: `'${r.name}' is in the conversation already; its instructions above still apply.` };
    case "error":
      return { ...r, output: `Refused (${r.code.toLowerCase()}): ${r.message}` };
  }
}

function ownWording(inner: Implementation): Implementation {
  return {
    info: inner.info,
    dispose: () => inner.dispose(),
    async createSession(config, options) {
      const s = await inner.createSession(config, options);
      return {
        catalog: () => s.catalog(),
        close: () => s.close(),
        call: async (params, o) => reword(await s.call(params, o)),
      };
    },
  };
}

let impl: Implementation;
let results: TrialResult[];

beforeAll(async () => {
  impl = ownWording(await loadModule(join(import.meta.dirname, "..", "..", "reference", "index.ts")));
  results = await runTrials({
    scenarios: SCENARIOS,
    providers: [scriptedProvider("good", SCENARIOS), scriptedProvider("bad", SCENARIOS)],
    implementation: impl,
    n: 1,
    concurrency: 8,
    temperature: 0,
  });
}, 60_000);
afterAll(async () => impl?.dispose());

describe("scripted policies read the structured result, not the reference's wording", () => {
  it("scripted:good passes every scenario against an implementation with its own wording", () => {
    const good = results.filter((r) => r.model === "scripted:good");
    expect(good).toHaveLength(SCENARIOS.length);
    expect(good.filter((r) => r.outcome !== "pass").map((r) => `${r.scenario}: ${r.outcome} (${r.reason})`)).toEqual(
      [],
    );
  });
  it("scripted:bad still fails every scenario there", () => {
    const bad = results.filter((r) => r.model === "scripted:bad");
    expect(bad.filter((r) => r.outcome !== "fail").map((r) => `${r.scenario}: ${r.outcome} (${r.reason})`)).toEqual([]);
  });
});
