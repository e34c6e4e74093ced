// The agent-CLI drivers read each harness's own words back as the kit's values, and decide nothing (issue 27 item 1).
// Fed the exact text each harness produced in a real run (quoted from the reports), each reader keeps the harness's
// class: Claude Code's hook error is a denial only when it carries the kit's deny; Qwen's description is what it
// shows the model; Copilot's "Failed to load skill" is a parameter refusal only when it names a field of its input;
// Codex answers a name it does not list as unobserved (K120), never a made-up not_found.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM modules without type declarations (implementations/ has no build)
import * as claude from "../implementations/claude-code/answers.mjs";
// @ts-expect-error plain ESM module
import * as qwen from "../implementations/qwen-code/answers.mjs";
// @ts-expect-error plain ESM module
import * as copilot from "../implementations/copilot-cli/answers.mjs";
// @ts-expect-error plain ESM module
import * as codex from "../implementations/codex/answers.mjs";
// @ts-expect-error plain ESM module
import { HOOK_REASON } from "../implementations/agent-cli-kit/pretooluse.mjs";
import { unobservedAnswerProblem } from "../conformance/runner/unobserved-call.ts";

const REMINDER = "\n\n<system-reminder>\n<total_tokens>14999998 tokens left</total_tokens>\n</system-reminder>";
const claudeAnswer = (text: string) =>
  claude.translate(
    { id: "t1", params: { name: "hello" }, result: { text, isError: true }, following: [], body: {} },
    [],
    new WeakMap(),
  );

describe("Claude Code: only the kit's own hook denial is PERMISSION_DENIED (K121)", () => {
  it("the text U24 saw (the kit's hook answered deny) is a permission denial", () => {
    const r = claudeAnswer(`PreToolUse:Skill hook error: ${HOOK_REASON}deny${REMINDER}`);
    expect(r).toMatchObject({ kind: "error", code: "PERMISSION_DENIED" });
    expect(r.message).toBe("PreToolUse:Skill hook error: the kit's permission hook answered deny");
  });

  it("any other hook error is not the kit's answer: the case errors with Claude Code's words, no class guessed", () => {
    for (const other of [
      "PreToolUse:Skill hook error: Failed with non-blocking status code: /bin/sh: 1: relay: not found",
      "PreToolUse:Skill hook error: hook timed out",
      `PreToolUse:Skill hook error: ${HOOK_REASON}deny, and more`,
    ])
      expect(() => claudeAnswer(`${other}${REMINDER}`), other).toThrow(
        /PreToolUse hook error that is not the kit's deny/,
      );
  });
});

describe("Claude Code: the listing is read as Claude Code writes it", () => {
  const body = (listing: string) => ({
    tools: [{ name: "Skill", description: "Invoke a skill." }],
    messages: [
      {
        role: "user",
        content: [
          {
            type: "text",
            text: `<system-reminder>\nThe following skills are available for use with the Skill tool:\n${listing}</system-reminder>`,
          },
        ],
      },
    ],
  });
  it("past its listing budget it lists names only (1,000 generated skills): every name is listed, with no description", () => {
    expect(claude.catalogOf(body("- api-audit-00001\n- api-csv-00002\n")).entries).toEqual([
      { name: "api-audit-00001", description: "" },
      { name: "api-csv-00002", description: "" },
    ]);
    expect(claude.catalogOf(body("- hello: Greets the user.\n")).entries).toEqual([
      { name: "hello", description: "Greets the user." },
    ]);
  });
});

describe("Qwen Code: the catalog description is what Qwen shows the model", () => {
  const body = (description: string) => ({
    tools: [{ name: "skill", description: "Execute a skill." }],
    messages: [
      {
        role: "user",
        content: [
          {
            type: "text",
            text: `<system-reminder>\n<available_skills>\n<skill>\n<name>\nhello\n</name>\n<description>\n${description}\n</description>\n<location>\nuser\n</location>\n</skill>\n</available_skills>\n</system-reminder>`,
          },
        ],
      },
    ],
  });

  it("keeps the level tag renderAvailableSkillsBlock writes inside <description> (no decision makes it presentation)", () => {
    expect(qwen.catalogOf(body("Greets the user. (user)")).entries).toEqual([
      { name: "hello", description: "Greets the user. (user)" },
    ]);
    expect(qwen.catalogOf(body("Greets &amp; waves. — when asked (user)")).entries[0].description).toBe(
      "Greets & waves. — when asked (user)",
    );
  });

  it("the names Qwen lists after an unknown one are its siblings, as given (K122)", () => {
    const r = qwen.translate(
      { result: { isError: true, text: 'Skill "helo" not found. Available skills: zeta, hello, alpha' } },
      [],
    );
    expect(r).toMatchObject({ kind: "not_found", name: "helo", siblings: ["zeta", "hello", "alpha"] });
  });

  it("an output over Qwen's limit is judged from the file Qwen saved it to, not from the preview", () => {
    const text =
      "<persisted-output>\nOutput too large (879 KB). Full output saved to: /h/.qwen/tmp/x/toolu_kit_1.txt\n" +
      "Full output sha256: d1\n\nPreview (up to 2000 chars):\nBase directory for this skill: /p/amp\n\n...\n</persisted-output>";
    const read = (path: string) => {
      expect(path).toBe("/h/.qwen/tmp/x/toolu_kit_1.txt");
      return "Base directory for this skill: /p/amp\n\nwhole body";
    };
    const r = qwen.translate({ result: { isError: false, text } }, [], read);
    expect(r).toEqual({ kind: "ok", dir: "/p/amp", body: "whole body", output: text });
  });
});

describe("Copilot CLI: 'Failed to load skill' keeps the class Copilot gives it", () => {
  const answer = (text: string) => copilot.translate({ result: { text, isError: true }, following: [] }, []);

  it("its preToolUse hook's refusal is PERMISSION_DENIED only with the kit's reason, deny or ask (K121)", () => {
    expect(answer("Denied by preToolUse hook: the kit's permission hook answered deny")).toMatchObject({
      kind: "error",
      code: "PERMISSION_DENIED",
    });
    expect(
      answer("Denied by preToolUse hook (unable to ask user for confirmation): the kit's permission hook answered ask"),
    ).toMatchObject({ kind: "error", code: "PERMISSION_DENIED" });
    expect(() => answer("Denied by preToolUse hook: policy says no")).toThrow(/not the kit's/);
  });

  it("a field error of its input schema (U05's text) is a parameter refusal", () => {
    expect(answer('Failed to load skill: "skill": Required')).toMatchObject({ kind: "error", code: "INVALID_PARAM" });
  });

  it("any other reason after 'Failed to load skill:' is not a parameter refusal: the case errors with Copilot's words", () => {
    for (const other of [
      "Failed to load skill: Not a valid skill: missing frontmatter",
      'Failed to load skill: "hello": Failed to read skill file: permission denied',
    ])
      expect(() => answer(other), other).toThrow(/untranslated Copilot CLI tool result/);
  });
});

describe("Codex and deepagents: a name the listing does not show is answered unobserved (K120)", () => {
  it("Codex answers it unobserved under call.by-name, which it declares; the kit accepts that answer", () => {
    const a = codex.unlisted();
    expect(a).toEqual({ unobserved: "call.by-name", reason: expect.stringMatching(/no lookup by name/) });
    expect(a).not.toHaveProperty("kind");
    expect(unobservedAnswerProblem(a, codex.UNOBSERVED)).toBeUndefined();
    // Only a listed name is played: the path Codex's listing shows for it.
    const listing = [{ name: "hello", description: "d", file: "/r/hello/SKILL.md" }];
    expect(codex.pathFor(listing, { name: "hello" })).toBe("/r/hello/SKILL.md");
    for (const p of [{ name: "helo" }, { skill_name: "hello" }, null, "hello", { name: 7 }])
      expect(codex.pathFor(listing, p), JSON.stringify(p)).toBeUndefined();
  });

  // deepagents runs in-process; its package is installed by `npm ci` in implementations/deepagents (as compat does).
  const deepagents = join(import.meta.dirname, "..", "implementations", "deepagents");
  it.runIf(existsSync(join(deepagents, "node_modules", "deepagents")))(
    "deepagents answers a name its listing does not show unobserved too, and reads a listed one with read_file",
    async () => {
      const root = mkdtempSync(join(tmpdir(), "kit-deepagents-"));
      try {
        mkdirSync(join(root, "hello"));
        writeFileSync(join(root, "hello", "SKILL.md"), "---\nname: hello\ndescription: Greets.\n---\nSay hello.\n");
        const driver = await import(join(deepagents, "driver.mjs"));
        const s = await driver.createSession({ skill_roots: [root] });
        const unlistedAnswer = await s.call({ name: "helo" });
        expect(unlistedAnswer).toEqual({
          unobserved: "call.by-name",
          reason: expect.stringMatching(/no lookup by name/),
        });
        expect(unobservedAnswerProblem(unlistedAnswer, driver.implementationInfo.unobserved)).toBeUndefined();
        expect(await s.call({ skill_name: "hello" })).toHaveProperty("unobserved", "call.by-name");
        expect(await s.call({ name: "hello" })).toMatchObject({ kind: "ok", body: "Say hello.\n" });
        await s.close();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );
});
