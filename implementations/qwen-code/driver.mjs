// Conformance driver for Qwen Code's `skill` tool, exercising the shipped CLI (npm @qwen-code/qwen-code, version
// pinned in package.json) as its users script it: `qwen -p … --auth-type anthropic --output-format stream-json`, one
// run per case, against the kit's loopback fake of the Anthropic Messages API (ANTHROPIC_BASE_URL). The fake plays
// each kit call as the model's `skill` tool call; Qwen Code finds, checks and loads the skill with its own code; the
// driver reads the tool_result it sends back (Qwen puts the body there) and maps that text onto the kit's result
// kinds, leaving out what Qwen never says (`unobserved`). README.md says where each value comes from.
//
//   npm run conformance -- --timeout 90000 --driver implementations/qwen-code/driver.mjs
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cliSession } from "../agent-cli-kit/cli-session.mjs";
import { freshWorld, unlink } from "../agent-cli-kit/home.mjs";
import { unescapeXml, xmlListing } from "../agent-cli-kit/listing.mjs";
import { renameParams } from "../agent-cli-kit/params.mjs";
import { HOOK_REASON, preToolUseHook } from "../agent-cli-kit/pretooluse.mjs";

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
  capabilities: {
    symlinks: true,
    file_modes: true,
    arguments: true,
    permission_hook: true,
    trust_gate: false,
    sensitive_patterns: false,
    dedupe: true,
    allowed_tools: false,
    user_invocation: false,
    resources: false,
    frontmatter_passthrough: false,
  },
  unobserved: [
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
  const roots = config.skill_roots;
  if (roots.length > places.length)
    throw new Error(`Qwen Code has ${places.length} skill locations; the case configures ${roots.length} roots`);
  const links = roots.map((root, i) => ({ root, at: world.link(root, places[i]) }));
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
    },
    cwd: world.project,
    // Qwen's default headless approval asks a model classifier about each tool call; the fake model allows (K33).
    otherReplies: [{ systemIncludes: "You are a security classifier", text: '{"shouldBlock": false}' }],
  };
  return cliSession(spec, {
    toolName: TOOL,
    input: (params) => renameParams(params, { name: "skill", arguments: "args" }),
    catalog: (body) => catalogOf(body),
    answer: (a) => translate(a, links),
    cleanup: () => (hooked?.server.close(), world.remove()),
  });
}

/** The catalog as Qwen shows it: the skill tool's description and the <available_skills> system-reminder. */
function catalogOf(body) {
  const tool = body.tools.find((t) => t.name === TOOL);
  const texts = body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).map((b) => b.text ?? "");
  const reminder = texts.find((t) => t.includes("<available_skills>"));
  const entries = (reminder ? xmlListing(reminder) : []).map((e) => {
    // Qwen appends the skill's level to the description it shows, e.g. "Greets the user. (user)".
    const description = unescapeXml(e.description ?? "").replace(new RegExp(` \\(${e.location}\\)$`), "");
    return { name: unescapeXml(e.name), description };
  });
  return { tool_description: [tool.description, reminder].filter(Boolean).join("\n\n"), entries };
}

const BASE = /^Base directory for this skill: (.*)\n(?:Important: [^\n]*\n)?\n/;

function translate({ result }, links) {
  const text = result.text;
  if (!result.isError) {
    // Qwen's own dedupe: a skill loaded earlier in the session is not loaded again.
    const again = /^Skill "([\s\S]*)" is already loaded in context\./.exec(text);
    if (again) return { kind: "already_loaded", name: again[1], output: text };
    const base = BASE.exec(text);
    if (!base) throw new Error(`untranslated Qwen Code tool result: ${JSON.stringify(text.slice(0, 300))}`);
    // Qwen names the skill's directory, never the skill (a dir and its skill's name may differ: U06).
    return { kind: "ok", dir: unlink(base[1], links), body: text.slice(base[0].length), output: text };
  }
  const notFound = /^Skill "([\s\S]*)" not found\./.exec(text);
  if (notFound) return { kind: "not_found", name: notFound[1], siblings: suggested(text), output: text };
  // Qwen's own validation of the tool input: a parameter refusal.
  if (/^Parameter "[^"]*" must /.test(text))
    return { kind: "error", code: "INVALID_PARAM", message: text.split("\n")[0], output: text };
  if (text.includes(HOOK_REASON))
    return { kind: "error", code: "PERMISSION_DENIED", message: text.split("\n")[0], output: text };
  throw new Error(`untranslated Qwen Code error: ${JSON.stringify(text.slice(0, 400))}`);
}

/** The names the harness suggests after not finding one ("Available skills: a, b"; "none"): its siblings. */
function suggested(text) {
  const list = /Available skills: ([^\n]*)$/.exec(text)?.[1];
  return !list || list === "none" ? [] : list.split(", ");
}
