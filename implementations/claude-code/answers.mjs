// What Claude Code shows, read back as the kit's values: the catalog off its first request, and each call's answer off
// the tool_result and the user message that follows it. Pure (no harness import), so tests feed it Claude Code's own
// text. README.md, "Where each value comes from", says where each wording was seen.
import { unlink } from "../agent-cli-kit/home.mjs";
import { dashListing } from "../agent-cli-kit/listing.mjs";
import { HOOK_REASON } from "../agent-cli-kit/pretooluse.mjs";

const TOOL = "Skill";
const LISTING = "The following skills are available for use with the Skill tool:\n";

/** The catalog as Claude Code shows it: the Skill tool's description, and the listing in a system-reminder. */
export function catalogOf(body) {
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
export function translate({ id, params, result, following, body }, links, used) {
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
  // Its PreToolUse hook refused the call: Claude Code reports the hook's reason after "PreToolUse:Skill hook error: ".
  // Only the kit's own deny (the reason pretooluse.mjs gives) is a permission denial (K121); any other hook error
  // (the relay failed, the hook printed something else) is not the kit's answer, and errors the case in Claude Code's
  // words instead of being labelled a denial.
  const hookError = /^PreToolUse:Skill hook error: ([\s\S]*)$/.exec(inner);
  if (hookError) {
    if (hookError[1].trim() === `${HOOK_REASON}deny`)
      return { kind: "error", code: "PERMISSION_DENIED", message: firstLine(inner), output: text };
    throw new Error(
      `Claude Code reported a PreToolUse hook error that is not the kit's deny: ${JSON.stringify(inner.slice(0, 400))}`,
    );
  }
  // The hook answered "ask": with nobody to ask in -p mode Claude Code refuses, showing the hook's reason only.
  if (inner === `${HOOK_REASON}ask`) return { kind: "error", code: "PERMISSION_DENIED", message: inner, output: text };
  // Claude Code's own refusals of the input (its schema, its name format) are parameter refusals.
  if (/^InputValidationError|^Invalid skill format/.test(inner))
    return { kind: "error", code: "INVALID_PARAM", message: firstLine(inner), output: text };
  throw new Error(`untranslated Claude Code error: ${JSON.stringify(inner.slice(0, 400))}`);
}

const firstLine = (s) => s.split("\n").find((l) => l.trim()) ?? s;
