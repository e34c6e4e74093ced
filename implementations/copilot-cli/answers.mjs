// What Copilot CLI shows, read back as the kit's values: the catalog off its first request's system prompt, and each
// call's answer off its tool result and the <skill-context> blocks after it. Pure (no harness import), so tests feed it
// Copilot's own text. README.md, "Where each value comes from", says where each wording was seen.
import { unlink } from "../agent-cli-kit/home.mjs";
import { unescapeXml, xmlListing } from "../agent-cli-kit/listing.mjs";
import { HOOK_REASON } from "../agent-cli-kit/pretooluse.mjs";

const TOOL = "skill";

/** The catalog as Copilot shows it: the skill tool's description and the <available_skills> block of its system prompt. */
export function catalogOf(body) {
  const tool = body.tools.find((t) => t.name === TOOL);
  const system = (Array.isArray(body.system) ? body.system.map((b) => b.text ?? "").join("\n") : body.system) ?? "";
  const block = /<available_skills>[\s\S]*?<\/available_skills>/.exec(system)?.[0];
  const entries = (block ? xmlListing(block) : []).map((e) => ({
    name: unescapeXml(e.name),
    description: unescapeXml(e.description ?? ""),
  }));
  return { tool_description: [tool.description, block].filter(Boolean).join("\n\n"), entries };
}

// Copilot adds the loaded skills' bodies after the results, one <skill-context> block each (several may share one
// message). A block whose closing tag never comes is taken to the end of the message.
const CONTEXT =
  /<skill-context name="([^"]*)">\nBase directory for this skill: (.*)\n\n([\s\S]*?)(?:\n<\/skill-context>|$)(?=\n<skill-context |\s*$)/g;

function contexts(following) {
  return following.flatMap((f) =>
    [...f.matchAll(CONTEXT)].map((m) => ({ block: m[0], name: m[1], dir: m[2], body: m[3] })),
  );
}

export function translate({ result, following }, links) {
  const text = result.text;
  const loaded = /^Skill "([\s\S]*)" loaded successfully\./.exec(text);
  if (loaded && !result.isError) {
    const name = loaded[1];
    const ctx = contexts(following).find((c) => c.name === name);
    if (!ctx)
      throw new Error(
        `Copilot loaded ${name} but no <skill-context> for it follows: ${JSON.stringify(following.map((f) => f.slice(0, 200)))}`,
      );
    return { kind: "ok", name, dir: unlink(ctx.dir, links), body: ctx.body, output: `${text}\n\n${ctx.block}` };
  }
  const notFound = /^Skill "([\s\S]*)" not found\./.exec(text);
  if (notFound) return { kind: "not_found", name: notFound[1], siblings: suggested(text), output: text };
  // "Failed to load skill: <reason>" is Copilot's wrapper for any failure of its skill tool (the native runtime's
  // "Failed to load skill: " prefix, README). Its class is the reason's: a field error of the tool's input schema,
  // `"skill": Required` (U05: no `skill` key) or another message about its one parameter `skill`, is Copilot refusing
  // the parameters, INVALID_PARAM; so is "Invalid input: …" (a non-object input). Any other reason is not a parameter
  // refusal and is left untranslated: the case errors with Copilot's words, no class guessed.
  if (/^Failed to load skill: "skill": [^\n]+$|^Invalid input: /.test(text))
    return { kind: "error", code: "INVALID_PARAM", message: text.split("\n")[0], output: text };
  // Its preToolUse hook refused the call: PERMISSION_DENIED only when the reason is the kit's own deny (K121).
  const denied = /^Denied by preToolUse hook(?: \(unable to ask user for confirmation\))?: ([^\n]*)/.exec(text);
  if (denied)
    if (denied[1] === `${HOOK_REASON}deny` || denied[1] === `${HOOK_REASON}ask`)
      return { kind: "error", code: "PERMISSION_DENIED", message: text.split("\n")[0], output: text };
    else
      throw new Error(`Copilot CLI reported a preToolUse hook denial that is not the kit's: ${JSON.stringify(text)}`);
  // Its read of the SKILL.md failed (the file vanished or cannot be read).
  if (/^Failed to read skill file "/.test(text))
    return { kind: "error", code: "IO_ERROR", message: text.split("\n")[0], output: text };
  throw new Error(
    `untranslated Copilot CLI tool result${result.isError ? " (is_error)" : ""}: ${JSON.stringify(text.slice(0, 400))}`,
  );
}

/** The names the harness suggests after not finding one ("Available skills: a, b"; "none"): its siblings. */
function suggested(text) {
  const list = /Available skills: ([^\n]*)$/.exec(text)?.[1];
  return !list || list === "none" ? [] : list.split(", ");
}
