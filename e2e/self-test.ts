// The harness self-test's own gate (issue 20 item 5): a scripted policy knows what the judge must say of it, so a run
// of one fails (exit 1) whenever a trial got anything else — `scripted:good` must pass (or be inconclusive), every
// `scripted:bad*` must fail. An error is never what a self-test expects: a broken driver, a crashed checker or a dead
// harness makes the self-test fail instead of going green. Owns: selfTestExpectation, selfTestProblems.
import type { Outcome, TrialResult } from "./score.ts";

/** The outcomes a scripted policy's trials must get, or undefined for a model that is not a named scripted policy. */
export function selfTestExpectation(model: string): readonly Outcome[] | undefined {
  if (model === "scripted:good") return ["pass", "inconclusive"];
  if (model === "scripted:bad" || model.startsWith("scripted:bad-")) return ["fail"];
  return undefined;
}

/** One line per self-test trial whose outcome its policy does not allow. */
export function selfTestProblems(
  results: readonly Pick<TrialResult, "model" | "modelKind" | "scenario" | "trial" | "outcome" | "reason">[],
): string[] {
  const out: string[] = [];
  for (const r of results) {
    if (r.modelKind !== "scripted") continue;
    const allowed = selfTestExpectation(r.model);
    if (allowed && !allowed.includes(r.outcome))
      out.push(
        `${r.scenario} × ${r.model} trial ${r.trial}: ${r.outcome}, expected ${allowed.join(" or ")} (${r.reason.split("\n")[0]})`,
      );
  }
  return out;
}
