// SK6 resource-reference: the skill body says "run scripts/audit.py"; the model runs it with bash from the skill's
// dir as the result gives it (<dir>/scripts/audit.py, or cd there first), not from a guessed path.
// Ground truth per trial: the route file (which routes, how many singular ones) and the script's key. The script
// prints a run id derived from its input and the key and leaves .runs/<run id> beside the skill, so "it really ran"
// is read from the workspace and the tool results, never from the command's spelling.
import { relative } from "node:path";
import { bash, say, skill, skillDirOf, type Scenario } from "../scenario.ts";
import { answerOf, fail, firstOk, mentions, pass, showCall, statesNumber, trustedConfig } from "./common.ts";
import { TrialValues, fillTemplates, sha256Hex } from "./nonce.ts";

const SKILL = "api-audit";

export function sk6Values(workspace: string) {
  const v = new TrialValues(workspace);
  const names = v.words("routes", 12).filter((w) => !w.endsWith("s")).slice(0, 5); // the audit flags names not ending in s
  const singular = v.int("singular", 1, 3);
  const verbs = ["get", "post", "put", "get", "delete"];
  const routes = names.map((n, i) => `router.${verbs[i]}("/${n}${i < singular ? "" : "s"}${i % 2 ? "/:id" : ""}", handler${i});`);
  const ROUTES = routes.join("\n");
  const KEY = v.hex("key", 16);
  const text = ROUTES + "\n";
  return { ROUTES, KEY, findings: names.slice(0, singular), runId: sha256Hex(`${KEY}:${text}`).slice(0, 12) };
}

export const SK6: Scenario = {
  id: "SK6",
  title: "resource-reference",
  spec: 'skill body says "run scripts/audit.py"; model calls bash(<dir>/scripts/audit.py) with the dir from the skill\'s resource listing.',
  fixture: "SK6-resource-reference",
  skillRoots: [".skills"],
  config: trustedConfig,
  async setup(ws) {
    const { ROUTES, KEY } = sk6Values(ws);
    fillTemplates(ws, { ROUTES, KEY });
  },
  prompts: ["Audit src/routes.js for HTTP API convention problems."],
  maxSteps: 10,
  check(t) {
    const x = sk6Values(t.meta.workspace);
    const ok = firstOk(t, SKILL);
    if (!ok || ok.skill?.kind !== "ok") return fail(`never activated ${SKILL}`);
    const rel = relative(t.meta.workspace, ok.skill.dir);
    const evidence = (t.end?.files ?? []).includes(`${rel}/.runs/${x.runId}`);
    const seen = t.tools().find((e) => e.tool !== "skill" && t.indexOf(e) > t.indexOf(ok) && e.output.includes(`(run ${x.runId})`));
    // A run attempt before the real one that failed to find the script: the path was guessed, not taken from the result.
    const guessed = t
      .bashCalls()
      .find((e) => t.indexOf(e) > t.indexOf(ok) && (!seen || t.indexOf(e) < t.indexOf(seen)) && /audit\.py/.test(e.output) && /no such file|can't open file|cannot open|not found/i.test(e.output));
    if (guessed) return fail(`guessed the script path instead of using the skill's dir: ${showCall(guessed)} → ${guessed.output.split("\n").slice(0, 2).join(" ").replace(/\/tmp\/\S+/g, "…")}`);
    if (!evidence || !seen) {
      return fail(`activated ${SKILL} but never ran scripts/audit.py on src/routes.js${evidence ? " where its output could be seen" : ""} (no record of the run in the workspace)`);
    }
    const answer = answerOf(t, 1);
    const n = x.findings.length;
    if (!statesNumber(answer, n)) return fail(`ran the script but the final answer does not report its ${n} finding(s)`);
    const missing = x.findings.filter((f) => !mentions(answer, f));
    if (missing.length) return fail(`ran the script but the final answer does not list the finding(s) for ${missing.map((f) => `/${f}`).join(", ")}`);
    return pass(`ran ${rel}/scripts/audit.py from the skill's dir and reported its ${n} finding(s)`);
  },
  good(v) {
    if (v.step === 0) return skill({ name: SKILL });
    if (v.step === 1) {
      const dir = skillDirOf(v.exchanges[0]?.output ?? "");
      return dir ? bash(`python3 ${dir}/scripts/audit.py src/routes.js`) : say("The skill did not say where it lives.");
    }
    const out = v.exchanges[1]?.output ?? "";
    const findings = out.split("\n").filter((l) => l.includes("singular resource"));
    return say(`The audit found ${findings.length} finding(s):\n${findings.map((f) => `- ${f}`).join("\n")}`);
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
