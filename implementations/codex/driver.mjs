// Conformance driver for Codex CLI's skills, exercising the shipped binary (npm @openai/codex, version pinned in
// package.json) as its users script it: `codex exec --json …`, one run per case, with a custom model_provider
// (wire_api = "responses") at the kit's loopback fake of the OpenAI Responses API. Codex has no skill tool: it lists
// each skill with the path of its SKILL.md in a developer message, and the model reads the file with its shell tool.
// So this row judges what Codex has (K35): the listing, and what its shell tool (exec_command) returns when the model
// reads a listed path. A kit call for a listed name is played as `cat <listed path>`; a name Codex does not list has
// no path a model could read: the call is not played and is answered unobserved (K120), and the rules of a lookup by
// name are unobserved (call.by-name).
//
//   npm run conformance -- --timeout 90000 --driver implementations/codex/driver.mjs
import { capabilities } from "../driver-kit/results.mjs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cliSession } from "../agent-cli-kit/cli-session.mjs";
import { freshWorld } from "../agent-cli-kit/home.mjs";
import { catalogOf, pathFor, translate, UNOBSERVED, unlisted } from "./answers.mjs";

const require = createRequire(import.meta.url);
const harnessVersion = require("@openai/codex/package.json").version;
const BIN = join(dirname(require.resolve("@openai/codex/package.json")), "bin", "codex.js");
const TOOL = "exec_command";
// Codex writes its system skills into $CODEX_HOME/skills/.system on start; its own [[skills.config]] entries turn
// them off by path (K32). These are the ones 0.171 installs; a new one would show up in the catalog.
const SYSTEM_SKILLS = ["imagegen", "openai-docs", "skill-creator", "skill-installer"];

export const implementationInfo = {
  implementation: { name: "codex skills listing + exec_command", version: harnessVersion, language: "rust" },
  specVersion: "1",
  capabilities: capabilities(["symlinks", "file_modes", "user_invocation"]),
  unobserved: UNOBSERVED,
};

const configToml = (codexHome) =>
  [
    'model = "gpt-5"',
    'model_provider = "kit"',
    "check_for_update_on_startup = false",
    "[model_providers.kit]",
    'name = "kit loopback fake"',
    'base_url = "{{BASE_URL}}/v1"',
    'wire_api = "responses"',
    'env_key = "KIT_FAKE_API_KEY"',
    // Codex's own switches: no usage analytics (its OTLP metrics to ab.chatgpt.com), no update check.
    "[analytics]",
    "enabled = false",
    ...SYSTEM_SKILLS.flatMap((s) => [
      "[[skills.config]]",
      `path = "${join(codexHome, "skills", ".system", s, "SKILL.md")}"`,
      "enabled = false",
    ]),
    "",
  ].join("\n");

export async function createSession(config) {
  const world = freshWorld("kit-codex");
  const codexHome = join(world.home, ".codex");
  // Project skills (<cwd>/.agents/skills) and user skills (~/.agents/skills); ~/.codex/skills is not used for a
  // kit root because Codex writes its system skills under it.
  const places = [join(world.project, ".agents", "skills"), join(world.home, ".agents", "skills")];
  const links = world.linkRoots("Codex", config.skill_roots, places);
  const spec = {
    provider: "responses",
    mainTools: [TOOL],
    command: process.execPath,
    args: [
      BIN,
      "exec",
      "--skip-git-repo-check",
      "--disable",
      "plugins",
      "--json",
      "Use the skills you are asked to use.",
    ],
    env: { ...world.env, CODEX_HOME: codexHome, KIT_FAKE_API_KEY: "sk-kit-fake" },
    cwd: world.project,
    files: { [join(codexHome, "config.toml")]: configToml(codexHome) },
  };
  let listing = [];
  return cliSession(spec, {
    toolName: TOOL,
    // A call whose name Codex does not list is never sent (no model could read a path it was not given): it is
    // answered unobserved (K120), never with a result the driver would have to make up.
    play: (params) => pathFor(listing, params) !== undefined,
    unplayed: unlisted,
    input: (params) => ({ cmd: `cat '${pathFor(listing, params).replaceAll("'", "'\\''")}'` }),
    catalog: (body) => {
      const c = catalogOf(body, links);
      listing = c.listed;
      return c.catalog;
    },
    answer: (a) => translate(a, listing, links),
    cleanup: () => world.remove(),
  });
}
