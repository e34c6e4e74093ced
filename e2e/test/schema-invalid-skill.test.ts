// A skill result its schema refuses ends the trial as an implementation error, in-process as over stdio: the stdio
// driver passes answers through for the conformance runner to judge, so the e2e loop checks them itself.
import { describe, expect, it } from "vitest";
import type { SkillResult } from "../../schemas/index.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { runTrial } from "../loop.ts";
import { scriptedProvider } from "../providers/scripted.ts";
import { SCENARIOS } from "../scenarios/index.ts";

describe("e2e loop", () => {
  it("ends a trial whose skill call is answered schema-invalid as an implementation error", async () => {
    const garbage: Implementation = {
      info: {
        implementation: { name: "garbage", version: "0", language: "typescript" },
        specVersion: "1",
        capabilities: {},
      },
      async createSession() {
        return {
          catalog: async () => ({
            tool_description: "Activate an installed skill by name.",
            entries: [],
            warnings: [],
          }),
          call: async () => ({ kind: "loaded", name: 42 }) as unknown as SkillResult,
          close: async () => {},
        };
      },
      async dispose() {},
    };
    const sk1 = SCENARIOS.find((s) => s.id === "SK1")!;
    const events = await runTrial({
      scenario: sk1,
      provider: scriptedProvider("good", SCENARIOS),
      implementation: garbage,
      trial: 1,
      temperature: 0,
    });
    const end = events.at(-1) as { type: string; outcome: string; error?: { kind: string; message: string } };
    expect(end).toMatchObject({ type: "end", outcome: "error", error: { kind: "implementation" } });
    expect(end.error!.message).toMatch(/schema-invalid result: \/kind must be/);
  });
});
