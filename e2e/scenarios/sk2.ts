// SK2 wrong-name: the prompt names a skill by paraphrase; NOT_FOUND on the first try, recovery via the siblings.
// Ground truth per trial: the patch under review (a console.log, a debugger statement, or a clean change, in a
// function named per trial) decides the verdict, and the sign-off token is only in the skill body.
import { loadedBody, read, say, skill, skillResult, type Scenario } from "../scenario.ts";
import { inputName, resultLabel } from "../transcript.ts";
import { answerParts, fail, firstOk, inconclusive, mentions, pass, show, skillTrail, trustedConfig } from "./common.ts";
import { TrialValues, fillTemplates } from "./nonce.ts";

const TARGET = "pr-review";

type Variant = "console.log" | "debugger" | "clean";

export function sk2Values(workspace: string) {
  const v = new TrialValues(workspace);
  const fn = v.word("function");
  const variant = (["console.log", "debugger", "clean"] as const)[v.int("variant", 0, 2)] as Variant;
  const added =
    variant === "console.log"
      ? `+    console.log("${fn}", item);`
      : variant === "debugger"
        ? "+    debugger;"
        : `+    if (item.quantity < 0) throw new RangeError("${fn}: negative quantity");`;
  const diff = [
    "diff --git a/src/cart.ts b/src/cart.ts",
    "--- a/src/cart.ts",
    "+++ b/src/cart.ts",
    `@@ -10,6 +10,7 @@ export function ${fn}Total(items: Item[]): number {`,
    "   let sum = 0;",
    "   for (const item of items) {",
    added,
    "     sum += item.price * item.quantity;",
    "   }",
    "   return sum;",
    "",
  ].join("\n");
  return {
    DIFF: diff,
    SIGNOFF: v.hex("signoff"),
    variant,
    added: added.slice(1).trim(),
    verdict: variant === "clean" ? "approve" : "request-changes",
  };
}

type Verdict = "approve" | "request-changes";
const VERDICT_WORD = /^(approved?|request[\s_-]*changes?|changes[\s_-]*requested)/i;
const norm = (w: string): Verdict => (/^approve/i.test(w) ? "approve" : "request-changes");

/**
 * Every verdict an answer states, from `VERDICT: …` in any ordinary formatting (`**Verdict:** Request changes`,
 * `VERDICT: ❌ request_changes`, `The verdict is: approve`, a `## Verdict` heading over the word), including every
 * alternative a hedged verdict line offers (`VERDICT: approve / request-changes`).
 */
export function verdictsOf(answer: string): Verdict[] {
  const out: Verdict[] = [];
  const text = answer.replace(/[*_`]/g, " ");
  for (const m of text.matchAll(/verdict\W{0,8}(?:(?:is|would be|:)\W{0,4})?([^\n]*)/gi)) {
    const rest = m[1]!;
    const first = VERDICT_WORD.exec(rest.replace(/^[^a-z]*/i, ""));
    if (!first) continue;
    out.push(norm(first[1]!));
    // Another verdict offered on the same line as an alternative ("approve / request-changes", "approve or request changes").
    for (const alt of rest.matchAll(/(?:\/|\bor\b|\|)\s*(approved?|request[\s_-]*changes?|changes[\s_-]*requested)/gi))
      out.push(norm(alt[1]!));
  }
  return out;
}

/** The verdict an answer states (the first), or undefined. */
export function verdictOf(answer: string): Verdict | undefined {
  return verdictsOf(answer)[0];
}

export const SK2: Scenario = {
  id: "SK2",
  title: "wrong-name",
  spec: "prompt mentions a skill by paraphrase; model picks from catalog, NOT_FOUND on first try, recovers via siblings.",
  fixture: "SK2-wrong-name",
  skillRoots: [".skills"],
  config: trustedConfig,
  async setup(ws) {
    const { DIFF, SIGNOFF } = sk2Values(ws);
    fillTemplates(ws, { DIFF, SIGNOFF });
  },
  prompts: ["Use the pr-reviewer skill to review the patch in change.diff and tell me whether it can be merged."],
  maxSteps: 10,
  check(t) {
    const x = sk2Values(t.meta.workspace);
    const calls = t.skillCalls();
    const ok = firstOk(t, TARGET);
    const okAt = ok ? calls.indexOf(ok) : -1;
    const upTo = okAt === -1 ? calls : calls.slice(0, okAt + 1);
    const exercised = upTo.some((e) => e.skill?.kind === "not_found");
    // Every call after a not_found must take one of the names it offered.
    for (let i = 1; i < upTo.length; i++) {
      const prev = upTo[i - 1]!;
      if (prev.skill?.kind !== "not_found") continue;
      const offered = prev.skill.siblings as string[];
      const tried = inputName(upTo[i]!.input);
      if (tried === undefined || !offered.includes(tried)) {
        return fail(
          `ignored the siblings: NOT_FOUND for "${prev.skill.name}" offered [${offered.join(", ")}], then it tried ${show(upTo[i]!.input)}`,
          exercised,
        );
      }
    }
    if (!ok) {
      const last = calls[calls.length - 1];
      if (!last) return fail(`never called the skill tool`, false);
      if (last.skill?.kind === "not_found")
        return fail(
          `gave up after NOT_FOUND for "${last.skill.name}" (siblings: [${(last.skill.siblings as string[]).join(", ")}]): ${skillTrail(t)}`,
          exercised,
        );
      return fail(`never activated ${TARGET}: ${skillTrail(t)} (last: ${resultLabel(last.skill)})`, exercised);
    }
    if (okAt > 2) return fail(`needed ${okAt + 1} skill calls to reach ${TARGET}: ${skillTrail(t)}`, exercised);
    const readIt = t.tools().find((e) => e.tool !== "skill" && e.output.includes(x.added));
    if (!readIt) return fail(`reached ${TARGET} but never read the patch in change.diff`, exercised);
    // A verdict written before the patch (or the skill body) came back is a guess, not the review.
    const parts = answerParts(t, 1, [ok, readIt]);
    const answer = parts.join("\n");
    // A later message may correct an earlier verdict; within one message, two verdicts are a hedge.
    const verdicts = verdictsOf([...parts].reverse().find((p) => verdictsOf(p).length > 0) ?? "");
    if (verdicts.length === 0)
      return fail(`reached ${TARGET} (${skillTrail(t)}) but the final answer has no VERDICT line`, exercised);
    if (new Set(verdicts).size > 1)
      return fail(`the final answer hedges between verdicts (${verdicts.join(", ")})`, exercised);
    const verdict = verdicts[0]!;
    if (verdict !== x.verdict)
      return fail(
        `wrong verdict: ${verdict} for a patch that ${x.variant === "clean" ? "adds no debugging code" : `adds a ${x.variant} statement`} (expected ${x.verdict})`,
        exercised,
      );
    if (
      x.variant !== "clean" &&
      !new RegExp(
        x.variant === "debugger" ? "debugger" : "console\\.?log|log(ging)? (statement|call|line)|logging",
        "i",
      ).test(answer)
    ) {
      return fail(
        `verdict ${verdict} without the reason the skill asks for (the added ${x.variant} statement)`,
        exercised,
      );
    }
    if (!mentions(answer, `reviewed with pr-review ${x.SIGNOFF}`))
      return fail(
        `verdict right but no "-- reviewed with pr-review ${x.SIGNOFF}" sign-off from the skill body`,
        exercised,
      );
    if (!exercised)
      return inconclusive(
        `picked ${TARGET} from the catalog on the first try and reviewed correctly; NOT_FOUND recovery not exercised`,
      );
    return pass(`NOT_FOUND first, recovered via the siblings (${skillTrail(t)}) and reviewed correctly (${verdict})`);
  },
  good(v) {
    const skills = v.calls("skill");
    const last = skills[skills.length - 1];
    if (!last) return skill({ name: "pr-reviewer" });
    const result = skillResult(last);
    if (skills.length < 3 && result?.kind === "not_found") {
      const offered = result.siblings ?? [];
      if (offered[0]) return skill({ name: offered.includes("pr-review") ? "pr-review" : offered[0] });
      return say("No installed skill matches that name.");
    }
    if (v.calls("read").length === 0) return read("change.diff");
    const diff = v.calls("read")[0]!.output;
    const signOff = /`(-- reviewed with pr-review [^`]+)`/.exec(loadedBody(skills))?.[1] ?? "";
    const added = diff.split("\n").find((l) => l.startsWith("+") && !l.startsWith("+++")) ?? "";
    const bad = /console\.log|debugger/.exec(added)?.[0];
    return say(
      `${bad ? "VERDICT: request-changes" : "VERDICT: approve"}\n${bad ? `The patch adds a ${bad} statement.` : "The patch adds a guard and no debugging code."}\n${signOff}`,
    );
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
