// Conformance driver for Qwen Code's `skill` tool, exercising the shipped CLI (npm @qwen-code/qwen-code, version
// pinned in package.json) as its users script it: `qwen -p … --auth-type anthropic --output-format stream-json`, one
// run per case, against the kit's loopback fake of the Anthropic Messages API (ANTHROPIC_BASE_URL). The fake plays
// each kit call as the model's `skill` tool call; Qwen Code finds, checks and loads the skill with its own code; the
// driver reads the tool_result it sends back (Qwen puts the body there) and maps that text onto the kit's result
// kinds, leaving out what Qwen never says (`unobserved`). README.md says where each value comes from.
//
//   npm run conformance -- --timeout 90000 --driver implementations/qwen-code/driver.mjs
import { capabilities } from "../driver-kit/results.mjs";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cliSession } from "../agent-cli-kit/cli-session.mjs";
import { freshWorld } from "../agent-cli-kit/home.mjs";
import { renameParams } from "../agent-cli-kit/params.mjs";
import { preToolUseHook } from "../agent-cli-kit/pretooluse.mjs";
import { catalogOf, translate } from "./answers.mjs";

const require = createRequire(import.meta.url);
const PKG_JSON = require.resolve("@qwen-code/qwen-code/package.json");
const harnessVersion = require(PKG_JSON).version;
const PKG_DIR = dirname(PKG_JSON);
const TOOL = "skill";
// Qwen's bundled skills (its package's bundled/ folder) lie under no configured root: its own setting
// skills.disabled turns them off by name (K32).
const BUNDLED = readdirSync(join(PKG_DIR, "bundled"));

export const implementationInfo = {
  implementation: { name: "qwen-code skill", version: harnessVersion, language: "typescript" },
  specVersion: "1",
  capabilities: capabilities(["symlinks", "file_modes", "arguments", "permission_hook", "dedupe", "user_invocation"]),
  unobserved: [
    "call.user-invocation",
    "result.at_turn",
    "result.bytes",
    "result.name",
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

const SETTINGS = {
  telemetry: { enabled: false },
  privacy: { usageStatisticsEnabled: false },
  skills: { disabled: BUNDLED },
};

export async function createSession(config, options = {}) {
  const world = freshWorld("kit-qwen-code");
  // Qwen's SkillManager reads levels project, user, extension, bundled, the first of a name winning.
  const places = [join(world.project, ".qwen", "skills"), join(world.home, ".qwen", "skills")];
  const links = world.linkRoots("Qwen Code", config.skill_roots, places);
  mkdirSync(join(world.home, ".qwen"), { recursive: true });
  // Qwen's PreToolUse hooks (Claude Code's settings format) on the skill tool are its permission hook.
  const hooked = options.hook
    ? await preToolUseHook(world, options.hook, { matcher: TOOL, nameKey: "skill" })
    : undefined;
  writeFileSync(
    join(world.home, ".qwen", "settings.json"),
    JSON.stringify({ ...SETTINGS, ...(hooked ? { hooks: hooked.hooks } : {}) }, null, 2),
  );
  const spec = {
    provider: "anthropic",
    mainTools: [TOOL],
    command: process.execPath,
    args: [
      join(PKG_DIR, "cli.js"),
      "-p",
      "Use the skills you are asked to use.",
      "--auth-type",
      "anthropic",
      "--model",
      "claude-sonnet-4-5",
      "--output-format",
      "stream-json",
    ],
    env: {
      ...world.env,
      ANTHROPIC_BASE_URL: "{{BASE_URL}}",
      ANTHROPIC_API_KEY: "sk-ant-kit-fake",
      ANTHROPIC_MODEL: "claude-sonnet-4-5",
      // Qwen always starts a second node running the same CLI and waits on it (relaunchAppInChildProcess in its
      // bundle: a supervisor for in-app restarts), giving that child QWEN_CODE_NO_RELAUNCH=true and, with memory
      // auto-configuration off (its default), no other flag. Setting it here runs that child directly: the same
      // code, settings and environment, one CLI start per case instead of two.
      QWEN_CODE_NO_RELAUNCH: "true",
    },
    cwd: world.project,
    // Qwen's default headless approval asks a model classifier about each tool call; the fake model allows (K33).
    otherReplies: [{ systemIncludes: "You are a security classifier", text: '{"shouldBlock": false}' }],
  };
  return cliSession(spec, {
    toolName: TOOL,
    input: (params) => renameParams(params, { name: "skill", arguments: "args" }),
    catalog: (body) => catalogOf(body),
    answer: (a) => translate(a, links, (path) => readFileSync(path, "utf8")),
    cleanup: () => (hooked?.server.close(), world.remove()),
  });
}
