// SK2 wrong-name: the prompt names a skill by paraphrase; NOT_FOUND on the first try, recovery via the siblings.
import { read, say, siblingsOf, skill, type Scenario } from "../scenario.ts";
import { inputName, resultLabel } from "../transcript.ts";
import { answerOf, fail, pass, show, skillTrail, trustedConfig } from "./common.ts";

const TARGET = "pr-review";
const MARKER = "reviewed with pr-review";

export const SK2: Scenario = {
  id: "SK2",
  title: "wrong-name",
  spec: "prompt mentions a skill by paraphrase; model picks from catalog, NOT_FOUND on first try, recovers via siblings.",
  fixture: "SK2-wrong-name",
  skillRoots: [".skills"],
  config: trustedConfig,
  prompts: ["Use the pr-reviewer skill to review the patch in change.diff and tell me whether it can be merged."],
  maxSteps: 10,
  check(t) {
    const calls = t.skillCalls();
    if (calls.length === 0) return fail("never called the skill tool");
    const okAt = calls.findIndex((e) => e.skill?.kind === "ok" && e.skill.name === TARGET);
    // Every call after a not_found must take one of the names it offered.
    for (let i = 1; i < calls.length && (okAt === -1 || i <= okAt); i++) {
      const prev = calls[i - 1]!;
      if (prev.skill?.kind !== "not_found") continue;
      const offered = prev.skill.siblings as string[];
      const tried = inputName(calls[i]!.input);
      if (tried === undefined || !offered.includes(tried)) {
        return fail(`ignored the siblings: NOT_FOUND for "${prev.skill.name}" offered [${offered.join(", ")}], then it tried ${show(calls[i]!.input)}`);
      }
    }
    if (okAt === -1) {
      const last = calls[calls.length - 1]!;
      if (last.skill?.kind === "not_found") {
        return fail(`gave up after NOT_FOUND for "${last.skill.name}" (siblings: [${(last.skill.siblings as string[]).join(", ")}]): ${skillTrail(t)}`);
      }
      return fail(`never activated ${TARGET}: ${skillTrail(t)} (last: ${resultLabel(last.skill)})`);
    }
    if (okAt > 2) return fail(`needed ${okAt + 1} skill calls to reach ${TARGET}: ${skillTrail(t)}`);
    const answer = answerOf(t, 1);
    if (!answer.toLowerCase().includes(MARKER) || !/VERDICT:/i.test(answer)) {
      return fail(`reached ${TARGET} (${skillTrail(t)}) but did not follow it: no VERDICT line or "${MARKER}" sign-off`);
    }
    if (okAt === 0) return pass(`picked ${TARGET} from the catalog on the first try (no NOT_FOUND to recover from) and followed it`);
    return pass(`NOT_FOUND first, recovered via the siblings (${skillTrail(t)}) and followed ${TARGET}`);
  },
  good(v) {
    const skills = v.calls("skill");
    const last = skills[skills.length - 1];
    if (!last) return skill({ name: "pr-reviewer" });
    if (skills.length < 3 && /No skill matches/.test(last.output)) {
      const offered = siblingsOf(last.output);
      if (offered[0]) return skill({ name: offered[0] });
      return say("No installed skill matches that name.");
    }
    if (v.calls("read").length === 0) return read("change.diff");
    return say("VERDICT: request-changes\nThe patch adds a console.log debugging statement to total().\n-- reviewed with pr-review");
  },
  bad: {
    "ignore-siblings": {
      mistake: "after NOT_FOUND, guesses another name instead of taking one of the siblings offered",
      play(v) {
        const n = v.calls("skill").length;
        if (n === 0) return skill({ name: "pr-reviewer" });
        if (n === 1) return skill({ name: "code-review" });
        return say("There is no review skill installed, so I cannot review the patch.");
      },
    },
    "give-up": {
      mistake: "gives up after the first NOT_FOUND",
      play(v) {
        if (v.step === 0) return skill({ name: "pr-reviewer" });
        return say("The pr-reviewer skill is not installed.");
      },
    },
  },
};
