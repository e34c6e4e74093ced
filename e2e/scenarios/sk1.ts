// SK1 golden: the prompt matches a skill's described trigger; the model calls skill({name}) once, then follows it.
// Ground truth per trial: the version in VERSION, three changelog entries, and a sign-off token only the skill body
// carries — so only a model that activated the skill, ran `cat VERSION` and read CHANGES.md can write the answer.
import { bash, loadedBody, read, say, skill, type Scenario } from "../scenario.ts";
import { inputName, resultLabel } from "../transcript.ts";
import {
  answerOf,
  anyActivation,
  fail,
  firstOk,
  mentions,
  pass,
  showCall,
  skillTrail,
  trustedConfig,
} from "./common.ts";
import { TrialValues, fillTemplates } from "./nonce.ts";

const SKILL = "release-notes";

/** The trial's values: what set-up writes and what the checker expects. */
export function sk1Values(workspace: string) {
  const v = new TrialValues(workspace);
  const [w1, w2, w3] = v.words("changes", 3) as [string, string, string];
  return {
    VERSION: `${v.int("major", 1, 9)}.${v.int("minor", 0, 30)}.${v.int("patch", 0, 30)}`,
    W1: w1,
    W2: w2,
    W3: w3,
    SIGNOFF: v.hex("signoff"),
    API_TOKEN: v.hex("api"),
  };
}

export const SK1: Scenario = {
  id: "SK1",
  title: "golden",
  spec: "prompt references a skill's described trigger; model calls skill({name}) once, then follows its instructions.",
  fixture: "SK1-golden",
  skillRoots: [".skills"],
  config: trustedConfig,
  async setup(ws) {
    fillTemplates(ws, sk1Values(ws));
  },
  prompts: ["Please draft the release notes for the next release of this project."],
  maxSteps: 10,
  check(t) {
    const x = sk1Values(t.meta.workspace);
    const ok = firstOk(t, SKILL);
    const calls = anyActivation(t);
    if (!ok)
      return fail(
        calls.length
          ? `never activated ${SKILL}: ${calls.map(showCall).join(", ")}`
          : `never activated a skill (answered without ${SKILL})`,
      );
    // A call naming release-notes that the tool rejected for the form of its arguments (`arguments: {}`, a common
    // small-model habit), corrected by the next call, loaded nothing: a slip, not another activation attempt. So is a
    // call whose arguments could not be read at all (`skill("{'name': 'release-notes'}")`, malformed, R61): it never
    // ran, the model was told, and it then called release-notes (issue 28 item 13).
    const slip = (e: (typeof calls)[number]) =>
      t.indexOf(e) < t.indexOf(ok) &&
      e.tool === "skill" &&
      ((inputName(e.input) === SKILL && e.skill?.kind === "error" && e.skill.code === "INVALID_PARAM") ||
        (e.malformed !== undefined && JSON.stringify(e.input ?? null).includes(SKILL)));
    const others = calls.filter((e) => e !== ok && !slip(e));
    const before = others.filter((e) => t.indexOf(e) < t.indexOf(ok));
    if (before.length) return fail(`called ${before.map(showCall).join(", ")} before ${SKILL}: ${skillTrail(t)}`);
    if (others.length)
      return fail(
        `activated once, then called again: ${others.map((e) => `${showCall(e)} → ${resultLabel(e.skill)}`).join(", ")}`,
      );
    const answer = answerOf(t, 1, [ok]);
    const missing = [
      ...(mentions(answer, x.VERSION) ? [] : [`the version ${x.VERSION} from VERSION`]),
      ...[x.W1, x.W2, x.W3].filter((w) => !mentions(answer, w)).map((w) => `the CHANGES.md entry about ${w}`),
      ...(mentions(answer, `release-notes-skill ${x.SIGNOFF}`)
        ? []
        : [`the sign-off line the skill asks for (token ${x.SIGNOFF})`]),
    ];
    if (missing.length) return fail(`activated ${SKILL} once but the final answer lacks ${missing.join(", ")}`);
    return pass(
      `activated ${SKILL} once, then followed it: version, every CHANGES.md entry and the sign-off in the answer`,
    );
  },
  good(v) {
    if (v.step === 0) return skill({ name: SKILL });
    if (v.step === 1) return bash("cat VERSION");
    if (v.step === 2) return read("CHANGES.md");
    const version = /\b(\d+\.\d+\.\d+)\b/.exec(v.exchanges[1]?.output ?? "")?.[1] ?? "?";
    const bullets = (v.exchanges[2]?.output ?? "").split("\n").filter((l) => l.startsWith("- "));
    const signOff = /`(Signed-off-by: [^`]+)`/.exec(loadedBody(v.exchanges))?.[1] ?? "";
    return say([`## Release v${version}`, "", ...bullets, "", signOff].join("\n"));
  },
  bad: {
    "no-skill": {
      mistake: "answers from the files without activating the matching skill",
      play(v) {
        if (v.step === 0) return bash("cat VERSION");
        if (v.step === 1) return read("CHANGES.md");
        return say(
          `## Release v${v.exchanges[0]?.output.split("\n")[1] ?? "?"}\n\n${v.exchanges[1]?.output ?? ""}\nSigned-off-by: release-notes-skill`,
        );
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
