// SK6 resource-reference: the skill body says "run scripts/audit.py"; the model runs it with bash from the skill's
// dir as the result lists it (<dir>/scripts/audit.py), not from a guessed path.
import { relative } from "node:path";
import { bash, say, skill, skillDirOf, type Scenario } from "../scenario.ts";
import { bashCommand } from "../transcript.ts";
import { answerOf, fail, firstOk, pass, showCmd, trustedConfig } from "./common.ts";

const SKILL = "api-audit";

export const SK6: Scenario = {
  id: "SK6",
  title: "resource-reference",
  spec: 'skill body says "run scripts/audit.py"; model calls bash(<dir>/scripts/audit.py) with the dir from the skill\'s resource listing.',
  fixture: "SK6-resource-reference",
  skillRoots: [".skills"],
  config: trustedConfig,
  prompts: ["Audit src/routes.js for HTTP API convention problems."],
  maxSteps: 10,
  check(t) {
    const ok = firstOk(t, SKILL);
    if (!ok || ok.skill?.kind !== "ok") return fail(`never activated ${SKILL}`);
    const dir = ok.skill.dir;
    const rel = relative(t.meta.cwd, dir);
    const runs = t.bashCalls().filter((e) => t.indexOf(e) > t.indexOf(ok) && bashCommand(e).includes("audit.py"));
    const first = runs[0];
    if (!first) return fail(`activated ${SKILL} but never ran scripts/audit.py`);
    const cmd = bashCommand(first);
    const usesDir = cmd.includes(`${dir}/scripts/audit.py`) || cmd.includes(`${rel}/scripts/audit.py`) || (cmd.includes(dir) && cmd.includes("scripts/audit.py"));
    if (!usesDir) return fail(`guessed the script path: ${showCmd(cmd)} (the listed dir is ${dir})`);
    if (first.bash?.exitCode !== 0 || !first.output.includes("AUDIT-RESULT")) {
      return fail(`ran the script from the listed dir but it failed: ${showCmd(cmd)} → ${first.output.split("\n").slice(0, 2).join(" ")}`);
    }
    if (!/\b2\b|\btwo\b/i.test(answerOf(t, 1))) return fail("ran the script but did not report its 2 findings");
    return pass(`ran ${rel}/scripts/audit.py from the listed dir and reported its 2 findings`);
  },
  good(v) {
    if (v.step === 0) return skill({ name: SKILL });
    if (v.step === 1) {
      const dir = skillDirOf(v.exchanges[0]?.output ?? "");
      return dir ? bash(`python3 ${dir}/scripts/audit.py src/routes.js`) : say("The skill did not say where it lives.");
    }
    const out = v.exchanges[1]?.output ?? "";
    const findings = out.split("\n").filter((l) => l.includes("singular resource"));
    return say(`The audit found ${findings.length} findings:\n${findings.join("\n")}`);
  },
  bad: {
    "guess-path": {
      mistake: "runs scripts/audit.py relative to the project instead of the skill dir the result lists",
      play(v) {
        if (v.step === 0) return skill({ name: SKILL });
        if (v.step === 1) return bash("python3 scripts/audit.py src/routes.js");
        return say("The audit script could not be run.");
      },
    },
  },
};
