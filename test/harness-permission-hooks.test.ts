// The permission hook of deepagents and Mastra (implementations/<harness>/agent-loop.mjs) is their own: in a session
// with the kit's hook, an activation is a turn of the harness's agent loop, which stops before the tool runs and is
// resumed with the hook's answer. Shown here on a real skill tree: a deny keeps the body from what the model is
// given (the harness's own refusal text instead), an allow lets the harness's tool answer, and the hook is asked
// exactly once per activation with the harness's own approval payload. A driver that called the tool directly
// (bypassing the loop) would never ask the hook and would hand the body over: both tests fail then.
// Each harness needs `npm ci` in its folder: skipped with a message on a dev machine without it, a failure under
// CI=true (CI must install them).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../package-root.ts";

const root = PACKAGE_ROOT;
const inCi = process.env["CI"] === "true";
const dir = mkdtempSync(join(tmpdir(), "harness-hooks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BODY_MARK = "BODY-MARK-7f3a";

/** A fresh skill root holding one skill `hello` whose body carries BODY_MARK. */
function skillTree(name: string): string {
  const skills = join(dir, name, "skills");
  mkdirSync(join(skills, "hello"), { recursive: true });
  writeFileSync(join(skills, "hello", "SKILL.md"), `---\nname: hello\ndescription: Greets.\n---\nSay ${BODY_MARK}.\n`);
  return skills;
}

interface Harness {
  folder: string;
  /** What the harness's own approval request names: the tool call it is about to make. */
  asksAbout: (request: any, skills: string) => void;
  /** The harness's own refusal, as its agent loop gives it to the model. */
  refusal: RegExp;
}

const HARNESSES: Harness[] = [
  {
    folder: "deepagents",
    // langchain's humanInTheLoopMiddleware: interrupt({ actionRequests: [{ name, args, description }], reviewConfigs })
    asksAbout: (request, skills) => {
      expect(request.actionRequests).toHaveLength(1);
      expect(request.actionRequests[0]).toMatchObject({
        name: "read_file",
        args: { file_path: join(skills, "hello", "SKILL.md") },
      });
    },
    refusal: /^User rejected the tool call for `read_file` with id \S+$/,
  },
  {
    folder: "mastra",
    // Mastra's agentic loop: finishReason "suspended", suspendPayload { toolCallId, toolName, args, resumeSchema }
    asksAbout: (request) => expect(request).toMatchObject({ toolName: "skill", args: { name: "hello" } }),
    refusal: /^Tool call was not approved by the user$/,
  },
];

for (const h of HARNESSES) {
  const installed = existsSync(join(root, "implementations", h.folder, "node_modules"));
  if (!installed && !inCi)
    console.warn(
      `harness-permission-hooks.test.ts: SKIPPED ${h.folder}: run npm ci in implementations/${h.folder} to run it`,
    );

  describe(`${h.folder}: the kit's permission hook answers the harness's own approval step`, () => {
    it.runIf(inCi)("under CI=true the harness is installed (the test may not be skipped)", () => {
      expect(installed, `implementations/${h.folder}/node_modules is missing: CI must npm ci there`).toBe(true);
    });

    const load = async () => import(join(root, "implementations", h.folder, "driver.mjs"));
    const config = (skills: string) => ({
      skill_roots: [skills],
      skill_trust: { trusted_roots: [skills] },
      permission: { hook: true },
    });

    /** One activation of `hello` in a fresh session whose hook answers `decision`: what was asked, what came back. */
    const activateAnswering = async (decision: string) => {
      const { createSession } = await load();
      const skills = skillTree(`${h.folder}-${decision}`);
      const asked: unknown[] = [];
      const session = await createSession(config(skills), {
        hook: (request: unknown) => (asked.push(request), decision),
      });
      const result = await session.call({ name: "hello" }, { invocation: "model" });
      await session.close();
      return { skills, asked, result };
    };

    it.runIf(installed)(
      "declares the hook it drives (permission_hook), its payload unobserved (not the kit's)",
      async () => {
        const { implementationInfo } = await load();
        expect(implementationInfo.capabilities.permission_hook).toBe(true);
        expect(implementationInfo.unobserved).toContain("hook.payload");
      },
      120_000,
    );

    it.runIf(installed)(
      "deny: asked once, about the tool call; the model gets the harness's refusal, never the body",
      async () => {
        const { skills, asked, result } = await activateAnswering("deny");
        expect(asked).toHaveLength(1);
        h.asksAbout(asked[0], skills);
        expect(result.kind).toBe("error");
        expect(result.output).toMatch(h.refusal);
        expect(JSON.stringify(result)).not.toContain(BODY_MARK);
        // The refusal is the harness's text, not one the driver wrote.
        for (const file of ["driver.mjs", "agent-loop.mjs"])
          expect(readFileSync(join(root, "implementations", h.folder, file), "utf8")).not.toMatch(
            /User rejected the tool call|was not approved by the user"/,
          );
      },
      120_000,
    );

    it.runIf(installed)(
      "allow_once: asked once; the harness's tool answers with the body",
      async () => {
        const { skills, asked, result } = await activateAnswering("allow_once");
        expect(asked).toHaveLength(1);
        h.asksAbout(asked[0], skills);
        expect(result).toMatchObject({ kind: "ok", name: "hello" });
        expect(result.body).toContain(BODY_MARK);
        expect(result.output).toContain(BODY_MARK);
      },
      120_000,
    );
  });
}
