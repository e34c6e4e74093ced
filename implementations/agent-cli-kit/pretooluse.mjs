// A PreToolUse command hook in the settings format Claude Code defined and Qwen Code shares
// (`hooks.PreToolUse[{matcher, hooks: [{type: "command", command}]}]`, answer `hookSpecificOutput.permissionDecision`),
// and Copilot CLI's own (`preToolUse`, answer `permissionDecision`), wired to the kit's permission hook. The harness gives its hook the tool input only, so the kit is sent what that
// says (the name) and nothing it would have to invent (hook.payload unobserved). The kit's decision goes back in the
// harness's words: allow / allow_once -> "allow", deny -> "deny", ask -> "ask" (what "ask" means with nobody to ask
// is the harness's call); the reason names the decision, so a driver can recognise the harness's refusal text.
import { join } from "node:path";
import { RELAY, startHookServer } from "./hook-server.mjs";

export const HOOK_REASON = "the kit's permission hook answered ";

/**
 * The driver's end of a command hook: a socket the relay command passes each hook input to. `read(input)` is the
 * skill name the harness's input carries (undefined: it names none), or null for a tool that is not the skill tool
 * (answered with nothing: the harness's own default); `write(decision, reason)` is the answer in its format.
 */
async function relayHook(world, hook, { read, write }) {
  const socket = join(world.base, "hook.sock");
  const server = await startHookServer(socket, async (input) => {
    const name = read(input);
    if (name === null) return "";
    const decision = await hook({
      tool: "skill",
      action: "activate",
      metadata: typeof name === "string" ? { name } : {},
    });
    return JSON.stringify(write(decision === "allow_once" ? "allow" : decision, `${HOOK_REASON}${decision}`));
  });
  return { server, command: `'${process.execPath}' '${RELAY}' '${socket}'` };
}

export async function preToolUseHook(world, hook, { matcher, nameKey }) {
  const { server, command } = await relayHook(world, hook, {
    read: (input) => input?.tool_input?.[nameKey],
    write: (permissionDecision, permissionDecisionReason) => ({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, permissionDecisionReason },
    }),
  });
  return { server, hooks: { PreToolUse: [{ matcher, hooks: [{ type: "command", command }] }] } };
}

/** Copilot's toolArgs: an object (1.0.102, seen here) or, as its hooks reference words it, a JSON string. */
function argsOf(a) {
  if (typeof a !== "string") return a;
  try {
    return JSON.parse(a);
  } catch {
    return undefined;
  }
}

/**
 * Copilot CLI's preToolUse command hook (a `{"version": 1, "hooks": {"preToolUse": [{type: "command", bash}]}}` file;
 * input `{sessionId, timestamp, cwd, toolName, toolArgs}`, answer `{permissionDecision, permissionDecisionReason}`).
 * It has no matcher: every tool's call comes, and only `tool`'s is the kit's to decide.
 */
export async function copilotPreToolUseHook(world, hook, { tool, nameKey }) {
  const { server, command } = await relayHook(world, hook, {
    read: (input) => (input?.toolName === tool ? argsOf(input.toolArgs)?.[nameKey] : null),
    write: (permissionDecision, permissionDecisionReason) => ({ permissionDecision, permissionDecisionReason }),
  });
  return { server, config: { version: 1, hooks: { preToolUse: [{ type: "command", bash: command }] } } };
}
