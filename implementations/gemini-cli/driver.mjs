// Thin conformance driver for Gemini CLI's `activate_skill` tool, exercising the shipped code of
// @google/gemini-cli-core (version pinned in package.json): its skill loader (loadSkillsFromDir) finds and
// parses the skills of each configured root, its SkillManager merges them with its own precedence and
// conflict warnings, and its ActivateSkillTool validates the model's input against the tool's own parameter
// schema (an enum of every skill name) and executes. The driver only maps: kit roots onto loader calls, the
// harness's answers onto the kit's result kinds, and what the model sees about skills onto the catalog.
// What it had to synthesise, and why, is in README.md.
//
//   npm run conformance -- --suite all --driver implementations/gemini-cli/driver.mjs
import { dirname } from "node:path";
import { createRequire } from "node:module";
import { loadSkillsFromDir } from "@google/gemini-cli-core/dist/src/skills/skillLoader.js";
import { SkillManager } from "@google/gemini-cli-core/dist/src/skills/skillManager.js";
import { ActivateSkillTool } from "@google/gemini-cli-core/dist/src/tools/activate-skill.js";
import { renderAgentSkills } from "@google/gemini-cli-core/dist/src/prompts/snippets.js";
import { coreEvents, CoreEvent } from "@google/gemini-cli-core/dist/src/utils/events.js";
import {
  CallQueue,
  capabilities,
  catalogEntry,
  catalogResult,
  errorResult,
  notFoundResult,
  okResult,
  requestedName,
  rootIndexOf,
} from "../driver-kit/results.mjs";

const harnessVersion = createRequire(import.meta.url)("@google/gemini-cli-core/package.json").version;

export const implementationInfo = {
  implementation: { name: "gemini-cli activate_skill", version: harnessVersion, language: "typescript" },
  specVersion: "1",
  // Honest: only what Gemini CLI's skill tool itself does. README.md says why each other one is false.
  capabilities: capabilities(["symlinks", "file_modes"]),
};

// Gemini reports skill conflicts as user feedback on its event bus; collect them for the session discovering.
let feedbackSink = null;
coreEvents.on(CoreEvent.UserFeedback, (payload) => feedbackSink?.push(String(payload?.message ?? "")));

/** Gemini's own discovery over the kit's roots: lowest precedence first, as its SkillManager overrides. */
async function discover(roots) {
  const perRoot = await Promise.all(roots.map((root) => loadSkillsFromDir(root)));
  const manager = new SkillManager();
  const warnings = [];
  feedbackSink = warnings;
  try {
    for (let i = perRoot.length - 1; i >= 0; i--) manager.addSkills(perRoot[i]);
  } finally {
    feedbackSink = null;
  }
  return { manager, warnings };
}

/** Gemini names the shadowed skill's SKILL.md in its conflict warning; read the shadowed dirs back from it. */
function shadowedBy(warnings) {
  const byWinner = new Map();
  const conflict = /^Skill conflict detected: "(.*)" from "(.*)" is overriding the same skill from "(.*)"\.$/;
  for (const warning of warnings) {
    const match = conflict.exec(warning);
    if (!match) continue;
    const [, , winner, loser] = match;
    const list = byWinner.get(winner) ?? [];
    list.push(dirname(loser));
    byWinner.set(winner, list);
  }
  return byWinner;
}

export async function createSession(config) {
  const roots = config.skill_roots;
  const { manager, warnings } = await discover(roots);
  // The tool reads only these two members of Gemini's Config; no message bus means no confirmation step.
  const geminiConfig = { getSkillManager: () => manager, getWorkspaceContext: () => ({ addDirectory() {} }) };
  const tool = new ActivateSkillTool(geminiConfig, undefined);
  const queue = new CallQueue();

  return {
    async catalog() {
      const skills = manager.getSkills();
      const shadowed = shadowedBy(warnings);
      const systemPromptSection = renderAgentSkills(
        skills.map((s) => ({ name: s.name, description: s.description, location: s.location })),
      );
      const entries = skills.map((s) =>
        catalogEntry({
          name: s.name,
          description: s.description,
          dir: dirname(s.location),
          rootIndex: rootIndexOf(roots, s.location),
          frontmatter: { name: s.name, description: s.description },
          shadowed: shadowed.get(s.location) ?? [],
        }),
      );
      const description = [tool.getSchema().description, systemPromptSection].filter(Boolean).join("\n\n");
      return catalogResult(description, entries, warnings);
    },
    call(params) {
      return queue.run(() => activate(tool, manager, params));
    },
    async close() {
      await queue.close();
    },
  };
}

async function activate(tool, manager, params) {
  const name = requestedName(params);
  let invocation;
  try {
    invocation = tool.build(params);
  } catch (error) {
    return refusedInput(params, name, String(error?.message ?? error));
  }
  const result = await invocation.execute({ abortSignal: new AbortController().signal });
  const output = typeof result.llmContent === "string" ? result.llmContent : JSON.stringify(result.llmContent);
  if (result.error) {
    // The only failure execute() has: the name passed the schema but no skill answers to it.
    if (/not found/.test(result.error.message) && name !== undefined) return notFoundResult(name, output);
    return errorResult("IO_ERROR", result.error.message, output, { name });
  }
  const skill = manager.getSkill(params.name);
  return okResult({
    name: skill.name,
    dir: dirname(skill.location),
    body: skill.body,
    frontmatter: { name: skill.name, description: skill.description },
    output,
  });
}

/**
 * tool.build refused the input against the tool's schema. A string `name` outside the enum of installed
 * names is Gemini's "no such skill" (there is no other path to it for a well-formed call): not_found.
 * Anything else (no name, a number, an extra key) is a malformed call: INVALID_PARAM.
 */
function refusedInput(params, name, message) {
  const output = `Error: Invalid parameters provided. Reason: ${message}`;
  const onlyUnknownName =
    name !== undefined && Object.keys(params).length === 1 && /^params\/name must be equal to one of the allowed values$/.test(message);
  if (onlyUnknownName) return notFoundResult(name, output);
  return errorResult("INVALID_PARAM", message, output, name === undefined ? {} : { name });
}
