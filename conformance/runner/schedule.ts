// Owns the order a suite's cases run in (`--jobs N`). One job: every case in file order, one at a time (the run as
// it always was). N jobs: N lanes take the next case from one queue, each lane with its own implementation (own
// session, own workspace per case already), so cases that wait (a CLI starting, a deadline) overlap; then the cases
// whose verdict depends on time (an expectation's max_ms: S16's 1,000 calls within 4 s, the 10 MiB read, …; a race
// step's budget_ms) run alone, one after another, so no other case of the run loads the machine while they are timed.
// The caller keeps results by case index: a report lists them in case order whatever order they finished in, and is
// the report of one job, verdict for verdict (conformance/test/jobs.test.ts). One difference, only when a run ends
// early on in-process work a case left running: with N jobs the timed cases come last, so more cases have run by then.
import type { LoadedCase } from "./load.ts";

/** The keys of a case file that bound a time: an expectation's max_ms, a race step's budget_ms (S30). */
const TIME_KEYS = ["max_ms", "budget_ms"];

/** Whether a case's verdict depends on how loaded the machine is: something in it bounds a time (TIME_KEYS). */
export function timeBound(c: Pick<LoadedCase, "catalog" | "calls">): boolean {
  const bounded = (x: unknown): boolean =>
    x !== null &&
    typeof x === "object" &&
    (TIME_KEYS.some((k) => Object.prototype.hasOwnProperty.call(x, k)) || Object.values(x as object).some(bounded));
  return bounded(c.catalog) || bounded(c.calls);
}

/** The longest time a case bounds (the largest TIME_KEYS value in it), in ms; 0 when it bounds none. */
export function longestBoundMs(c: Pick<LoadedCase, "catalog" | "calls">): number {
  const walk = (x: unknown): number => {
    if (x === null || typeof x !== "object") return 0;
    let most = 0;
    for (const [k, v] of Object.entries(x as object))
      most = Math.max(most, TIME_KEYS.includes(k) && typeof v === "number" ? v : walk(v));
    return most;
  };
  return Math.max(walk(c.catalog), walk(c.calls));
}

/** Indexes of the cases in the order they start: all of them in order for one job; else the others, then the timed. */
export function startOrder(
  cases: readonly Pick<LoadedCase, "catalog" | "calls">[],
  jobs: number,
): {
  together: number[];
  alone: number[];
} {
  const all = cases.map((_, k) => k);
  if (jobs <= 1) return { together: [], alone: all };
  return { together: all.filter((k) => !timeBound(cases[k]!)), alone: all.filter((k) => timeBound(cases[k]!)) };
}

/**
 * Runs `run(k, lane)` for each case index: `together` over `jobs` lanes (lane 0 … jobs-1), then `alone` on lane 0,
 * one at a time. `stopped()` true: no further case starts (the run ended early: the caller errors the rest).
 */
export async function runLanes(
  order: { together: readonly number[]; alone: readonly number[] },
  jobs: number,
  run: (k: number, lane: number) => Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  let next = 0;
  const lane = async (l: number): Promise<void> => {
    while (next < order.together.length && !stopped()) await run(order.together[next++]!, l);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, order.together.length)) }, (_, l) => lane(l)));
  for (const k of order.alone) {
    if (stopped()) break;
    await run(k, 0);
  }
}
