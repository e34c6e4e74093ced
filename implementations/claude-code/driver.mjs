// Conformance driver for Claude Code's `Skill` tool, exercising the shipped binary (npm @anthropic-ai/claude-code,
// version pinned in package.json) the way its users script it: `claude -p … --output-format stream-json --verbose`,
// one run per case, against the kit's loopback fake of the Anthropic Messages API (ANTHROPIC_BASE_URL). The fake
// plays each kit call as the model's `Skill` tool call; Claude Code discovers, validates and loads the skill with its
// own code; the driver reads what it answered: the tool_result and the user message that follows it (where Claude
// Code puts the body). It maps that text onto the kit's result kinds and leaves out what Claude Code never says
// (`unobserved`). README.md says where each value comes from and what is unobserved.
//
//   npm run conformance -- --timeout 60000 --driver implementations/claude-code/driver.mjs
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliSession } from "../agent-cli-kit/cli-session.mjs";
import { freshWorld, unlink } from "../agent-cli-kit/home.mjs";
import { systemText, toolNames } from "../agent-cli-kit/anthropic.mjs";
import { dashListing } from "../agent-cli-kit/listing.mjs";
import { renameParams } from "../agent-cli-kit/params.mjs";
import { HOOK_REASON, preToolUseHook } from "../agent-cli-kit/pretooluse.mjs";

const require = createRequire(import.meta.url);
const PKG = "@anthropic-ai/claude-code";
const harnessVersion = require(`${PKG}/package.json`).version;
const BIN = join(require.resolve(`${PKG}/package.json`), "..", "bin", "claude.exe");
const TOOL = "Skill";
const LISTING = "The following skills are available for use with the Skill tool:\n";

export const implementationInfo = {
  implementation: { name: "claude-code Skill", version: harnessVersion, language: "native (bun)" },
  specVersion: "1",
  // README.md, "Capabilities", names where each was looked for.
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
  const roots = config.skill_roots;
  if (roots.length > places.length)
    throw new Error(`Claude Code has ${places.length} skill locations; the case configures ${roots.length} roots`);
  const links = roots.map((root, i) => ({ root, at: world.link(root, places[i]) }));
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

/** The catalog as Claude Code shows it: the Skill tool's description, and the listing in a system-reminder. */
function catalogOf(body) {
  const tool = body.tools.find((t) => t.name === TOOL);
  const reminder = body.messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .map((b) => b.text ?? "")
    .find((t) => t.includes(LISTING));
  const listed = reminder ? dashListing(reminder, LISTING) : [];
  const entries = listed.map((e) => ({ name: e.name, description: e.description }));
  return { tool_description: [tool.description, reminder].filter(Boolean).join("\n\n"), entries };
}

const BASE = /^Base directory for this skill: (.*)\n\n/;
const ALREADY = /^Skill \/.* is already loaded above/;

/**
 * One call's answer: the tool_result, and (for a launched skill) the message Claude Code adds after the results. The
 * n-th launched call of a turn takes the n-th such message ("Base directory …" or "Skill /x is already loaded …"),
 * in the order Claude Code wrote them.
 */
function translate({ id, params, result, following, body }, links, used) {
  const text = result.text;
  // Claude Code may append its own system-reminders to the last tool_result; the answer is what comes before.
  const own = text.split("\n\n<system-reminder>")[0];
  if (!result.isError) {
    const launched = /^Launching skill: (.*)$/.exec(own);
    if (!launched) throw new Error(`untranslated Claude Code tool result: ${JSON.stringify(text.slice(0, 300))}`);
    const name = launched[1];
    const seen = used.get(body) ?? new Set();
    used.set(body, seen);
    const index = following.findIndex((f, i) => !seen.has(i) && (BASE.test(f) || ALREADY.test(f)));
    if (index < 0)
      throw new Error(
        `Claude Code launched ${name} but no message follows for it: ${JSON.stringify(following.map((f) => f.slice(0, 200)))}`,
      );
    seen.add(index);
    const block = following[index];
    if (ALREADY.test(block)) return { kind: "already_loaded", name, output: `${text}\n\n${block}` };
    const [header, dir] = BASE.exec(block);
    return {
      kind: "ok",
      name,
      dir: unlink(dir, links),
      body: block.slice(header.length),
      output: `${text}\n\n${block}`,
    };
  }
  const inner = /^<tool_use_error>([\s\S]*)<\/tool_use_error>$/.exec(own)?.[1] ?? own;
  const unknown = /^Unknown skill: ([\s\S]*?)(?:\. Did you mean ([\s\S]*)\?)?$/.exec(inner);
  if (unknown) return { kind: "not_found", name: unknown[1], siblings: unknown[2] ? [unknown[2]] : [], output: text };
  if (/cannot be used with Skill tool due to disable-model-invocation/.test(inner))
    return { kind: "error", code: "DISABLED", message: firstLine(inner), output: text };
  // A skill Claude Code's permission check did not let run (in -p mode nobody is there to answer its prompt).
  if (/^Execute skill: /.test(inner))
    return { kind: "error", code: "PERMISSION_DENIED", message: firstLine(inner), output: text };
  // Its PreToolUse hook refused the call (the kit's hook answered deny): Claude Code reports it as a hook error.
  if (/^PreToolUse:Skill hook error: /.test(inner))
    return { kind: "error", code: "PERMISSION_DENIED", message: firstLine(inner), output: text };
  // The hook answered "ask": with nobody to ask in -p mode Claude Code refuses, showing the hook's reason only.
  if (inner === `${HOOK_REASON}ask`) return { kind: "error", code: "PERMISSION_DENIED", message: inner, output: text };
  // Claude Code's own refusals of the input (its schema, its name format) are parameter refusals.
  if (/^InputValidationError|^Invalid skill format/.test(inner))
    return { kind: "error", code: "INVALID_PARAM", message: firstLine(inner), output: text };
  throw new Error(`untranslated Claude Code error: ${JSON.stringify(inner.slice(0, 400))}`);
}

const firstLine = (s) => s.split("\n").find((l) => l.trim()) ?? s;
