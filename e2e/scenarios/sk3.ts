// SK3 already-loaded: the skill is activated in turn 1 and wanted again in turn 2; a second activation returns
// already_loaded and the model does not ask for the content again (no reload-shaped call, no re-reading SKILL.md).
// Ground truth per trial: a style token only the skill body carries (and a canary for re-reads of SKILL.md); each
// turn's answer must be the message rewritten as a Conventional Commit of the right type.
import { loadedBody, read, say, skill, skillResult, type Scenario } from "../scenario.ts";
import { inputName, resultLabel, type ToolEvent } from "../transcript.ts";
import {
  activationAttempts,
  answerOf,
  squash,
  error,
  exposures,
  fail,
  firstOk,
  inconclusive,
  mentions,
  pass,
  showCall,
  trustedConfig,
  turnOf,
} from "./common.ts";
import { TrialValues, fillTemplates } from "./nonce.ts";

const SKILL = "commit-style";

export const sk3Values = (workspace: string) => ({ TOKEN: new TrialValues(workspace).hex("style") });

/** Per turn: the Conventional Commit type and what the message was about (the subject or scope must keep it). */
const EXPECTED = [
  { type: "fix", about: "login" },
  { type: "feat", about: "dark mode" },
];

const REWRITES: Record<string, string> = {
  "Fixed the login bug.": "fix: resolve the login bug",
  "Added dark mode to the settings page": "feat: add dark mode to the settings page",
};

/**
 * Why a turn's answer is not the rewritten message the skill asks for, or undefined when it is. Any line of the
 * answer may be the message (prose around it, a fence, inline code, a scope such as `fix(login): …`); the first
 * candidate's problem is reported when none fits.
 */
function answerProblem(answer: string, turn: number, token: string): string | undefined {
  const want = EXPECTED[turn - 1]!;
  const re = new RegExp(`(?:^|[\\s\`"'(>])(${want.type}(?:\\(([^)]*)\\))?!?):[ \\t]*([^\`"\\n]+)`, "gim");
  const problems: string[] = [];
  for (const m of answer.replace(/[*]/g, "").matchAll(re)) {
    const summary = m[3]!.trim();
    const subject = `${m[1]}: ${summary}`;
    if (!squash(`${m[2] ?? ""} ${summary}`).includes(squash(want.about)))
      problems.push(`the subject "${subject}" lost what the message was about (${want.about})`);
    else if (/\.$/.test(summary) || summary !== summary.toLowerCase())
      problems.push(`the subject "${subject}" breaks the style (lower case, no trailing period)`);
    else break;
  }
  const found = [...answer.replace(/[*]/g, "").matchAll(re)].length;
  if (found === 0) return `no "${want.type}: …" Conventional Commit line`;
  if (problems.length === found) return problems[0];
  if (!mentions(answer, `style: commit-style ${token}`))
    return `no "(style: commit-style ${token})" line from the skill body`;
  return undefined;
}

export const SK3: Scenario = {
  id: "SK3",
  title: "already-loaded",
  spec: "agent activates the same skill twice; second call returns already_loaded and the model doesn't re-ask for content.",
  fixture: "SK3-already-loaded",
  skillRoots: [".skills"],
  config: trustedConfig,
  async setup(ws) {
    fillTemplates(ws, sk3Values(ws));
  },
  prompts: [
    'Use the commit-style skill to rewrite this commit message: "Fixed the login bug."',
    'Now rewrite this one the same way, again with the commit-style skill: "Added dark mode to the settings page"',
  ],
  maxSteps: 14,
  check(t) {
    const { TOKEN } = sk3Values(t.meta.workspace);
    const first = firstOk(t, SKILL);
    if (!first) return fail(`never activated ${SKILL}`);
    const later = activationAttempts(t, SKILL).filter((e) => t.indexOf(e) > t.indexOf(first));
    const replayed = later.find((e) => e.skill?.kind === "ok");
    if (replayed)
      return error(
        "implementation",
        `implementation fault: a second activation of ${SKILL} returned the body again (kind ok), not already_loaded`,
      );
    // After the body is in context, one plain re-activation per turn is allowed (it must be already_loaded); anything
    // else about this skill — a reload-shaped call, another spelling or tool, a repeat — is re-asking for the content.
    const perTurn = new Map<number, number>();
    let reactivated: ToolEvent | undefined;
    for (const e of later) {
      const plain =
        e.tool === "skill" &&
        inputName(e.input) === SKILL &&
        Object.keys(e.input as object).every((k) => k === "name" || k === "arguments");
      const turn = turnOf(t, e);
      perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
      if (!plain)
        return fail(
          `re-asked for the content after it was loaded: ${showCall(e)} → ${resultLabel(e.skill)}`,
          reactivated !== undefined,
        );
      // Arguments of the wrong form (an object for a skill that declares none) are the model's slip, rejected before
      // any loading: not a re-fetch, and not the already_loaded situation either.
      if (e.skill?.kind === "error" && e.skill.code === "INVALID_PARAM") {
        perTurn.set(turn, perTurn.get(turn)! - 1);
        continue;
      }
      if (e.skill?.kind !== "already_loaded")
        return error(
          "implementation",
          `implementation fault: re-activation returned ${resultLabel(e.skill)}, not already_loaded`,
        );
      if ((perTurn.get(turn) ?? 0) > 1) return fail(`called ${SKILL} again after already_loaded in the same turn`);
      reactivated ??= e;
    }
    const refetch = exposures(t, [TOKEN], first)[0];
    if (refetch)
      return fail(`re-read the skill's files after it was loaded: ${showCall(refetch)}`, reactivated !== undefined);
    for (const turn of [1, 2]) {
      // The answer comes after the body (turn 1) and after any re-activation in the turn (turn 2).
      const sources = turn === 1 ? [first] : later.filter((e) => turnOf(t, e) === 2);
      const problem = answerProblem(answerOf(t, turn, sources), turn, TOKEN);
      if (problem)
        return fail(`turn ${turn}'s final answer does not follow ${SKILL}: ${problem}`, reactivated !== undefined);
    }
    if (!reactivated)
      return inconclusive(
        `activated ${SKILL} in turn 1 and reused the loaded body in turn 2 without a re-activation that returned already_loaded (not exercised)`,
      );
    return pass(`activated ${SKILL} in turn 1; re-called it in turn 2, got already_loaded, and reused the loaded body`);
  },
  good(v) {
    if (v.calls("skill").length === 0) return skill({ name: SKILL });
    const marker = /`(\(style: commit-style [^`]+\))`/.exec(loadedBody(v.history))?.[1] ?? "";
    const msg = Object.keys(REWRITES).find((k) => v.user.includes(k)) ?? "";
    return say(`${REWRITES[msg] ?? "chore: update"}\n${marker}`);
  },
  bad: {
    refetch: {
      mistake: "activates twice, gets already_loaded, then asks for the content again by reading SKILL.md",
      play(v) {
        const skills = v.calls("skill");
        if (skills.length === 0) return skill({ name: SKILL });
        if (v.turn === 2 && v.calls("read").length === 0) {
          const dir = v.history.map((e) => skillResult(e)?.dir).find((d) => d !== undefined) ?? ".skills/commit-style";
          return read(`${dir}/SKILL.md`);
        }
        const marker = /`(\(style: commit-style [^`]+\))`/.exec(loadedBody(v.history))?.[1] ?? "";
        const msg = Object.keys(REWRITES).find((k) => v.user.includes(k)) ?? "";
        return say(`${REWRITES[msg]}\n${marker}`);
      },
    },
    "reload-param": {
      mistake: "activates twice, gets already_loaded, then retries with reload: true",
      play(v) {
        const skills = v.calls("skill");
        if (skills.length === 0) return skill({ name: SKILL });
        if (v.turn === 2 && skills.length === 1) return skill({ name: SKILL, reload: true });
        const marker = /`(\(style: commit-style [^`]+\))`/.exec(loadedBody(v.history))?.[1] ?? "";
        const msg = Object.keys(REWRITES).find((k) => v.user.includes(k)) ?? "";
        return say(`${REWRITES[msg]}\n${marker}`);
      },
    },
  },
};
