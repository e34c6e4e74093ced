// Judging one transcript: an interrupted or errored trial is an error with its kind (transport, malformed model
// response, harness, implementation), never the model's behaviour; otherwise the scenario's checker gives pass, fail or
// inconclusive, and a trial that ran out of model calls is a fail (the model never finished). Owns: judge, errorKindOf.
import type { Scenario } from "./scenario.ts";
import type { ErrorKind, TrialResult } from "./score.ts";
import type { EndEvent, Trial } from "./transcript.ts";

/** The kind of a loop error: the provider's bad_response is the model's reply being unusable, other provider errors transport. */
export function errorKindOf(error: EndEvent["error"]): ErrorKind {
  const kind = error?.kind as string | undefined;
  if (kind === "model") return error?.code === "bad_response" ? "malformed_response" : "transport";
  if (kind === "implementation" || kind === "harness" || kind === "transport" || kind === "malformed_response") return kind;
  return "harness";
}

export function judge(trial: Trial, scenario: Scenario | undefined): Pick<TrialResult, "outcome" | "reason" | "errorKind" | "exercised"> {
  const end = trial.end;
  if (!end) return { outcome: "error", reason: "transcript has no end event (trial interrupted)", errorKind: "harness" };
  if (end.outcome === "error") {
    const kind = errorKindOf(end.error);
    return { outcome: "error", reason: `${kind} error: ${firstLine(end.error?.message ?? "unknown")}`, errorKind: kind };
  }
  if (!scenario) return { outcome: "error", reason: `unknown scenario ${trial.meta.scenario}`, errorKind: "harness" };
  let verdict;
  try {
    verdict = scenario.check(trial);
  } catch (err) {
    return { outcome: "error", reason: `checker crashed: ${(err as Error).message}`, errorKind: "harness" };
  }
  if (verdict.outcome === "error") return { outcome: "error", reason: verdict.reason, errorKind: verdict.errorKind ?? "harness" };
  if (end.outcome === "turn_limit") {
    const why = verdict.outcome === "fail" ? `; ${verdict.reason}` : "";
    return { outcome: "fail", reason: `hit the step limit (${trial.meta.maxSteps} model calls) without finishing${why}`, exercised: verdict.exercised };
  }
  return { outcome: verdict.outcome, reason: verdict.reason, exercised: verdict.exercised };
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}
