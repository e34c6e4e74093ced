// What Qwen Code shows, read back as the kit's values: the catalog off its first request, and each call's answer off
// the tool_result it sends next. Pure (no harness import), so tests feed it Qwen's own text. README.md, "Where each
// value comes from", names Qwen's source for each wording.
import { unlink } from "../agent-cli-kit/home.mjs";
import { unescapeXml, xmlListing } from "../agent-cli-kit/listing.mjs";
import { HOOK_REASON } from "../agent-cli-kit/pretooluse.mjs";

const TOOL = "skill";

/** The catalog as Qwen shows it: the skill tool's description and the <available_skills> system-reminder. */
export function catalogOf(body) {
  const tool = body.tools.find((t) => t.name === TOOL);
  const texts = body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).map((b) => b.text ?? "");
  const reminder = texts.find((t) => t.includes("<available_skills>"));
  // The description as Qwen shows it to the model: its renderAvailableSkillsBlock (packages/core/src/tools/
  // skill-utils.ts) writes `description[ — whenToUse] (level)` inside <description>, e.g. "Greets the user. (user)".
  // No spec sentence or decision makes that suffix presentation, so it stays (README "Where each value comes from").
  const entries = (reminder ? xmlListing(reminder) : []).map((e) => ({
    name: unescapeXml(e.name),
    description: unescapeXml(e.description ?? ""),
  }));
  return { tool_description: [tool.description, reminder].filter(Boolean).join("\n\n"), entries };
}

const BASE = /^Base directory for this skill: (.*)\n(?:Important: [^\n]*\n)?\n/;

// Qwen's own envelope for a tool output over its limit (truncateToolOutput in its bundle): the whole output is saved
// to a file it names, and the model gets the path and a preview.
const PERSISTED = /^<persisted-output>\nOutput too large \([^)]*\)\. Full output saved to: ([^\n]+)\n/;

/** readSaved(path): the text of a file Qwen saved an oversized output to (the driver passes a file read). */
export function translate({ result }, links, readSaved) {
  const saved = result.isError ? null : PERSISTED.exec(result.text);
  // The activation succeeded and Qwen kept its whole output, as it tells the model to read it: judge that output.
  if (saved && readSaved)
    return { ...translate({ result: { text: readSaved(saved[1]) } }, links), output: result.text };
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
