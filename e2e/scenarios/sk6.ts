// SK6 resource-reference: the skill body says "run scripts/audit.py"; the model runs it with bash from the skill's
// dir as the result gives it (<dir>/scripts/audit.py, or cd there first), not from a guessed path.
// Ground truth per trial: the route file (which routes, how many singular ones) and the script's key. The script
// prints a run id derived from its input and the key and leaves .runs/<run id> beside the skill, so "it really ran"
// is read from the workspace and the tool results, never from the command's spelling.
import { relative } from "node:path";
import { bash, say, skill, skillResult, type Scenario } from "../scenario.ts";
import { commandsOf } from "../tools.ts";
import { bashCommand, type ToolEvent } from "../transcript.ts";
import { answerOf, fail, firstOk, mentions, pass, showCall, statedCounts, trustedConfig } from "./common.ts";
import { TrialValues, fillTemplates, sha256Hex } from "./nonce.ts";

const SKILL = "api-audit";
const FINDING =
  "findings?|issues?|problems?|violations?|warnings?|flagged routes?|singular (?:resource )?(?:names?|routes?)";

/** Commands that only look (ls, find, test …): a failed look is not a failed run. */
const LOOKS = new Set([
  "ls",
  "find",
  "test",
  "[",
  "stat",
  "file",
  "tree",
  "echo",
  "which",
  "type",
  "realpath",
  "readlink",
]);

/**
 * A bash call that tried to run or enter the script at a path that does not exist: a command (not a mere look) names
 * audit.py or a scripts/ dir, and the shell or the interpreter says that file or dir is missing (not, say, that python is). The script's own complaints
 * ("audit.py: cannot read <input>", its usage line) mean it was found and ran — a wrong input path, not a guess.
 */
function missedScript(e: ToolEvent): boolean {
  if (e.bash?.exitCode === 0 || /audit\.py: cannot read|usage: audit\.py/.test(e.output)) return false;
  const missing = e.output
    .split("\n")
    .some((l) => /audit\.py|scripts/.test(l) && /no such file|can't open file|cannot open|not found/i.test(l));
  if (!missing) return false;
  const c = commandsOf(bashCommand(e));
  if (!c.ok) return /audit\.py|scripts/.test(bashCommand(e));
  return c.commands.some(
    (argv) =>
      !LOOKS.has(argv[0]?.text.replace(/^.*\//, "") ?? "") &&
      argv.some((w) => /audit\.py$|(^|\/)scripts\/?$/.test(w.text)),
  );
}

export function sk6Values(workspace: string) {
  const v = new TrialValues(workspace);
  const names = v
    .words("routes", 12)
    .filter((w) => !w.endsWith("s"))
    .slice(0, 5); // the audit flags names not ending in s
  const singular = v.int("singular", 1, 3);
  const verbs = ["get", "post", "put", "get", "delete"];
  const routes = names.map(
    (n, i) => `router.${verbs[i]}("/${n}${i < singular ? "" : "s"}${i % 2 ? "/:id" : ""}", handler${i});`,
  );
  const ROUTES = routes.join("\n");
  const KEY = v.hex("key", 16);
  const text = ROUTES + "\n";
  const findings = names.slice(0, singular);
  // Codes the script prints beside each finding (from the key, which only the script holds).
  const codes = findings.map((n) => sha256Hex(`${KEY}:${n}`).slice(0, 6));
  return { ROUTES, KEY, findings, codes, runId: sha256Hex(`${KEY}:${text}`).slice(0, 12) };
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
    // Its output was seen: the run line, or (when the model filtered the output, `| grep singular`) a finding's code.
    const seen = t
      .tools()
      .find(
        (e) =>
          e.tool !== "skill" &&
          t.indexOf(e) > t.indexOf(ok) &&
          (e.output.includes(`(run ${x.runId})`) || x.codes.some((c) => e.output.includes(`[${c}]`))),
      );
    // A run attempt before the real one that failed to find the script: the path was guessed, not taken from the result.
    const guessed = t
      .bashCalls()
      .find((e) => t.indexOf(e) > t.indexOf(ok) && (!seen || t.indexOf(e) < t.indexOf(seen)) && missedScript(e));
    if (guessed)
      return fail(
        `guessed the script path instead of using the skill's dir: ${showCall(guessed)} → ${guessed.output
          .split("\n")
          .slice(0, 2)
          .join(" ")
          .replace(/\/tmp\/\S+/g, "…")}`,
      );
    if (!evidence || !seen) {
      return fail(
        `activated ${SKILL} but never ran scripts/audit.py on src/routes.js${evidence ? " where its output could be seen" : ""} (no record of the run in the workspace)`,
      );
    }
    // The answer is what the model wrote after the script's output came back, not findings it worked out before.
    const answer = answerOf(t, 1, [seen]);
    const n = x.findings.length;
    const counts = statedCounts(answer, FINDING);
    // "2 findings … the other routes have no issues" states 2; only an answer whose every count is wrong misreports.
    if (counts.length && !counts.includes(n))
      return fail(`ran the script but the final answer states ${counts[0]} finding(s); the script printed ${n}`);
    const missing = x.findings.filter((f) => !mentions(answer, f));
    if (missing.length)
      return fail(
        `ran the script but the final answer does not list the finding(s) for ${missing.map((f) => `/${f}`).join(", ")}`,
      );
    // Listing every finding reports how many there are; a count, when given, must be right (checked above).
    return pass(`ran ${rel}/scripts/audit.py from the skill's dir and reported its ${n} finding(s)`);
  },
  good(v) {
    if (v.step === 0) return skill({ name: SKILL });
    if (v.step === 1) {
      const dir = skillResult(v.exchanges[0])?.dir;
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
