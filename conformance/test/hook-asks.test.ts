// An ask the case did not script is answered deny by the kit; what the call returns then is the kit's doing. The
// runner reports the ask itself as its own finding, first, under its rule, and does not judge that call's result
// (which would blame the implementation for the kit's deny as a wrong kind).
import { describe, expect, it } from "vitest";
import type { PermissionDecision, SkillResult } from "../../schemas/index.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { UNSCRIPTED_ASK_RULE } from "../runner/hook.ts";
import { loadCases, runCase, type LoadedCase } from "../runner/index.ts";

/** Asks the hook on every call, before dedupe (U27 wants the second call answered already_loaded without an ask). */
function asksEveryCall(): Implementation {
  return {
    info: {
      implementation: { name: "asks-every-call", version: "0", language: "typescript" },
      specVersion: "1",
      capabilities: {},
    },
    async createSession(config, { hook }) {
      let loaded = false;
      return {
        catalog: async () => ({ tool_description: "fake", entries: [], warnings: [] }),
        call: async (): Promise<SkillResult> => {
          const dir = `${config.skill_roots[0]}/hello`;
          const decision: PermissionDecision = await hook!({
            tool: "skill",
            action: "activate",
            path: dir,
            always_patterns: ["Skill(name:hello)"],
            metadata: { name: "hello", root_index: 0, frontmatter: { allowed_tools: [] }, reason: "normal" },
          });
          if (decision !== "allow" && decision !== "allow_once")
            return {
              kind: "error",
              code: "PERMISSION_DENIED",
              name: "hello",
              message: "denied",
              output: "Error [PERMISSION_DENIED]: denied",
            };
          if (loaded) return { kind: "already_loaded", name: "hello", at_turn: 1, output: "already" };
          loaded = true;
          return {
            kind: "ok",
            name: "hello",
            dir,
            body: "Say hello.\n",
            frontmatter: { name: "hello", description: "d" },
            resources: [],
            bytes: 11,
            output: "<skill/>",
          };
        },
        close: async () => {},
      };
    },
    async dispose() {},
  };
}

describe("an unscripted hook ask", () => {
  const [u27] = loadCases("spec", "U27") as [LoadedCase];

  it("is its own finding, first, and the call the kit's deny decided is not judged as a wrong kind", async () => {
    const r = await runCase(asksEveryCall(), u27);
    expect(r.status).toBe("failed");
    const first = r.mismatches![0]!;
    // calls[1] is the already_loaded repeat: asking the hook there breaks D4's order of checks (§7 lists the
    // permission check before dedupe), so the ask is filed under hook.not-asked-when-loaded, not the spec's rule.
    expect(first).toMatchObject({ at: "calls[1].hook", rules: ["hook.not-asked-when-loaded"] });
    expect(first.rules).not.toContain(UNSCRIPTED_ASK_RULE);
    expect(first.message).toMatch(/asked the permission hook where the case scripts no ask; the kit answered deny/);
    expect(r.mismatches!.filter((m) => /^calls\[1\]\.(kind|code|fields|hook_requests)/.test(m.at))).toEqual([]);
    // The kit's answer stays visible in the record of the hook.
    expect(r.hook_requests!.map((h) => [h.call, h.answer])).toEqual([
      [0, "allow"],
      [1, "deny"],
    ]);
  });
});
