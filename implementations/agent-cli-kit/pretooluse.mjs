// A PreToolUse command hook in the settings format Claude Code defined and Qwen Code shares
// (`hooks.PreToolUse[{matcher, hooks: [{type: "command", command}]}]`, answer `hookSpecificOutput.permissionDecision`),
// wired to the kit's permission hook. The harness gives its hook the tool input only, so the kit is sent what that
// says (the name) and nothing it would have to invent (hook.payload unobserved). The kit's decision goes back in the
// harness's words: allow / allow_once -> "allow", deny -> "deny", ask -> "ask" (what "ask" means with nobody to ask
// is the harness's call); the reason names the decision, so a driver can recognise the harness's refusal text.
import { join } from "node:path";
import { RELAY, startHookServer } from "./hook-server.mjs";

export const HOOK_REASON = "the kit's permission hook answered ";

export async function preToolUseHook(world, hook, { matcher, nameKey }) {
  const socket = join(world.base, "hook.sock");
  const server = await startHookServer(socket, async (input) => {
    const name = input?.tool_input?.[nameKey];
    const decision = await hook({
      tool: "skill",
      action: "activate",
      metadata: typeof name === "string" ? { name } : {},
    });
    const permissionDecision = decision === "allow_once" ? "allow" : decision;
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision,
        permissionDecisionReason: `${HOOK_REASON}${decision}`,
      },
    });
  });
  const command = `'${process.execPath}' '${RELAY}' '${socket}'`;
  return { server, hooks: { PreToolUse: [{ matcher, hooks: [{ type: "command", command }] }] } };
}
