// Conformance driver for Claude Code's `Skill` tool, exercising the shipped binary (npm @anthropic-ai/claude-code,
// version pinned in package.json) the way its users script it: `claude -p … --output-format stream-json --verbose`,
// one run per case, against the kit's loopback fake of the Anthropic Messages API (ANTHROPIC_BASE_URL). The fake
// plays each kit call as the model's `Skill` tool call; Claude Code discovers, validates and loads the skill with its
// own code; the driver reads what it answered: the tool_result and the user message that follows it (where Claude
// Code puts the body). It maps that text onto the kit's result kinds and leaves out what Claude Code never says
// (`unobserved`). README.md says where each value comes from and what is unobserved.
//
//   npm run conformance -- --timeout 60000 --driver implementations/claude-code/driver.mjs
import { capabilities } from "../driver-kit/results.mjs";
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliSession } from "../agent-cli-kit/cli-session.mjs";
import { freshWorld } from "../agent-cli-kit/home.mjs";
import { renameParams } from "../agent-cli-kit/params.mjs";
import { preToolUseHook } from "../agent-cli-kit/pretooluse.mjs";
import { catalogOf, translate } from "./answers.mjs";

const require = createRequire(import.meta.url);
const PKG = "@anthropic-ai/claude-code";
const harnessVersion = require(`${PKG}/package.json`).version;
const BIN = join(require.resolve(`${PKG}/package.json`), "..", "bin", "claude.exe");
const TOOL = "Skill";

export const implementationInfo = {
  implementation: { name: "claude-code Skill", version: harnessVersion, language: "native (bun)" },
  specVersion: "1",
  // README.md, "Capabilities", names where each was looked for.
  capabilities: capabilities(["symlinks", "file_modes", "arguments", "permission_hook", "dedupe", "user_invocation"]),
  unobserved: [
    "call.user-invocation",
    "result.at_turn",
    "result.bytes",
    "result.frontmatter",
    "result.resources",
    "catalog.entry.dir",
    "catalog.entry.root_index",
    "catalog.entry.frontmatter",
    "catalog.entry.shadowed",
    "catalog.warnings",
    "hook.payload",
  ],
};

/** The offline switches (Claude Code's documented env), and the fake as its API. */
function environment(world) {
  return {
    ...world.env,
    ANTHROPIC_BASE_URL: "{{BASE_URL}}",
    ANTHROPIC_API_KEY: "sk-ant-kit-fake",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    // Claude Code's bundled skills (dataviz, init, …) lie under no configured root; its own switch turns them off (K32).
    CLAUDE_CODE_DISABLE_BUNDLED_SKILLS: "1",
    // Claude Code refuses to run as root without it (the kit runs as root in CI).
    IS_SANDBOX: "1",
  };
}

export async function createSession(config, options = {}) {
  const world = freshWorld("kit-claude-code");
  // Personal skills (~/.claude/skills) win over project skills (.claude/skills): the kit's first root goes there.
  const places = [join(world.home, ".claude", "skills"), join(world.project, ".claude", "skills")];
  const links = world.linkRoots("Claude Code", config.skill_roots, places);
  // Claude Code's built-in plugin brings a skill of its own (plugin-authoring); its settings turn it off (K32).
  mkdirSync(join(world.home, ".claude"), { recursive: true });
  const used = new WeakMap();
  // Claude Code's PreToolUse hook on the Skill tool is its permission hook (README "Capabilities").
  const hooked = options.hook
    ? await preToolUseHook(world, options.hook, { matcher: TOOL, nameKey: "skill" })
    : undefined;
  const settings = {
    enabledPlugins: { "cc-plugin-plugin-authoring@builtin": false },
    ...(hooked ? { hooks: hooked.hooks } : {}),
  };
  writeFileSync(join(world.home, ".claude", "settings.json"), JSON.stringify(settings, null, 2));
  const spec = {
    provider: "anthropic",
    mainTools: [TOOL],
    command: BIN,
    args: [
      "-p",
      "Use the skills you are asked to use.",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "claude-sonnet-4-5",
    ],
    env: environment(world),
    cwd: world.project,
  };
  return cliSession(spec, {
    toolName: TOOL,
    input: (params) => renameParams(params, { name: "skill", arguments: "args" }),
    catalog: (body) => catalogOf(body),
    answer: (a) => translate(a, links, used),
    cleanup: () => (hooked?.server.close(), world.remove()),
  });
}
