// SK3 already-loaded: the skill is activated in turn 1 and wanted again in turn 2; a second activation returns
// already_loaded and the model does not ask for the content again (no reload, no reading SKILL.md).
import { read, say, skill, skillDirOf, type Scenario } from "../scenario.ts";
import { inputName, type ToolEvent } from "../transcript.ts";
import { answerOf, fail, firstOk, pass, show, showCmd, skillFileAccess, trustedConfig } from "./common.ts";

const SKILL = "commit-style";
const MARKER = "(style: commit-style v1)";

const REWRITES: Record<string, string> = {
  "Fixed the login bug.": "fix: resolve the login bug",
  "Added dark mode to the settings page": "feat: add dark mode to the settings page",
};

function rewrite(user: string): string {
  const msg = Object.keys(REWRITES).find((k) => user.includes(k)) ?? "";
  return `${REWRITES[msg] ?? "chore: update"}\n${MARKER}`;
}

export const SK3: Scenario = {
  id: "SK3",
  title: "already-loaded",
  spec: "agent activates the same skill twice; second call returns already_loaded and the model doesn't re-ask for content.",
  fixture: "SK3-already-loaded",
  skillRoots: [".skills"],
  config: trustedConfig,
  prompts: [
    "Use the commit-style skill to rewrite this commit message: \"Fixed the login bug.\"",
    "Now rewrite this one the same way, again with the commit-style skill: \"Added dark mode to the settings page\"",
  ],
  maxSteps: 14,
  check(t) {
    const first = firstOk(t, SKILL);
    if (!first) return fail(`never activated ${SKILL}`);
    const later = t.skillCallsAbout(SKILL).filter((e) => t.indexOf(e) > t.indexOf(first));
    const replayed = later.find((e) => e.skill?.kind === "ok");
    if (replayed) return fail(`the second activation returned the body again (kind ok), not already_loaded`);
    // After the body is in context: a plain re-activation is allowed (and must be already_loaded); anything else
    // about this skill — a reload-shaped call, a second re-activation in the same turn — is re-asking for content.
    const seenThisTurn = new Map<number, number>();
    let reactivated: ToolEvent | undefined;
    for (const e of later) {
      const plain = inputName(e.input) === SKILL && Object.keys(e.input as object).every((k) => k === "name" || k === "arguments");
      const turn = t.assistantTurns().find((a) => a.step === e.step)?.turn ?? 0;
      seenThisTurn.set(turn, (seenThisTurn.get(turn) ?? 0) + 1);
      if (!plain) return fail(`re-asked for the content after it was loaded: skill(${show(e.input)}) → ${e.skill?.kind === "error" ? e.skill.code : e.skill?.kind}`);
      if (e.skill?.kind !== "already_loaded") return fail(`re-activation returned ${e.skill?.kind}, not already_loaded`);
      if ((seenThisTurn.get(turn) ?? 0) > 1) return fail(`called ${SKILL} again after already_loaded in the same turn`);
      reactivated ??= e;
    }
    const refetch = skillFileAccess(t, SKILL, [], first)[0];
    if (refetch) return fail(`re-read the skill's files after it was loaded: ${refetch.tool === "read" ? `read(${show(refetch.input)})` : showCmd(String((refetch.input as { command?: unknown })?.command ?? ""))}`);
    for (const turn of [1, 2]) {
      if (!answerOf(t, turn).includes(MARKER)) return fail(`turn ${turn}'s answer does not follow ${SKILL} (no "${MARKER}" line)`);
    }
    return pass(
      reactivated
        ? `activated ${SKILL} in turn 1; re-called it in turn 2, got already_loaded, and reused the loaded body`
        : `activated ${SKILL} in turn 1 and reused the loaded body in turn 2 without re-calling (already_loaded not exercised)`,
    );
  },
  good(v) {
    if (v.calls("skill").length === 0) return skill({ name: SKILL });
    return say(rewrite(v.user));
  },
  bad: {
    refetch: {
      mistake: "activates twice, gets already_loaded, then asks for the content again by reading SKILL.md",
      play(v) {
        const skills = v.calls("skill");
        if (skills.length === 0) return skill({ name: SKILL });
        if (v.turn === 2 && v.calls("read").length === 0) {
          const dir = v.history.map((e) => skillDirOf(e.output)).find((d) => d !== undefined) ?? ".skills/commit-style";
          return read(`${dir}/SKILL.md`);
        }
        return say(rewrite(v.user));
      },
    },
    "reload-param": {
      mistake: "activates twice, gets already_loaded, then retries with reload: true",
      play(v) {
        const skills = v.calls("skill");
        if (skills.length === 0) return skill({ name: SKILL });
        if (v.turn === 2 && skills.length === 1) return skill({ name: SKILL, reload: true });
        return say(rewrite(v.user));
      },
    },
  },
};
