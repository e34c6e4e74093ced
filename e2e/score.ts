// Scoring: the unbiased pass@k estimator (Chen et al. 2021) and pass^k (all k succeed, tau-bench), computed in
// product form so large n never overflows, plus the per-cell summary (scenario × model) the reports print.
// Owns: passAtK, passHatK, TrialResult, Cell, summarise.

/**
 * pass@k = 1 − C(n−c, k) / C(n, k): the chance that at least one of k trials drawn without replacement from the n
 * run passes. Undefined when n < k. Product form: C(n−c,k)/C(n,k) = ∏_{i=n−c+1}^{n} (1 − k/i).
 */
export function passAtK(n: number, c: number, k: number): number | undefined {
  check(n, c, k);
  if (n < k) return undefined;
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/** pass^k = C(c, k) / C(n, k): the chance that all k trials drawn from the n run pass. Undefined when n < k. */
export function passHatK(n: number, c: number, k: number): number | undefined {
  check(n, c, k);
  if (n < k) return undefined;
  if (c < k) return 0;
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return p;
}

function check(n: number, c: number, k: number): void {
  if (![n, c, k].every(Number.isInteger) || n < 0 || c < 0 || c > n || k < 1) {
    throw new RangeError(`need integers 0 ≤ c ≤ n and k ≥ 1 (n=${n}, c=${c}, k=${k})`);
  }
}

/**
 * The judge's four outcomes. pass / fail: the model did / did not do what the spec asks (a model that gets the task
 * wrong fails whether or not the situation under test arose). inconclusive: the situation the scenario tests never
 * arose and the model answered the user correctly anyway. error: nothing the model did is being judged (a transport
 * fault, a malformed model response, the harness or the implementation under test failing). pass@k and pass^k count
 * pass and fail only.
 */
export type Outcome = "pass" | "fail" | "inconclusive" | "error";

/**
 * Why nothing the model did is judged, when the outcome is error: transport (the reply never arrived), malformed_response
 * (the server's reply is not a model turn), refused (the provider withheld the answer: content_filtered,
 * guardrail_intervened), context_window (the conversation no longer fits the model), harness, implementation.
 */
export type ErrorKind =
  "transport" | "malformed_response" | "refused" | "context_window" | "harness" | "implementation";

export interface TrialResult {
  scenario: string;
  model: string;
  modelKind: "real" | "scripted";
  trial: number;
  outcome: Outcome;
  /** The checker's one line, or the error. */
  reason: string;
  /** For outcome error: who failed. */
  errorKind?: ErrorKind;
  /** Whether the situation the scenario tests arose (undefined for errors). */
  exercised?: boolean;
  /** Transcript file, when saved. */
  transcript?: string;
  durationMs?: number;
}

export interface Cell {
  scenario: string;
  model: string;
  modelKind: "real" | "scripted";
  /** Trials run, including errored ones. */
  trials: number;
  /** Conclusive trials, pass or fail (n of the estimators). */
  n: number;
  passed: number;
  failed: number;
  /** The situation never arose and the model answered correctly: neither pass nor fail. */
  inconclusive: number;
  /** Non-error trials in which the situation under test arose ("exercised x/y": x of trials − errors). */
  exercised: number;
  errors: number;
  passAtK: Record<string, number | null>;
  passHatK: Record<string, number | null>;
  /** One reason line per distinct failure / error, with counts. */
  reasons: { outcome: Outcome; reason: string; count: number }[];
}

/** Groups results into cells; errored and inconclusive trials are counted apart and left out of n. */
export function summarise(results: readonly TrialResult[], ks: readonly number[]): Cell[] {
  const cells = new Map<string, TrialResult[]>();
  for (const r of results) {
    const key = `${r.scenario}\u0000${r.model}`;
    cells.set(key, [...(cells.get(key) ?? []), r]);
  }
  return [...cells.values()].map((rs) => {
    const first = rs[0]!;
    const passed = rs.filter((r) => r.outcome === "pass").length;
    const failed = rs.filter((r) => r.outcome === "fail").length;
    const errors = rs.filter((r) => r.outcome === "error").length;
    const inconclusive = rs.filter((r) => r.outcome === "inconclusive").length;
    const exercised = rs.filter((r) => r.outcome !== "error" && r.exercised === true).length;
    const n = passed + failed;
    const at: Record<string, number | null> = {};
    const hat: Record<string, number | null> = {};
    for (const k of ks) {
      at[k] = passAtK(n, passed, k) ?? null;
      hat[k] = passHatK(n, passed, k) ?? null;
    }
    const counts = new Map<string, { outcome: Outcome; reason: string; count: number }>();
    for (const r of rs) {
      const key = `${r.outcome}\u0000${r.reason}`;
      const e = counts.get(key) ?? { outcome: r.outcome, reason: r.reason, count: 0 };
      e.count++;
      counts.set(key, e);
    }
    return {
      scenario: first.scenario,
      model: first.model,
      modelKind: first.modelKind,
      trials: rs.length,
      n,
      passed,
      failed,
      inconclusive,
      exercised,
      errors,
      passAtK: at,
      passHatK: hat,
      reasons: [...counts.values()].sort((a, b) => b.count - a.count),
    };
  });
}
