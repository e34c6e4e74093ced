// Judging one transcript: an interrupted or errored trial is an error with its kind (transport, malformed model
// response, harness, implementation), never the model's behaviour; otherwise the scenario's checker gives pass, fail or
// inconclusive, and a trial that ran out of model calls is a fail (the model never finished). Owns: judge, errorKindOf.
import type { Scenario } from "./scenario.ts";
import type { ErrorKind, TrialResult } from "./score.ts";
import type { EndEvent, Trial } from "./transcript.ts";

const PROVIDER_KINDS: Record<string, ErrorKind> = {
  bad_response: "malformed_response",
  refused: "refused",
  context_window: "context_window",
};
const KINDS = new Set<string>([
  "implementation",
  "harness",
  "transport",
  "malformed_response",
  "refused",
  "context_window",
]);

/**
 * The kind of a loop error: a provider error is malformed_response (the server's reply is not a model turn), refused
 * (the provider withheld the answer), context_window, or else transport. What the model itself produced never gets
 * here: the adapters hand it to the loop and the checker judges it (e2e/README.md, "What is judged").
 */
export function errorKindOf(error: EndEvent["error"]): ErrorKind {
  const kind = error?.kind as string | undefined;
  if (kind === "model") return PROVIDER_KINDS[error?.code ?? ""] ?? "transport";
  if (kind !== undefined && KINDS.has(kind)) return kind as ErrorKind;
  return "harness";
}

export function judge(
  trial: Trial,
  scenario: Scenario | undefined,
): Pick<TrialResult, "outcome" | "reason" | "errorKind" | "exercised"> {
  const end = trial.end;
  if (!end)
    return { outcome: "error", reason: "transcript has no end event (trial interrupted)", errorKind: "harness" };
  // A trial the user's Ctrl-C cut off is never scored (R68); callers skip it, this keeps judge honest if one does not.
  if (end.outcome === "interrupted")
    return { outcome: "error", reason: "the run was interrupted during this trial (not scored)", errorKind: "harness" };
  if (end.outcome === "error") {
    const kind = errorKindOf(end.error);
    return {
      outcome: "error",
      reason: `${kind} error: ${firstLine(end.error?.message ?? "unknown")}`,
      errorKind: kind,
    };
  }
  if (!scenario) return { outcome: "error", reason: `unknown scenario ${trial.meta.scenario}`, errorKind: "harness" };
  let verdict;
  try {
    verdict = scenario.check(trial);
  } catch (err) {
    return { outcome: "error", reason: `checker crashed: ${(err as Error).message}`, errorKind: "harness" };
  }
  if (verdict.outcome === "error")
    return { outcome: "error", reason: verdict.reason, errorKind: verdict.errorKind ?? "harness" };
  if (end.outcome === "turn_limit") {
    const why = verdict.outcome === "fail" ? `; ${verdict.reason}` : "";
    return {
      outcome: "fail",
      reason: `hit the step limit (${trial.meta.maxSteps} model calls) without finishing${why}`,
      exercised: verdict.exercised,
    };
  }
  return { outcome: verdict.outcome, reason: verdict.reason, exercised: verdict.exercised };
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}
