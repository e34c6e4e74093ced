// Cost and latency: what one trial spent (tokens, model calls, latency per call, retries) read from its transcript,
// and the same summed over a cell (scenario × model) for the reports. Pure functions over transcript events.
// Owns: TrialUsage, CellUsage, trialUsage, cellUsage, percentile.
import type { TranscriptEvent } from "./transcript.ts";

export interface TrialUsage {
  inputTokens: number;
  outputTokens: number;
  /** Model calls (steps) made. */
  steps: number;
  /** Requests beyond the first, summed over the calls (attempts − 1 each). */
  retries: number;
  /** Wall time of each model call, retries included, in order. */
  latenciesMs: number[];
  /** Calls whose provider reported no token counts (their tokens are missing from the sums). */
  callsWithoutUsage: number;
}

export interface CellUsage {
  trials: number;
  inputTokens: { sum: number; perTrial: number };
  outputTokens: { sum: number; perTrial: number };
  steps: { sum: number; perTrial: number };
  retries: number;
  /** Per model call, over every call of the cell; null when no call was timed. */
  latencyMs: { p50: number | null; p95: number | null; calls: number };
  callsWithoutUsage: number;
}

export function trialUsage(events: readonly TranscriptEvent[]): TrialUsage {
  const u: TrialUsage = {
    inputTokens: 0,
    outputTokens: 0,
    steps: 0,
    retries: 0,
    latenciesMs: [],
    callsWithoutUsage: 0,
  };
  for (const e of events) {
    if (e.type !== "assistant") continue;
    u.steps++;
    u.retries += Math.max(0, (e.attempts ?? 1) - 1);
    if (e.latencyMs !== undefined) u.latenciesMs.push(e.latencyMs);
    if (e.usage?.inputTokens === undefined && e.usage?.outputTokens === undefined) u.callsWithoutUsage++;
    u.inputTokens += e.usage?.inputTokens ?? 0;
    u.outputTokens += e.usage?.outputTokens ?? 0;
  }
  return u;
}

/** Sums and per-trial means over a cell's trials; latency percentiles over all of its model calls. */
export function cellUsage(trials: readonly TrialUsage[]): CellUsage {
  const n = trials.length;
  const sum = (f: (t: TrialUsage) => number) => trials.reduce((a, t) => a + f(t), 0);
  const per = (s: number) => (n ? round1(s / n) : 0);
  const input = sum((t) => t.inputTokens);
  const output = sum((t) => t.outputTokens);
  const steps = sum((t) => t.steps);
  const lat = trials.flatMap((t) => t.latenciesMs);
  return {
    trials: n,
    inputTokens: { sum: input, perTrial: per(input) },
    outputTokens: { sum: output, perTrial: per(output) },
    steps: { sum: steps, perTrial: per(steps) },
    retries: sum((t) => t.retries),
    latencyMs: { p50: percentile(lat, 50), p95: percentile(lat, 95), calls: lat.length },
    callsWithoutUsage: sum((t) => t.callsWithoutUsage),
  };
}

/** Nearest-rank percentile (the smallest value with at least p% of values ≤ it); null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
