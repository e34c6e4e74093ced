// The conformance driver for Mastra's workspace `skill` tool (@mastra/core, version pinned in package.json).
// It owns one thing: turning the kit's session/catalog/call into calls on Mastra's REAL shipped code and
// turning what that code returns back into the kit's result shapes. In short:
//   real        Workspace discovery and parsing (gray-matter, validateSkillMetadata) through the skill source a
//               user gets: by default the workspace's LocalFilesystem (contained in its basePath); with
//               MASTRA_SKILL_SOURCE=local, LocalSkillSource (driver-local-source.mjs, the second row); the
//               `skill` tool from createSkillTools (zod input validation, name/path resolution, tie-break,
//               formatSkillActivation output), SkillsProcessor's catalog text as the model sees it; in a
//               session with the kit's permission hook, the Agent's loop: `generate` with requireToolApproval
//               on `skill`, its suspension answered by the kit's hook, approve/decline (agent-loop.mjs)
//   translated  the Skill object the tool itself resolved, field by field, into the kit's result; what Mastra
//               never produces (a byte count, a root index, a shadowing report) is declared unobserved (K40)
// Run: npm run conformance -- --driver implementations/mastra/driver.mjs   (after `npm ci` in this folder)
import { createRequire } from "node:module";
import { Workspace, LocalFilesystem, LocalSkillSource, createSkillTools } from "@mastra/core/workspace";
import { SkillsProcessor } from "@mastra/core/processors";
import {
  capabilities,
  catalogResult,
  errorResult,
  notFoundResult,
  okResult,
  requestedName,
} from "../driver-kit/results.mjs";
import { capturingLogs } from "../driver-kit/logs.mjs";
import { createAgentLoop } from "./agent-loop.mjs";

const require = createRequire(import.meta.url);
const MASTRA_VERSION = require("@mastra/core/package.json").version;

/** Which skill source: Mastra's default (the workspace filesystem) or LocalSkillSource (the second row). */
const SOURCE = process.env.MASTRA_SKILL_SOURCE === "local" ? "local" : "filesystem";

export const implementationInfo = {
  implementation: {
    name: SOURCE === "local" ? "mastra-workspace-skill (LocalSkillSource)" : "mastra-workspace-skill",
    version: MASTRA_VERSION,
    language: "typescript",
  },
  specVersion: "1",
  // README.md "Capabilities" names where in Mastra's source each false one was looked for. Its tool-call
  // approval (`requireToolApproval`, approveToolCall / declineToolCall) is its permission hook.
  capabilities: capabilities(["permission_hook", "resources", "symlinks", "file_modes"]),
  // What Mastra never produces (K40): no byte count, no root index, no report of a shadowed skill, and an
  // approval request that carries the tool call (toolCallId, toolName, args), not the kit's hook payload.
  unobserved: ["result.bytes", "catalog.entry.root_index", "catalog.entry.shadowed", "hook.payload"],
};

/**
 * The Workspace a user writes: `new Workspace({ filesystem: new LocalFilesystem({ basePath }), skills })` (its
 * default containment), the workspace being the kit's skill roots (the first the basePath, the others its
 * allowedPaths); or the same skills with `skillSource: new LocalSkillSource()`.
 */
function workspaceOptions(roots) {
  if (SOURCE === "local") return { skills: roots, skillSource: new LocalSkillSource() };
  return {
    filesystem: new LocalFilesystem({ basePath: roots[0], allowedPaths: roots.slice(1) }),
    skills: roots,
  };
}

/**
 * The same Workspace, handing whoever reads its `skills` (the Agent, building its `skill` tool per run) the
 * recording view below: the driver reads the Skill the agent's own tool resolved. Nothing else changes.
 */
class RecordingWorkspace extends Workspace {
  get skills() {
    const skills = super.skills;
    if (!skills) return skills;
    if (this.recorder?.target !== skills) this.recorder = { target: skills, ...recording(skills) };
    return this.recorder.proxy;
  }
}

/** The WorkspaceSkills the tool is given, with every get() recorded: the driver reads the Skill the tool resolved. */
function recording(skills) {
  // `last` for the tool called alone; `byId` for the agent's loop, in which Mastra also looks skills up itself.
  const seen = { last: undefined, byId: new Map() };
  const proxy = new Proxy(skills, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (prop === "get")
        return async (id) => {
          seen.last = await v.call(target, id);
          seen.byId.set(id, seen.last);
          return seen.last;
        };
      if (prop === "getScoped") return undefined; // a static path list: the tool uses this view itself
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { proxy, seen };
}

/** The frontmatter fields Mastra keeps (extractSkillFrontmatter reads exactly these six), as it holds them. */
function frontmatterOf(skill) {
  const fm = {};
  for (const k of ["name", "description", "license", "compatibility", "user-invocable", "metadata"])
    if (skill[k] !== undefined) fm[k] = skill[k];
  return fm;
}

export async function createSession(config, options = {}) {
  const roots = config.skill_roots;
  // With the kit's hook, an activation is a turn of Mastra's Agent loop with the skill tool gated by approval
  // (agent-loop.mjs); without one, the tool call itself (`execute`), as the agent's loop makes it.
  const workspace = options.hook
    ? new RecordingWorkspace(workspaceOptions(roots))
    : new Workspace(workspaceOptions(roots));
  const loop = options.hook ? createAgentLoop({ workspace, ask: options.hook }) : undefined;
  const tools = createSkillTools(workspace.skills);
  const processor = new SkillsProcessor({ workspace });

  async function catalog() {
    const system = [];
    const { value: list, logged } = await capturingLogs(async () => {
      await processor.processInputStep({
        messageList: { addSystem: (m) => system.push(typeof m === "string" ? m : m.content) },
        stepNumber: 0,
      });
      return workspace.skills.list();
    });
    // In Mastra's own order, with the fields its skill list holds.
    const entries = list.map((s) => ({
      name: s.name,
      description: s.description,
      dir: s.path,
      frontmatter: frontmatterOf(s),
    }));
    return catalogResult([tools.skill.description, ...system].join("\n\n"), entries, logged);
  }

  /** The `skill` tool called directly: its own instance per call, recording what it resolved. */
  async function executeTool(params) {
    const { proxy, seen } = recording(workspace.skills);
    try {
      return { out: await createSkillTools(proxy).skill.execute(params, {}), seen };
    } catch (err) {
      return { thrown: err instanceof Error ? err.message : String(err), seen };
    }
  }

  /** The `skill` tool called by the Agent's loop, the kit's hook answering its approval. */
  async function agentTurn(params) {
    workspace.recorder?.seen.byId.clear();
    const { output, declined } = await loop.call(params);
    // The Skill the tool resolved for the name the model gave it.
    const seen = { last: workspace.recorder?.seen.byId.get(requestedName(params)) };
    const text = typeof output.value === "string" ? output.value : JSON.stringify(output.value);
    // The refusal Mastra writes for a declined call, given to the model as the tool's result.
    if (declined) return { declined: text, seen };
    // The tool threw inside the loop: the loop gives the model its error as the result.
    if (String(output.type).startsWith("error")) return { thrown: text, seen };
    return { out: output.value, seen };
  }

  async function callOnce(params) {
    // Concurrent calls without a hook run as Mastra runs them; with one, one Agent turn at a time (agent-loop.mjs).
    const { out, thrown, declined, seen } = loop ? await agentTurn(params) : await executeTool(params);
    if (declined !== undefined)
      return errorResult("PERMISSION_DENIED", declined, declined, { name: requestedName(params) });
    // Mastra throws when two skills of one source type share a name (its tie-break refuses to choose).
    if (thrown !== undefined) return errorResult("IO_ERROR", thrown, undefined, { name: requestedName(params) });
    // Tool.execute's zod validation answers with an error object instead of calling the tool.
    if (out && typeof out === "object" && out.error === true)
      return errorResult("INVALID_PARAM", out.message ?? "invalid input", JSON.stringify(out));
    const skill = seen.last;
    if (!skill) return notFoundResult(requestedName(params) ?? String(params?.name), String(out));
    const resources = [
      ...(skill.references ?? []).map((r) => `references/${r}`),
      ...(skill.scripts ?? []).map((s) => `scripts/${s}`),
      ...(skill.assets ?? []).map((a) => `assets/${a}`),
    ];
    return okResult({
      name: skill.name,
      dir: skill.path,
      body: skill.instructions,
      frontmatter: frontmatterOf(skill),
      resources,
      output: String(out),
    });
  }

  function call(params) {
    return capturingLogs(() => callOnce(params)).then(({ value, logged }) =>
      logged.length ? { ...value, warnings: logged } : value,
    );
  }

  async function close() {}

  return { catalog, call, close };
}
