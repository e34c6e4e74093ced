// Owns a case's race call (`"race": {...}`): while the writer (race-writer.ts) keeps swapping a path of the temp dir
// between two symlinks, `tries` activations are made one after another, each on a fresh session (so each try's
// discovery and its activation both meet the writer); then every result is checked: schema, `each`, and the escapes,
// the tries whose result holds the marker that only the file behind the second target holds. Any escape fails the
// rules of `escapes`, reported as "k of N tries escaped". The writer is stopped and the tree restored before
// anything else, even when a try faults (a hang is cut off by the step's own deadline, faults.ts).
// What is recorded is deterministic for an implementation that holds: { race: N, escaped: 0 }; how the results
// fell (ok or refused) depends on the timing, so it is told in a failure's message, never recorded for parity.
import type { RaceCall, SkillResult } from "../../schemas/index.ts";
import type { SessionHandle } from "../../schemas/implementation.ts";
import { brief } from "./batch.ts";
import { checkResult, type Miss } from "./expect.ts";
import { ImplFault } from "./faults.ts";
import { startWriter } from "./race-writer.ts";
import { resolveRules } from "./rules.ts";
import { schemaMisses } from "./schema-miss.ts";
import { template } from "./workspace.ts";

/** What a race needs from the case running it. */
export interface RaceContext {
  tmp: string;
  norm: (v: unknown) => unknown;
  miss: (m: Miss) => void;
  slow: (at: string, took: number, max: number | undefined, rules?: readonly string[]) => void;
  /** Run one step of the implementation under the case's deadline, then the prototype guard. */
  step: <T>(at: string, what: string, f: () => T | Promise<T>) => Promise<T>;
  /** Open a session with the case's config (the session of one try), under the deadline; the case's own stays. */
  open: () => Promise<SessionHandle>;
  /** Close a session open() gave, under the deadline. */
  close: (session: SessionHandle) => Promise<void>;
  /** Whether a place of an answer is one the driver declares unobserved (K40): its schema problems are not judged. */
  unobserved?: (at: string) => boolean;
}

/** At most this many per-try mismatches (schema, each) are listed; the rest are counted. */
const RACE_MISSES_MAX = 10;

/** How the results fell: "ok 140, error OUTSIDE_WORKSPACE 160". */
function tally(results: readonly SkillResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) {
    const o = r as { kind?: unknown; code?: unknown };
    const key = o?.kind === "error" ? `error ${String(o.code)}` : String(o?.kind ?? "(none)");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ${n}`).join(", ");
}

/** The wall-clock budget of a race that names none: tries stop when it is spent. */
export const DEFAULT_RACE_BUDGET_MS = 20_000;

/**
 * Tries run in this many lanes, each a session after another (create, call, close): a lane's round trips overlap
 * another's, so a driver over stdio is kept busy while the kit waits, and more tries fit the same time.
 */
const LANES = 4;

/**
 * The race: the writer running, up to `tries` activations each on a session of its own, then the checks; its
 * observation. A race that spends its budget before its last try ends as a missed deadline (errored, the tries made
 * told), unless a try already escaped: then that is the finding, with how many tries were made.
 */
export async function runRace(call: RaceCall, at: string, ctx: RaceContext): Promise<unknown> {
  const spec = call.race;
  const budget = spec.budget_ms ?? DEFAULT_RACE_BUDGET_MS;
  const t0 = performance.now();
  const writer = await startWriter(ctx.tmp, { path: spec.swap.path, targets: template(spec.swap.targets, ctx.tmp) });
  let made: { results: SkillResult[]; fault?: unknown };
  let swaps: number;
  try {
    made = await makeTries(call, at, ctx, () => performance.now() - t0 >= budget);
  } finally {
    // Stopped and restored first, whatever happened; a fault of the implementation wins over the writer's own.
    swaps = await writer.stop().catch((e: unknown) => {
      if (made?.fault === undefined) throw e;
      return 0;
    });
  }
  if (made.fault !== undefined) throw made.fault;
  const { results } = made;
  ctx.slow(`${at}.time`, performance.now() - t0, call.expect.max_ms, resolveRules(call.expect.rules, "max_ms"));
  const observed = checkRace(call, at, results, swaps, ctx);
  if (results.length < spec.tries && observed.escaped === 0)
    throw new ImplFault(
      `${at}: the race's budget of ${budget} ms was spent after ${results.length} of its ${spec.tries} tries (none escaped): too few to judge`,
      "implementation",
      undefined,
      undefined,
      "timeout",
    );
  return observed;
}

/**
 * Up to `tries` tries in LANES lanes, in the order they start; no try starts once `spent()` (the first always does).
 * A fault stops every lane from starting another; the tries under way end (each under its deadline) before it is
 * returned, so nothing of the race outlives it.
 */
async function makeTries(
  call: RaceCall,
  at: string,
  ctx: RaceContext,
  spent: () => boolean,
): Promise<{ results: SkillResult[]; fault?: unknown }> {
  const spec = call.race;
  const params = template(spec.params as unknown, ctx.tmp);
  const invocation = spec.invocation ?? "model";
  const options = spec.turn === undefined ? { invocation } : { invocation, turn: spec.turn };
  const results: SkillResult[] = [];
  let next = 0;
  let fault: { e: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (fault === undefined && next < spec.tries && (next === 0 || !spent())) {
      const k = next++;
      try {
        const session = await ctx.open();
        try {
          results[k] = await ctx.step(at, `${at}: try ${k + 1} of ${spec.tries} (${brief(spec.params)})`, () =>
            session.call(params, options),
          );
        } finally {
          await ctx.close(session);
        }
      } catch (e) {
        fault ??= { e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, spec.tries) }, lane));
  return fault ? { results, fault: fault.e } : { results };
}

/** Schema and `each` per try (the first RACE_MISSES_MAX listed), then the escapes; returns the observation. */
function checkRace(
  call: RaceCall,
  at: string,
  results: readonly SkillResult[],
  swaps: number,
  ctx: RaceContext,
): { race: number; made?: number; escaped: number; first_escape?: unknown } {
  const { marker } = call.race;
  const made = results.length;
  const tries =
    made < call.race.tries ? `${made} tries (of ${call.race.tries}: the budget was spent)` : `${made} tries`;
  const exp = call.expect;
  const perTry: Miss[] = [];
  const escaped: number[] = [];
  results.forEach((r, k) => {
    perTry.push(
      ...schemaMisses("result.schema.json", r, `${at}[${k}].result`, "schema-invalid result", ctx.unobserved).map(
        (m) => ({ ...m, key: "schema" }),
      ),
    );
    if (exp.each) perTry.push(...checkResult(exp.each, ctx.norm(r), [], `${at}[${k}]`));
    if ((JSON.stringify(r) ?? "").includes(marker)) escaped.push(k);
  });
  if (escaped.length)
    ctx.miss({
      at: `${at}.escapes`,
      key: "escapes",
      rules: resolveRules(exp.rules, "escapes"),
      expected: `0 of ${tries} escaped`,
      actual: `${escaped.length} of ${tries} escaped`,
      what: `${escaped.length} of ${made} tries returned text from behind ${call.race.swap.targets[1]} (the marker ${JSON.stringify(marker)}), the first at try ${escaped[0]! + 1}, while the kit's writer swapped ${call.race.swap.path} ${swaps} times (results: ${tally(results)})`,
    });
  perTry.slice(0, RACE_MISSES_MAX).forEach(ctx.miss);
  if (perTry.length > RACE_MISSES_MAX)
    ctx.miss({
      at,
      key: "each",
      rules: [...new Set(perTry.slice(RACE_MISSES_MAX).flatMap((m) => m.rules ?? []))],
      expected: "no further mismatches",
      actual: `${perTry.length - RACE_MISSES_MAX} more (results: ${tally(results)})`,
      what: "more mismatches in this race",
    });
  return {
    race: call.race.tries,
    ...(made < call.race.tries ? { made } : {}),
    escaped: escaped.length,
    ...(escaped.length ? { first_escape: ctx.norm(results[escaped[0]!]) } : {}),
  };
}
