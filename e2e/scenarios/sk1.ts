// SK1 golden: the prompt matches a skill's described trigger; the model calls skill({name}) once, then follows it.
import { bash, read, say, skill, type Scenario } from "../scenario.ts";
import { inputName, resultLabel } from "../transcript.ts";
import { answerOf, fail, pass, skillTrail, trustedConfig } from "./common.ts";

const SKILL = "release-notes";
const SIGN_OFF = "Signed-off-by: release-notes-skill";

function notes(version: string, changes: string): string {
  const bullets = changes.split("\n").filter((l) => l.startsWith("- "));
  return [`## Release v${version}`, "", ...bullets, "", SIGN_OFF].join("\n");
}

export const SK1: Scenario = {
  id: "SK1",
  title: "golden",
  spec: "prompt references a skill's described trigger; model calls skill({name}) once, then follows its instructions.",
  fixture: "SK1-golden",
  skillRoots: [".skills"],
  config: trustedConfig,
  prompts: ["Please draft the release notes for the next release of this project."],
  maxSteps: 10,
  check(t) {
    const calls = t.skillCalls();
    const first = calls[0];
    if (!first) return fail(`never activated a skill (answered without ${SKILL})`);
    if (inputName(first.input) !== SKILL) return fail(`activated the wrong skill first: ${skillTrail(t)}`);
    if (first.skill?.kind !== "ok") return fail(`activating ${SKILL} returned ${resultLabel(first.skill)}`);
    if (calls.length > 1) return fail(`called skill ${calls.length} times (once expected): ${skillTrail(t)}`);
    const answer = answerOf(t, 1);
    const missing = [
      ...(/v?2\.4\.0/.test(answer) ? [] : ["the version 2.4.0"]),
      ...(answer.includes(SIGN_OFF) ? [] : [`the "${SIGN_OFF}" line`]),
    ];
    if (missing.length) return fail(`activated ${SKILL} once but did not follow it: the answer lacks ${missing.join(" and ")}`);
    return pass(`activated ${SKILL} once, then followed it (version 2.4.0 found, sign-off line present)`);
  },
  good(v) {
    if (v.step === 0) return skill({ name: SKILL });
    if (v.step === 1) return bash("cat VERSION");
    if (v.step === 2) return read("CHANGES.md");
    const version = /\b(\d+\.\d+\.\d+)\b/.exec(v.exchanges[1]?.output ?? "")?.[1] ?? "?";
    return say(notes(version, v.exchanges[2]?.output ?? ""));
  },
  bad: {
    "no-skill": {
      mistake: "answers from the files without activating the matching skill",
      play(v) {
        if (v.step === 0) return bash("cat VERSION");
        if (v.step === 1) return read("CHANGES.md");
        return say(`Release notes for ${v.exchanges[0]?.output.split("\n")[1] ?? "?"}:\n${v.exchanges[1]?.output ?? ""}`);
      },
    },
    "wrong-skill": {
      mistake: "activates a skill whose description does not match (api-conventions)",
      play(v) {
        if (v.step === 0) return skill({ name: "api-conventions" });
        return say("The API conventions are applied. (api-conventions applied)");
      },
    },
    "ignore-body": {
      mistake: "activates the right skill, then ignores its instructions",
      play(v) {
        if (v.step === 0) return skill({ name: SKILL });
        return say("Release notes: various fixes and improvements.");
      },
    },
  },
};
