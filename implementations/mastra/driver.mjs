// The conformance driver for Mastra's workspace `skill` tool (@mastra/core, version pinned in package.json).
// It owns one thing: turning the kit's session/catalog/call into calls on Mastra's REAL shipped code and
// turning what that code returns back into the kit's result shapes. What is real and what is synthesised is
// listed in README.md; in short:
//   real        Workspace({ skills }) discovery and parsing (gray-matter, validateSkillMetadata), the `skill`
//               tool from createSkillTools (its zod input validation, name/path resolution, tie-break,
//               formatSkillActivation output), SkillsProcessor's catalog text and guidance as the model sees it
//   synthesised the kit's structured fields (kind, body, frontmatter, resources, …) read from the Skill
//               object the tool itself resolved; warnings = what Mastra logged; error codes mapped from
//               Mastra's own error shapes
// Run: npm run conformance -- --driver implementations/mastra/driver.mjs   (after `npm ci` in this folder)
import { createRequire } from "node:module";
import { Workspace, LocalSkillSource, createSkillTools } from "@mastra/core/workspace";
import { SkillsProcessor } from "@mastra/core/processors";
import { CallQueue, capabilities, catalogEntry, catalogResult, errorResult, notFoundResult, okResult, requestedName, rootIndexOf } from "../driver-kit/results.mjs";
import { capturingLogs } from "../driver-kit/logs.mjs";

const require = createRequire(import.meta.url);
const MASTRA_VERSION = require("@mastra/core/package.json").version;

export const implementationInfo = {
  implementation: { name: "mastra-workspace-skill", version: MASTRA_VERSION, language: "typescript" },
  specVersion: "1",
  // Mastra's skill tool has no permission hook, no caller distinction (model vs user), no activation state
  // (stateless by design: every call returns the instructions again), no trust gate, no sensitive patterns,
  // no allowed-tools field, no arguments, and keeps only six frontmatter fields. It lists references/,
  // scripts/ and assets/ files and runs on a real filesystem. Every other known capability is declared false.
  capabilities: capabilities(["resources", "symlinks", "file_modes"]),
};


/** The WorkspaceSkills the tool is given, with every get() recorded: the driver reads the Skill the tool resolved. */
function recording(skills) {
  const seen = { last: undefined };
  const proxy = new Proxy(skills, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (prop === "get") return async (id) => (seen.last = await v.call(target, id));
      if (prop === "getScoped") return undefined; // a static path list: the tool uses this view itself
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { proxy, seen };
}

/** The frontmatter fields Mastra keeps (extractSkillFrontmatter reads exactly these six), undefined ones dropped. */
function frontmatterOf(skill) {
  const fm = {};
  for (const k of ["name", "description", "license", "compatibility", "user-invocable", "metadata"]) if (skill[k] !== undefined) fm[k] = skill[k];
  fm.name ??= "";
  fm.description ??= "";
  return fm;
}

export async function createSession(config) {
  const roots = config.skill_roots;
  const workspace = new Workspace({ skills: roots, skillSource: new LocalSkillSource() });
  const { proxy, seen } = recording(workspace.skills);
  const tools = createSkillTools(proxy);
  const processor = new SkillsProcessor({ workspace });
  const queue = new CallQueue(); // one at a time, in call order (the kit's R7): Mastra's tool has no queue of its own

  async function catalog() {
    const system = [];
    const { value: list, logged } = await capturingLogs(async () => {
      await processor.processInputStep({ messageList: { addSystem: (m) => system.push(typeof m === "string" ? m : m.content) }, stepNumber: 0 });
      return workspace.skills.list();
    });
    const entries = list.map((s) => catalogEntry({ name: s.name, description: s.description, dir: s.path, rootIndex: Math.max(0, rootIndexOf(roots, s.path)), frontmatter: frontmatterOf(s) }));
    return catalogResult([tools.skill.description, ...system].join("\n\n"), entries, logged);
  }

  async function callOnce(params) {
    seen.last = undefined;
    let out;
    try {
      out = await tools.skill.execute(params, {});
    } catch (err) {
      // Mastra throws when two skills of one source type share a name (its tie-break refuses to choose).
      const message = err instanceof Error ? err.message : String(err);
      return errorResult("IO_ERROR", message, undefined, { name: requestedName(params) });
    }
    // Tool.execute's zod validation answers with an error object instead of calling the tool.
    if (out && typeof out === "object" && out.error === true) return errorResult("INVALID_PARAM", out.message ?? "invalid input", JSON.stringify(out));
    const skill = seen.last;
    if (!skill) return notFoundResult(requestedName(params) ?? String(params?.name), String(out));
    const resources = [
      ...(skill.references ?? []).map((r) => `references/${r}`),
      ...(skill.scripts ?? []).map((s) => `scripts/${s}`),
      ...(skill.assets ?? []).map((a) => `assets/${a}`),
    ];
    return okResult({ name: skill.name, dir: skill.path, body: skill.instructions, frontmatter: frontmatterOf(skill), resources, output: String(out) });
  }

  function call(params) {
    return queue.run(() => capturingLogs(() => callOnce(params))).then(({ value, logged }) => (logged.length ? { ...value, warnings: logged } : value));
  }

  async function close() {
    await queue.close().catch(() => undefined); // queued calls are refused; the one running finishes
  }

  return { catalog, call, close };
}
