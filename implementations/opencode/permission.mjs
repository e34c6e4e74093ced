// The kit's permission hook played through OpenCode's own permission gate. A session with a hook gets
// `permission: { skill: "ask" }` in its opencode.json, so OpenCode's skill tool stops at its ctx.ask and
// OpenCode lists a pending request (GET /permission) until someone replies. While a turn runs, this watcher
// polls for the session's requests, asks the kit's hook, and replies with OpenCode's own answers:
// allow → "always" (OpenCode then stops asking for that skill in the session), allow_once → "once",
// deny / ask / a failed hook → "reject" (fail closed). OpenCode's request carries the permission ("skill"),
// the skill name as pattern and its `always` patterns; the hook gets that request as OpenCode made it (the
// kit's payload fields it does not carry are declared unobserved, `hook.payload`).
import { request } from "./server.mjs";

const REPLY = { allow: "always", allow_once: "once", deny: "reject", ask: "reject" };

/** Watch `sessionId`'s permission requests until stop() is called, handing each to the kit's hook as OpenCode made it. */
export function watchPermissions(srv, dir, sessionId, hook) {
  const handled = new Set();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const pending = await request(srv, "GET", "/permission", dir).catch(() => []);
      for (const ask of Array.isArray(pending) ? pending : []) {
        if (ask.sessionID !== sessionId || handled.has(ask.id)) continue;
        handled.add(ask.id);
        let decision = "deny";
        try {
          // The kit's PermissionDecision is the bare string ("allow", "allow_once", "deny", "ask").
          decision = await hook({
            opencode_permission: {
              permission: ask.permission,
              patterns: ask.patterns,
              always: ask.always,
              metadata: ask.metadata,
            },
          });
        } catch {
          decision = "deny";
        }
        await request(srv, "POST", `/permission/${ask.id}/reply`, dir, { reply: REPLY[decision] ?? "reject" }).catch(
          () => {},
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}
