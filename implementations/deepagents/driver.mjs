// The conformance driver for LangChain deepagents' skills (npm `deepagents`, version pinned in package.json).
// deepagents has no `skill` tool and no lookup by name: its SkillsMiddleware lists skills (name, description,
// SKILL.md path) in the system prompt, and the model activates one by calling the `read_file` tool on a listed
// path. So this row judges what deepagents has: the listing (the catalog), and what `read_file` returns for a
// listed path (an activation). A call by a name the listing does not hold has no path to read: the rules of a
// lookup by name are declared unobserved (`call.by-name`, K40), never answered by the driver's own lookup.
//   real        createSkillsMiddleware's loading and its system-prompt section; FilesystemBackend; the
//               filesystem middleware's `read_file` (its O_NOFOLLOW open, its line-numbered output); in a
//               session with the kit's permission hook, the whole agent loop: createDeepAgent with
//               `interruptOn: { read_file: true }` and a checkpointer, its human-in-the-loop interrupt answered
//               by the kit's hook and resumed with approve/reject (agent-loop.mjs)
//   translated  the listed path for the requested name (what the model reads off the listing); the body is
//               the file text read back from read_file's numbered rows, less deepagents' own frontmatter pattern
// Run: npm run conformance -- --driver implementations/deepagents/driver.mjs   (after `npm ci` in this folder)
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { createFilesystemMiddleware, createSkillsMiddleware, FilesystemBackend } from "deepagents";
import { SystemMessage } from "@langchain/core/messages";
import {
  capabilities,
  catalogResult,
  errorResult,
  okResult,
  requestedName,
  unobservedCall,
} from "../driver-kit/results.mjs";
import { capturingLogs } from "../driver-kit/logs.mjs";
import { createAgentLoop } from "./agent-loop.mjs";

const require = createRequire(import.meta.url);
const DEEPAGENTS_VERSION = require("deepagents/package.json").version;

// deepagents' own frontmatter pattern (parseSkillMetadataFromContent in src/middleware/skills.ts): the
// driver cuts `body` with it so the body is what deepagents itself takes as frontmatter's end.
const FRONTMATTER_PATTERN = /^---\s*\n([\s\S]*?)\n---\s*\n/;
// The read the system prompt tells the model to make: read_file(path, limit=1000).
const SKILL_READ_LIMIT = 1000;
/** Where deepagents reports skills it drops: console.warn, console.error and console.debug. */
const DEEPAGENTS_LOGS = ["warn", "error", "debug"];

export const implementationInfo = {
  implementation: { name: "deepagents-skills", version: DEEPAGENTS_VERSION, language: "typescript" },
  specVersion: "1",
  // README.md "Capabilities" names where in deepagents' source each false one was looked for. read_file shows
  // the whole SKILL.md, frontmatter included: its unknown fields reach the model (frontmatter_passthrough).
  // Its filesystem permission rules (deny a read on path globs) are its sensitive patterns. Its human-in-the-loop
  // interrupt on read_file (`interruptOn`) is its permission hook.
  capabilities: capabilities([
    "permission_hook",
    "allowed_tools",
    "symlinks",
    "file_modes",
    "frontmatter_passthrough",
    "sensitive_patterns",
  ]),
  // What deepagents never produces (K40): no lookup by name, no byte count, no parsed frontmatter in what
  // read_file returns, no resource list, no root index and no shadowing report in its listing, no error codes
  // (plain "Error: …"), and an interrupt that carries the tool call (name, args, description), not the kit's
  // hook payload (path, always_patterns, metadata).
  unobserved: [
    "hook.payload",
    "call.by-name",
    "result.bytes",
    "result.frontmatter",
    "result.resources",
    "catalog.entry.root_index",
    "catalog.entry.shadowed",
    "error.code",
  ],
};

/**
 * The file text read_file showed the model. This version shows a window header `@@ lines 1-5 of 5 @@` and the
 * lines as they are (older ones numbered rows `<n>\t<line>`, a long line continuing as `<n>.<k>\t…`); each
 * shown line is a line of the file, so each ends in a line feed here (the tool shows no other line end).
 */
export function fileTextOf(output) {
  const rows = output.split("\n");
  if (/^@@ lines \d+-\d+ of \d+ @@$/.test(rows[0] ?? ""))
    return rows
      .slice(1)
      .map((l) => `${l}\n`)
      .join("");
  const lines = [];
  for (const row of rows) {
    const m = /^\s*(\d+)(\.\d+)?\t(.*)$/.exec(row);
    if (!m) continue;
    if (m[2] && lines.length) lines[lines.length - 1] += m[3];
    else lines.push(m[3]);
  }
  return lines.map((l) => `${l}\n`).join("");
}

const withSlash = (p) => (p.endsWith("/") ? p : `${p}/`);

function textOf(out) {
  if (typeof out === "string") return out;
  if (Array.isArray(out)) return out.map((b) => (typeof b === "string" ? b : (b?.text ?? ""))).join("");
  if (out && typeof out === "object" && "content" in out) return textOf(out.content);
  return String(out);
}

/** The frontmatter as deepagents keeps it (SkillMetadata), in the spec's key spelling. */
function frontmatterOf(meta) {
  const fm = { name: meta.name, description: meta.description };
  if (meta.license) fm.license = meta.license;
  if (meta.compatibility) fm.compatibility = meta.compatibility;
  if (meta.metadata && Object.keys(meta.metadata).length) fm.metadata = meta.metadata;
  if (meta.allowedTools?.length) fm["allowed-tools"] = meta.allowedTools;
  return fm;
}

export async function createSession(config, options = {}) {
  const roots = config.skill_roots.map(withSlash);
  // deepagents: "later sources override earlier ones"; the kit's roots are highest precedence first.
  const sources = [...roots].reverse();
  const backend = new FilesystemBackend({ rootDir: "/" });
  const skills = createSkillsMiddleware({ backend, sources });
  // The kit's sensitive_patterns as deepagents' own permission rules: its globs are absolute ("/**/secrets/**").
  const patterns = config.sensitive_patterns ?? [];
  const permissions = patterns.length
    ? [{ operations: ["read"], paths: patterns.map((p) => (p.startsWith("/") ? p : `/${p}`)), mode: "deny" }]
    : [];
  const readFile = createFilesystemMiddleware({ backend, permissions }).tools.find((t) => t.name === "read_file");
  // With the kit's hook, a read is a turn of deepagents' agent loop, interrupted before read_file runs and
  // answered by the hook (with deepagents' own interrupt value); without one, the tool call the model makes.
  const loop = options.hook ? createAgentLoop({ sources, permissions, ask: options.hook }) : undefined;
  let state; // the middleware's thread state: skillsMetadata, loaded once per thread as in an agent run
  const loadLogs = [];

  async function load() {
    if (!state) {
      const { value, logged } = await capturingLogs(() => skills.beforeModel({}), DEEPAGENTS_LOGS);
      state = { skillsMetadata: value?.skillsMetadata ?? [] };
      loadLogs.push(...logged);
    }
    return state;
  }

  async function catalog() {
    const st = await load();
    let system;
    await skills.wrapModelCall({ state: st, systemMessage: new SystemMessage("") }, (req) => {
      system = req.systemMessage;
      return {};
    });
    // In deepagents' own order, with the fields its SkillMetadata holds.
    const entries = st.skillsMetadata.map((m) => ({
      name: m.name,
      description: m.description,
      dir: dirname(m.path),
      frontmatter: frontmatterOf(m),
    }));
    return catalogResult(textOf(system).trim(), entries, [...loadLogs]);
  }

  async function callOnce(params) {
    const st = await load();
    const name = requestedName(params);
    // The model reads the path the listing shows for the name; a name it does not show has no path to read: the call
    // cannot be given to deepagents, and is answered unobserved (K120), never with a not_found made up here.
    const meta = name === undefined ? undefined : st.skillsMetadata.find((m) => m.name === name);
    if (!meta)
      return unobservedCall(
        "call.by-name",
        "deepagents has no lookup by name, and its listing shows no SKILL.md path for this input, so there is nothing read_file could be given",
      );
    const args = { file_path: meta.path, limit: SKILL_READ_LIMIT };
    const answer = loop ? await loop.read(args) : await readFile.invoke(args);
    const output = textOf(answer);
    // The human-in-the-loop rejection the model is given (a ToolMessage with status "error"), or read_file's own
    // failure (a refused symlink, a missing file): "Error: …". deepagents' own text, no code.
    if (answer?.status === "error" || /^Error: /.test(output)) return errorResult(undefined, output, output, { name });
    const text = fileTextOf(output);
    const m = text.match(FRONTMATTER_PATTERN);
    return okResult({ name: meta.name, dir: dirname(meta.path), body: m ? text.slice(m[0].length) : text, output });
  }

  function call(params) {
    return capturingLogs(() => callOnce(params), DEEPAGENTS_LOGS).then(({ value, logged }) =>
      logged.length ? { ...value, warnings: logged } : value,
    );
  }

  async function close() {}

  return { catalog, call, close };
}
