// Conformance driver for GitHub Copilot CLI's `skill` tool, exercising the shipped CLI (npm @github/copilot, version
// pinned in package.json) as its users script it: `copilot -p … --allow-all-tools --output-format json`, one run per
// case, offline (COPILOT_OFFLINE=true) with its own BYOK provider of type anthropic pointed at the kit's loopback fake
// of the Anthropic Messages API. The fake plays each kit call as the model's `skill` tool call; Copilot finds and
// loads the skill with its own code; the driver reads its tool_result and the <skill-context> message that follows
// (where Copilot puts the body), maps them onto the kit's result kinds, and leaves out what Copilot never says.
//
//   npm run conformance -- --timeout 90000 --driver implementations/copilot-cli/driver.mjs
import { capabilities } from "../driver-kit/results.mjs";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliSession } from "../agent-cli-kit/cli-session.mjs";
import { freshWorld } from "../agent-cli-kit/home.mjs";
import { renameParams } from "../agent-cli-kit/params.mjs";
import { copilotPreToolUseHook } from "../agent-cli-kit/pretooluse.mjs";
import { catalogOf, translate } from "./answers.mjs";

const require = createRequire(import.meta.url);
const harnessVersion = require("@github/copilot/package.json").version;
const BIN = join(require.resolve("@github/copilot/package.json"), "..", "npm-loader.js");
const TOOL = "skill";
// The npm loader unpacks the CLI (about 235 MB) into XDG_CACHE_HOME on first run: one cache shared by every run.
const CACHE = process.env.AGENT_CLI_KIT_COPILOT_CACHE ?? join(tmpdir(), "agent-cli-kit-copilot-cache");
// Copilot's built-in skills lie under no configured root; its own setting disabledSkills turns them off (K32).
const BUILTIN = ["customize-cloud-agent", "discover-resources", "github-pr-media"];

export const implementationInfo = {
  implementation: { name: "copilot-cli skill", version: harnessVersion, language: "native (node SEA + rust)" },
  specVersion: "1",
  capabilities: capabilities(["symlinks", "file_modes", "permission_hook", "user_invocation"]),
  unobserved: [
    "call.user-invocation",
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

export async function createSession(config, options = {}) {
  const world = freshWorld("kit-copilot-cli");
  mkdirSync(CACHE, { recursive: true });
  // Project skills (.github/skills) are read before personal ones (~/.copilot/skills): README "Skill roots".
  const places = [join(world.project, ".github", "skills"), join(world.home, ".copilot", "skills")];
  const links = world.linkRoots("Copilot CLI", config.skill_roots, places);
  mkdirSync(join(world.home, ".copilot"), { recursive: true });
  writeFileSync(join(world.home, ".copilot", "settings.json"), JSON.stringify({ disabledSkills: BUILTIN }, null, 2));
  // Copilot's user-level preToolUse hooks (~/.copilot/hooks/*.json) are its permission hook; they run in -p mode,
  // where the project's .github/hooks/ ones did not (README "Capabilities").
  const hooked = options.hook
    ? await copilotPreToolUseHook(world, options.hook, { tool: TOOL, nameKey: "skill" })
    : undefined;
  if (hooked) {
    mkdirSync(join(world.home, ".copilot", "hooks"), { recursive: true });
    writeFileSync(join(world.home, ".copilot", "hooks", "kit.json"), JSON.stringify(hooked.config, null, 2));
  }
  const spec = {
    provider: "anthropic",
    mainTools: [TOOL],
    command: process.execPath,
    args: [BIN, "-p", "Use the skills you are asked to use.", "--allow-all-tools", "--output-format", "json"],
    env: {
      ...world.env,
      XDG_CACHE_HOME: CACHE,
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_TYPE: "anthropic",
      COPILOT_PROVIDER_BASE_URL: "{{BASE_URL}}",
      COPILOT_PROVIDER_API_KEY: "sk-ant-kit-fake",
      COPILOT_MODEL: "claude-sonnet-4.5",
    },
    cwd: world.project,
  };
  return cliSession(spec, {
    toolName: TOOL,
    input: (params) => renameParams(params, { name: "skill" }),
    catalog: (body) => catalogOf(body),
    answer: (a) => translate(a, links),
    cleanup: () => (hooked?.server.close(), world.remove()),
  });
}
