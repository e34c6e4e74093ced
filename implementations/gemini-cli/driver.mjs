// Thin conformance driver for Gemini CLI's `activate_skill` tool, exercising the shipped code of
// @google/gemini-cli-core (version pinned in package.json): its skill loader (loadSkillsFromDir) finds and
// parses the skills of each configured root, its SkillManager merges them with its own precedence and
// conflict warnings, its ActivateSkillTool validates the model's input against the tool's own parameter
// schema (an enum of every skill name), asks its policy engine (the shipped default policies: ask the user
// for activate_skill) and shows its confirmation, then executes. The driver only maps: kit roots onto loader
// calls, the kit's permission hook onto the user answering Gemini's confirmation, the harness's answers onto
// the kit's result kinds. What Gemini never produces is declared `unobserved` (K40) and left out.
// README.md says what each field comes from and where each capability was looked for.
//
//   npm run conformance -- --suite all --driver implementations/gemini-cli/driver.mjs
import { dirname } from "node:path";
import { createRequire } from "node:module";
import { loadSkillsFromDir } from "@google/gemini-cli-core/dist/src/skills/skillLoader.js";
import { SkillManager } from "@google/gemini-cli-core/dist/src/skills/skillManager.js";
import { ActivateSkillTool } from "@google/gemini-cli-core/dist/src/tools/activate-skill.js";
import { ToolConfirmationOutcome } from "@google/gemini-cli-core/dist/src/tools/tools.js";
import { ToolErrorType } from "@google/gemini-cli-core/dist/src/tools/tool-error.js";
import { renderAgentSkills } from "@google/gemini-cli-core/dist/src/prompts/snippets.js";
import { coreEvents, CoreEvent } from "@google/gemini-cli-core/dist/src/utils/events.js";
import { debugLogger } from "@google/gemini-cli-core/dist/src/utils/debugLogger.js";
import { createPolicyEngineConfig, createPolicyUpdater } from "@google/gemini-cli-core/dist/src/policy/config.js";
import { PolicyEngine } from "@google/gemini-cli-core/dist/src/policy/policy-engine.js";
import { ApprovalMode } from "@google/gemini-cli-core/dist/src/policy/types.js";
import { MessageBus } from "@google/gemini-cli-core/dist/src/confirmation-bus/message-bus.js";
import { capabilities, catalogResult, errorResult, okResult, requestedName } from "../driver-kit/results.mjs";
import { resourcesFromTree } from "./resources.mjs";

const harnessVersion = createRequire(import.meta.url)("@google/gemini-cli-core/package.json").version;

// Gemini's debug channel (policy matches, skipped folders) is hidden unless the CLI runs with --debug; so here.
debugLogger.debug = () => {};

export const implementationInfo = {
  implementation: { name: "gemini-cli activate_skill", version: harnessVersion, language: "typescript" },
  specVersion: "1",
  // README.md "Capabilities": each true one is the harness's own shape of it, each false one names where it was looked for.
  capabilities: capabilities(["symlinks", "file_modes", "permission_hook", "trust_gate", "resources"]),
  // Values Gemini never produces (K40): no byte count, no root index, only name and description kept of the
  // frontmatter, and a confirmation that carries none of the kit's hook payload.
  unobserved: [
    "result.bytes",
    "result.frontmatter",
    "catalog.entry.root_index",
    "catalog.entry.frontmatter",
    "hook.payload",
  ],
};

// Gemini reports skill conflicts as user feedback on its event bus; collect them for the session discovering.
let feedbackSink = null;
coreEvents.on(CoreEvent.UserFeedback, (payload) => feedbackSink?.push(String(payload?.message ?? "")));

/**
 * Gemini's own discovery over the kit's roots, lowest precedence first as SkillManager.discoverSkills adds its
 * tiers. A root the kit does not trust is Gemini's workspace tier in an untrusted folder, which discoverSkills
 * does not load (skillManager.js: `if (!isTrusted) return;` before the project skills).
 */
async function discover(roots, trusted) {
  const perRoot = await Promise.all(roots.map((root) => (trusted(root) ? loadSkillsFromDir(root) : [])));
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

/** Gemini names both SKILL.md files in its conflict warning (shown to the user): the shadowed dirs, as it says them. */
function shadowedBy(warnings) {
  const byWinner = new Map();
  const conflict = /^Skill conflict detected: "(.*)" from "(.*)" is overriding the same skill from "(.*)"\.$/;
  for (const warning of warnings) {
    const match = conflict.exec(warning);
    if (!match) continue;
    const [, , winner, loser] = match;
    byWinner.set(winner, [...(byWinner.get(winner) ?? []), dirname(loser)]);
  }
  return byWinner;
}

/**
 * The shipped default policies, interactive (the CLI's default approval mode): activate_skill is ask_user. Each
 * session gets its own engine (its own copy of the rules: the engine sorts and extends the array it is given) and
 * Gemini's policy updater on its bus, so "allow always" adds Gemini's own session rule, as in the CLI.
 */
let policyConfig;
async function policyBus() {
  policyConfig ??= await createPolicyEngineConfig({}, ApprovalMode.DEFAULT, undefined, true);
  const engine = new PolicyEngine({
    ...policyConfig,
    rules: [...(policyConfig.rules ?? [])],
    checkers: [...(policyConfig.checkers ?? [])],
  });
  const bus = new MessageBus(engine);
  createPolicyUpdater(engine, bus, undefined);
  return bus;
}

export async function createSession(config, options = {}) {
  const roots = config.skill_roots;
  // Without skill_trust the kit trusts every root; with it, only the roots it lists (session-config.schema.json).
  const trustedRoots = config.skill_trust?.trusted_roots;
  const trusted = (root) => trustedRoots === undefined || trustedRoots.includes(root);
  const { manager, warnings } = await discover(roots, trusted);
  // The tool reads only these two members of Gemini's Config.
  const geminiConfig = { getSkillManager: () => manager, getWorkspaceContext: () => ({ addDirectory() {} }) };
  const tool = new ActivateSkillTool(geminiConfig, await policyBus());
  const user = options.hook;

  return {
    async catalog() {
      const skills = manager.getSkills();
      const shadowed = shadowedBy(warnings);
      const section = renderAgentSkills(
        skills.map((s) => ({ name: s.name, description: s.description, location: s.location })),
      );
      // In Gemini's own order (the manager's), never sorted here.
      const entries = skills.map((s) => ({
        name: s.name,
        description: s.description,
        dir: dirname(s.location),
        meta: { shadowed: shadowed.get(s.location) ?? [] },
      }));
      return catalogResult([tool.getSchema().description, section].filter(Boolean).join("\n\n"), entries, warnings);
    },
    call(params) {
      return activate(tool, manager, params, user);
    },
    async close() {},
  };
}

async function activate(tool, manager, params, user) {
  const name = requestedName(params);
  let invocation;
  try {
    invocation = tool.build(params);
  } catch (error) {
    // Gemini's own class for a refused input: invalid tool params, whatever the name (ToolErrorType.INVALID_TOOL_PARAMS).
    const message = String(error?.message ?? error);
    return errorResult(
      "INVALID_PARAM",
      message,
      `Error: Invalid parameters provided. Reason: ${message}`,
      name === undefined ? {} : { name },
    );
  }
  const signal = new AbortController().signal;
  let details;
  try {
    details = await invocation.shouldConfirmExecute(signal);
  } catch (error) {
    // The policy engine said deny (scheduler/policy.js: POLICY_VIOLATION).
    return errorResult("PERMISSION_DENIED", error?.message ?? error, `Tool execution denied by policy.`, { name });
  }
  if (details) {
    // Gemini asks the user. The kit's hook is that user; a session without one is a user who allows every time.
    const answer = user
      ? await user({
          gemini_confirmation: { type: details.type, title: details.title, prompt: details.prompt },
          tool_call: { name: tool.name, args: params },
        })
      : "allow_once";
    if (answer !== "allow" && answer !== "allow_once") {
      await details.onConfirm(ToolConfirmationOutcome.Cancel);
      // scheduler.js: a Cancel outcome cancels the call with 'User denied execution.' (state-manager.js's wording).
      return errorResult(
        "PERMISSION_DENIED",
        "User denied execution.",
        "[Operation Cancelled] Reason: User denied execution.",
        { name },
      );
    }
    await details.onConfirm(
      answer === "allow" ? ToolConfirmationOutcome.ProceedAlways : ToolConfirmationOutcome.ProceedOnce,
    );
  }
  const result = await invocation.execute({ abortSignal: signal });
  const output = typeof result.llmContent === "string" ? result.llmContent : JSON.stringify(result.llmContent);
  if (result.error) {
    const code = result.error.type === ToolErrorType.INVALID_TOOL_PARAMS ? "INVALID_PARAM" : "IO_ERROR";
    return errorResult(code, result.error.message, output, { name });
  }
  const skill = manager.getSkill(params.name);
  return okResult({
    name: skill.name,
    dir: dirname(skill.location),
    body: skill.body,
    output,
    resources: resourcesFromTree(output),
  });
}
