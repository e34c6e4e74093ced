// Thin conformance driver for OpenCode's `skill` tool, exercising the shipped binary (npm opencode-linux-x64,
// opencode-ai's Linux x64 platform package, version pinned in package.json) end to end: `opencode serve` discovers each session's skills from its config's
// skills.paths (the kit's roots), lists them (GET /skill), and runs its own agent loop, in which a scripted
// loopback model (fake-model.mjs) calls the `skill` tool with the kit's params verbatim. OpenCode validates
// the input, runs the tool, and records the tool part the driver reads back. The driver maps that part onto
// the kit's result kinds; what OpenCode never produces is declared unobserved (K40) and left out.
//
//   npm run conformance -- --suite all --timeout 30000 --exec "npx tsx scripts/reference-driver.ts implementations/opencode/driver.mjs"
import { rmSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { MODEL, PROVIDER, harnessVersion, projectDir, request, server } from "./server.mjs";
import { watchPermissions } from "./permission.mjs";
import {
  capabilities,
  catalogResult,
  errorResult,
  notFoundResult,
  okResult,
  requestedName,
} from "../driver-kit/results.mjs";
import { TurnQueue } from "./turns.mjs";

export const implementationInfo = {
  implementation: { name: "opencode skill", version: harnessVersion, language: "typescript" },
  specVersion: "1",
  // README.md "Capabilities" names where in OpenCode's source each false one was looked for.
  capabilities: capabilities(["symlinks", "file_modes", "permission_hook"]),
  // What OpenCode never produces (K40): no byte count, no root index, no parsed frontmatter beyond name and
  // description, no report of a shadowed skill, no resource list field (a file sample in its text), a permission
  // request without the kit's payload, and one call per model turn (no order of concurrent answers to observe).
  unobserved: [
    "result.bytes",
    "result.frontmatter",
    "result.resources",
    "catalog.entry.root_index",
    "catalog.entry.frontmatter",
    "catalog.entry.shadowed",
    "hook.payload",
    "call.order",
  ],
};

// Start the server as soon as the driver loads: it takes seconds, and the first case should not pay for it.
if (process.env.OPENCODE_DRIVER_LAZY !== "1") server().catch(() => {});

let nextCall = 0;

export async function createSession(config, { hook } = {}) {
  const srv = await server();
  const roots = config.skill_roots;
  // OpenCode scans skills.paths in order and a later skill of the same name replaces an earlier one, so the
  // kit's highest-precedence root goes last.
  // With a hook, OpenCode's own gate asks before every skill activation (permission.mjs answers it).
  const dir = projectDir([...roots].reverse(), hook ? { permission: { skill: "ask" } } : {});
  const queue = new TurnQueue();
  let sessionId = null;
  let skills = null;

  const openSession = async () => (sessionId ??= (await request(srv, "POST", "/session", dir, {})).id);
  const listSkills = async () =>
    (skills ??= (await request(srv, "GET", "/skill", dir)).filter((s) => isAbsolute(s.location)));

  async function turn(params) {
    const id = `kitcall_${++nextCall}`;
    srv.calls.set(id, params);
    try {
      const session = await openSession();
      const body = {
        parts: [{ type: "text", text: `kitcall:${id}` }],
        model: { providerID: PROVIDER, modelID: MODEL },
        agent: "build",
      };
      const stopWatching = hook ? watchPermissions(srv, dir, session, hook) : null;
      try {
        await request(srv, "POST", `/session/${session}/message`, dir, body);
      } finally {
        await stopWatching?.();
      }
      const messages = await request(srv, "GET", `/session/${session}/message`, dir);
      return messages.flatMap((m) => m.parts).find((p) => p.type === "tool" && p.callID === id);
    } finally {
      srv.calls.delete(id);
    }
  }

  return {
    async catalog() {
      const list = await listSkills();
      const tools = await request(srv, "GET", `/experimental/tool?provider=${PROVIDER}&model=${MODEL}`, dir);
      const tool = tools.find((t) => t.id === "skill");
      // In OpenCode's own order (GET /skill), with the fields it lists.
      const entries = list.map((s) => ({ name: s.name, description: s.description, dir: dirname(s.location) }));
      const description = [
        tool?.description ?? "(OpenCode offers no skill tool here)",
        await systemPromptSkills(srv, openSession, dir),
      ]
        .filter(Boolean)
        .join("\n\n");
      return catalogResult(description, entries);
    },
    call(params) {
      return queue.run(async () => toResult(params, await turn(params)));
    },
    async close() {
      await queue.close();
      await request(srv, "POST", "/instance/dispose", dir).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * OpenCode lists skills to the model in its system prompt, not in the tool's description. The scripted model
 * records the system prompt of the last request it served; one plain turn shows it.
 */
async function systemPromptSkills(srv, openSession, dir) {
  const session = await openSession();
  srv.lastSystem = "";
  const body = {
    parts: [{ type: "text", text: "kitcatalog" }],
    model: { providerID: PROVIDER, modelID: MODEL },
    agent: "build",
  };
  await request(srv, "POST", `/session/${session}/message`, dir, body);
  const system = srv.lastSystem ?? "";
  const block = /<available_skills>[\s\S]*?<\/available_skills>/.exec(system);
  return block ? block[0] : "";
}

/** OpenCode's tool output wraps the body as `# Skill: <name>\n\n<body>\n\nBase directory for this skill: …`. */
function bodyOf(output, name) {
  const head = `# Skill: ${name}\n\n`;
  const start = output.indexOf(head);
  const end = output.lastIndexOf("\n\nBase directory for this skill: ");
  if (start < 0 || end < start + head.length) return output;
  return output.slice(start + head.length, end);
}

function toResult(params, part) {
  const name = requestedName(params);
  // No tool part: OpenCode never ran the tool for this input. Nothing it said to classify, so the case errors.
  if (!part) throw new Error("OpenCode recorded no tool call for this input");
  const state = part.state ?? {};
  if (part.tool === "skill" && state.status === "completed") {
    const skillName = state.metadata?.name;
    return okResult({
      name: skillName,
      dir: state.metadata?.dir,
      body: bodyOf(state.output ?? "", skillName ?? name),
      output: state.output ?? "",
    });
  }
  const message = String(state.error ?? state.output ?? `tool ${part.tool} ended ${state.status}`);
  if (/^(Error: )?Skill "[\s\S]*" not found/.test(message) && name !== undefined) return notFoundResult(name, message);
  if (/rejected permission|permission.*(denied|rejected)|DeniedError/i.test(message)) {
    return errorResult("PERMISSION_DENIED", message, message, { name });
  }
  if (part.tool === "invalid" || /invalid (input|arguments)|expected .* received|Invalid input/i.test(message)) {
    return errorResult("INVALID_PARAM", message, message, { name });
  }
  // A file-system failure in OpenCode's own words (an errno name or Node's text for it) is an I/O error; any other
  // message is left untranslated: the case errors with OpenCode's words, no class guessed (issue 27: a harness's
  // error keeps its own class, and the driver invents none).
  if (/\b(ENOENT|EACCES|EISDIR|ENOTDIR|ELOOP|EIO|EPERM|ENXIO)\b|no such file or directory/i.test(message))
    return errorResult("IO_ERROR", message, message, { name });
  throw new Error(`untranslated OpenCode tool result (${part.tool}, ${state.status}): ${message.slice(0, 400)}`);
}
