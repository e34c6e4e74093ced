// The conformance driver for LangChain deepagents' skills (npm `deepagents`, version pinned in package.json).
// deepagents has no `skill` tool: its SkillsMiddleware lists skills in the system prompt (progressive
// disclosure) and the model activates one by calling the `read_file` tool on the SKILL.md path listed.
// This driver owns the translation: the kit's skill call by name becomes that read, made with the REAL
// shipped code. What is real and what is synthesised is listed in README.md; in short:
//   real        createSkillsMiddleware's loading (beforeModel: backend ls + read, its YAML frontmatter parse,
//               its name validation, last-source-wins overriding) and its system-prompt section
//               (wrapModelCall), FilesystemBackend, and createFilesystemMiddleware's `read_file` tool, whose
//               output is what the model sees on activation
//   synthesised the name → path lookup the model would make in the listing; `body` cut from the file with
//               deepagents' own frontmatter pattern; warnings = what deepagents logged; not_found when the
//               listing has no such name
// Run: npm run conformance -- --driver implementations/deepagents/driver.mjs   (after `npm ci` in this folder)
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { createFilesystemMiddleware, createSkillsMiddleware, FilesystemBackend } from "deepagents";
import { SystemMessage } from "@langchain/core/messages";
import { CallQueue, capabilities, catalogEntry, catalogResult, errorResult, notFoundResult, okResult, requestedName, rootIndexOf } from "../driver-kit/results.mjs";
import { capturingLogs } from "../driver-kit/logs.mjs";

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
  // No skill tool and no activation step of its own: no permission hook on activation, no caller distinction,
  // no "already loaded" state, no trust gate, no sensitive patterns, no arguments, no resource listing; the
  // frontmatter is reduced to the fields it parses. It parses allowed-tools (a list, or a string split on
  // whitespace) and runs on a real filesystem. Every other known capability is declared false.
  capabilities: capabilities(["allowed_tools", "symlinks", "file_modes"]),
};


const withSlash = (p) => (p.endsWith("/") ? p : `${p}/`);

function textOf(out) {
  if (typeof out === "string") return out;
  if (Array.isArray(out)) return out.map((b) => (typeof b === "string" ? b : b?.text ?? "")).join("");
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

export async function createSession(config) {
  const roots = config.skill_roots.map(withSlash);
  // deepagents: "later sources override earlier ones"; the kit's roots are highest precedence first.
  const sources = [...roots].reverse();
  const backend = new FilesystemBackend({ rootDir: "/" });
  const skills = createSkillsMiddleware({ backend, sources });
  const readFile = createFilesystemMiddleware({ backend }).tools.find((t) => t.name === "read_file");
  let state; // the middleware's thread state: skillsMetadata, loaded once per thread as in an agent run
  const loadLogs = [];
  const queue = new CallQueue();

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
    const entries = st.skillsMetadata.map((m) => {
      const dir = dirname(m.path);
      return catalogEntry({ name: m.name, description: m.description, dir, rootIndex: Math.max(0, rootIndexOf(roots, dir)), frontmatter: frontmatterOf(m) });
    });
    return catalogResult(textOf(system).trim(), entries, [...loadLogs]);
  }

  async function callOnce(params) {
    const st = await load();
    const name = requestedName(params) ?? String(params?.name ?? "");
    const meta = st.skillsMetadata.find((m) => m.name === name);
    if (!meta) return notFoundResult(name, `no skill named "${name}" in the skills list`);
    const output = textOf(await readFile.invoke({ file_path: meta.path, limit: SKILL_READ_LIMIT }));
    const [file] = await backend.downloadFiles([meta.path]);
    if (!file || file.error || file.content == null) return errorResult("IO_ERROR", `cannot read ${meta.path}: ${file?.error ?? "no content"}`, output, { name, path: meta.path });
    const text = new TextDecoder().decode(file.content);
    const m = text.match(FRONTMATTER_PATTERN);
    const body = m ? text.slice(m[0].length) : text;
    return okResult({ name: meta.name, dir: dirname(meta.path), body, frontmatter: frontmatterOf(meta), output });
  }

  function call(params) {
    return queue.run(() => capturingLogs(() => callOnce(params), DEEPAGENTS_LOGS)).then(({ value, logged }) => (logged.length ? { ...value, warnings: logged } : value));
  }

  async function close() {
    await queue.close().catch(() => undefined); // queued calls are refused; the one running finishes
  }

  return { catalog, call, close };
}
