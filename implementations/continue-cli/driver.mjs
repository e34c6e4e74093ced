// Conformance driver for the Continue CLI's `Skills` tool, exercising the shipped CLI (npm @continuedev/cli, version
// pinned in package.json) as its users script it: `cn -p … --config <config.yaml>`, one run per case, with a local
// config whose one model is an anthropic provider at the kit's loopback fake (apiBase). The fake plays each kit call
// as the model's `Skills` tool call; Continue loads the skill with its own code (src/tools/skills.ts,
// src/util/loadMarkdownSkills.ts in the package); the driver reads the tool_result, maps it onto the kit's result
// kinds and leaves out what Continue never says (`unobserved`). README.md says where each value comes from.
//
//   npm run conformance -- --timeout 90000 --driver implementations/continue-cli/driver.mjs
import { capabilities } from "../driver-kit/results.mjs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cliSession } from "../agent-cli-kit/cli-session.mjs";
import { freshWorld } from "../agent-cli-kit/home.mjs";
import { renameParams } from "../agent-cli-kit/params.mjs";

const require = createRequire(import.meta.url);
const PKG_JSON = require.resolve("@continuedev/cli/package.json");
const harnessVersion = require(PKG_JSON).version;
const CN = join(dirname(PKG_JSON), "dist", "cn.js");
const TOOL = "Skills";

export const implementationInfo = {
  implementation: { name: "continue-cli Skills", version: harnessVersion, language: "typescript" },
  specVersion: "1",
  capabilities: capabilities(["symlinks", "file_modes", "resources", "user_invocation"]),
  unobserved: [
    "call.user-invocation",
    "result.bytes",
    "result.dir",
    "result.frontmatter",
    "result.resources",
    "catalog.entry.dir",
    "catalog.entry.root_index",
    "catalog.entry.frontmatter",
    "catalog.entry.shadowed",
    "catalog.warnings",
  ],
};

// Continue asks api.continue.dev for its latest version on every run (src/version.ts, getLatestVersion), with no
// switch to turn it off. Inside the run's namespace the lookup is refused; it is reported, not fatal (K31).
export const knownAttempts = [
  { what: "dns", to: "api.continue.dev", why: "version check, src/version.ts getLatestVersion" },
];

const configYaml = () => `name: kit
version: 0.0.1
schema: v1
models:
  - name: fake
    provider: anthropic
    model: claude-sonnet-4-5
    apiKey: sk-ant-kit-fake
    apiBase: {{BASE_URL}}/v1/
    roles: [chat]
    capabilities: [tool_use]
`;

export async function createSession(config) {
  const world = freshWorld("kit-continue-cli");
  // loadMarkdownSkills reads <cwd>/.continue/skills, <cwd>/.claude/skills, ~/.continue/skills; Skills takes the first
  // skill of a name in the list it built.
  const places = [join(world.project, ".continue", "skills"), join(world.home, ".continue", "skills")];
  world.linkRoots("Continue", config.skill_roots, places);
  const configPath = join(world.home, ".continue", "config.yaml");
  const spec = {
    provider: "anthropic",
    mainTools: [TOOL],
    command: process.execPath,
    args: [CN, "-p", "Use the skills you are asked to use.", "--config", configPath],
    env: {
      ...world.env,
      CONTINUE_METRICS_ENABLED: "0",
      CONTINUE_CLI_ENABLE_TELEMETRY: "0",
      CONTINUE_CLI_DISABLE_COMMIT_SIGNATURE: "1",
    },
    cwd: world.project,
    files: { [configPath]: configYaml() },
    knownAttempts,
  };
  return cliSession(spec, {
    toolName: TOOL,
    input: (params) => renameParams(params, { name: "skill_name" }),
    catalog: (body) => catalogOf(body),
    answer: (a) => translate(a),
    cleanup: () => world.remove(),
  });
}

/** The catalog as Continue shows it: the Skills tool's description, which lists `name:` / `description:` pairs. */
function catalogOf(body) {
  const tool = body.tools.find((t) => t.name === TOOL);
  const entries = [...tool.description.matchAll(/\nname: (.*)\ndescription: (.*)\n/g)].map((m) => ({
    name: m[1],
    description: m[2],
  }));
  return { tool_description: tool.description, entries };
}

const LOADED =
  /^<skill_name>([\s\S]*?)<\/skill_name>\n<skill_description>[\s\S]*?<\/skill_description>\n<skill_content>([\s\S]*?)<\/skill_content>(?:\n|$)/;

function translate({ result }) {
  const text = result.text;
  const loaded = LOADED.exec(text);
  if (loaded && !result.isError) return { kind: "ok", name: loaded[1], body: loaded[2], output: text };
  // Continue's ContinueError(SkillNotFound), as its tool runner prints it.
  const notFound = /^Error executing tool Skills: Skill "([\s\S]*)" not found\./.exec(text);
  if (notFound) return { kind: "not_found", name: notFound[1], siblings: suggested(text), output: text };
  // Continue's tool runner checks the input against the tool's required parameters: a parameter refusal.
  if (/^Required parameter "[^"]*" missing for tool "Skills"/.test(text))
    return { kind: "error", code: "INVALID_PARAM", message: text.split("\n")[0], output: text };
  throw new Error(
    `untranslated Continue tool result${result.isError ? " (is_error)" : ""}: ${JSON.stringify(text.slice(0, 400))}`,
  );
}

/** The names the harness suggests after not finding one ("Available skills: a, b"; "none"): its siblings. */
function suggested(text) {
  const list = /Available skills: ([^\n]*)$/.exec(text)?.[1];
  return !list || list === "none" ? [] : list.split(", ");
}
