// Owns one batch of concurrent calls of a case: every call issued before any is awaited, all awaited
// together under one deadline, then checked (schema, kind counts, settle order, first / rest / each).
// What it records is compact: counts, order, and kind / name / code / at_turn per result.
import type { ConcurrentCall, ResultExpect, SkillResult } from "../../schemas/index.ts";
import type { SessionHandle } from "../../schemas/implementation.ts";
import { checkResult, type Miss } from "./expect.ts";
import { resolveRules } from "./rules.ts";
import { SCHEMA_RULES, schemaMisses } from "./schema-miss.ts";
import { template, withIndex } from "./workspace.ts";

/** What a batch needs from the case running it. */
export interface StepContext {
  session: SessionHandle;
  tmp: string;
  norm: (v: unknown) => unknown;
  miss: (m: Miss) => void;
  slow: (at: string, took: number, max: number | undefined, rules?: readonly string[]) => void;
  /** Run one step of the implementation under the case's deadline, then the prototype guard. */
  step: <T>(at: string, what: string, f: () => T | Promise<T>) => Promise<T>;
  /** Asked once the batch has settled: false when the kit's own answer (an unscripted hook ask) decided its results. */
  judged: () => boolean;
  /** Track a value the implementation returned until it settles (the case waits for it after close()). */
  track: <T>(value: T) => T;
  /** Whether a place of an answer is one the driver declares unobserved (K40): its schema problems are not judged. */
  unobserved?: (at: string) => boolean;
  /** Whether the driver answered the batch unobserved (K120, unobserved-call.ts): then nothing of it is judged. */
  unobservedCall?: (answers: readonly unknown[]) => boolean;
}

/** At most this many mismatches are listed for one batch of concurrent calls; the rest are counted. */
const BATCH_MISSES_MAX = 10;

/** A value as one short line of JSON, for a step's name in a reason. */
export function brief(v: unknown): string {
  const s = JSON.stringify(v);
  if (s === undefined) return String(v);
  return s.length > 160 ? s.slice(0, 157) + "..." : s;
}

/**
 * One batch of concurrent calls: all issued before any is awaited, awaited together under one deadline,
 * then checked (schema, kind counts, settle order, first / rest / each). Returns the compact observation.
 */
export async function runBatch(call: ConcurrentCall, at: string, ctx: StepContext): Promise<unknown> {
  const { session, tmp, norm, miss, slow } = ctx;
  const spec = call.concurrent;
  const exp = call.expect;
  const cycle = spec.cycle ?? spec.count;
  const invocation = spec.invocation ?? "model";
  const options = spec.turn === undefined ? { invocation } : { invocation, turn: spec.turn };
  const index = (k: number) => k % cycle;
  const params = Array.from({ length: spec.count }, (_, k) =>
    template(withIndex(spec.params as unknown, index(k)), tmp),
  );
  const settled: number[] = [];
  const t0 = performance.now();
  const pending = params.map((p, k) => {
    let promise: Promise<SkillResult>;
    try {
      promise = Promise.resolve(ctx.track(session.call(p, options)));
    } catch (e) {
      promise = Promise.reject(e);
    }
    promise.then(
      () => settled.push(k),
      () => settled.push(k),
    );
    return promise;
  });
  const results = await ctx.step(at, `${at}: ${spec.count} concurrent calls (${brief(spec.params)})`, () =>
    Promise.all(pending),
  );
  const seen = results.map((r) => norm(r));
  if (ctx.unobservedCall?.(results)) return compact(spec.count, settled, seen);
  slow(`${at}.time`, performance.now() - t0, exp.max_ms, resolveRules(exp.rules, "max_ms"));

  checkBatch(call, at, params, results, seen, settled, miss, ctx.judged(), ctx.unobserved);
  return compact(spec.count, settled, seen);
}

function kindTally(seen: readonly unknown[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const r of seen) {
    const kind =
      r !== null && typeof r === "object" && typeof (r as { kind?: unknown }).kind === "string"
        ? (r as { kind: string }).kind
        : "(none)";
    tally[kind] = (tally[kind] ?? 0) + 1;
  }
  return tally;
}

/** Schema, then (when judged) kind counts, settle order, first / rest / each per call; at most BATCH_MISSES_MAX listed. */
function checkBatch(
  call: ConcurrentCall,
  at: string,
  params: unknown[],
  results: SkillResult[],
  seen: unknown[],
  settled: number[],
  miss: (m: Miss) => void,
  judged: boolean,
  unobserved?: (at: string) => boolean,
): void {
  const spec = call.concurrent;
  const exp = call.expect;
  const batch: Miss[] = [];
  // The first schema-invalid result field by field; the others counted, under the same rule.
  let schemaBad = 0;
  const schemaRules = new Set<string>();
  results.forEach((r, k) => {
    const misses = schemaMisses("result.schema.json", r, `${at}[${k}].result`, "schema-invalid result", unobserved).map(
      (m) => ({ ...m, key: "schema" }),
    );
    if (misses.length && schemaBad++ === 0) batch.push(...misses);
    else for (const m of misses) for (const id of m.rules ?? []) schemaRules.add(id);
  });
  if (schemaBad > 1)
    batch.push({
      at: `${at}.result`,
      expected: "every result schema-valid",
      actual: `${schemaBad} schema-invalid results`,
      what: "schema-invalid results (result.schema.json)",
      key: "schema",
      rules: schemaRules.size ? [...schemaRules] : [SCHEMA_RULES["result.schema.json"]],
    });
  if (!judged) {
    batch.forEach(miss);
    return;
  }

  const tally = kindTally(seen);
  if (exp.kinds) {
    const want: Record<string, number> = { ...exp.kinds };
    for (const k of new Set([...Object.keys(want), ...Object.keys(tally)])) {
      if ((want[k] ?? 0) !== (tally[k] ?? 0))
        batch.push({
          at: `${at}.kinds.${k}`,
          key: "kinds",
          rules: resolveRules(exp.rules, "kinds"),
          expected: want[k] ?? 0,
          actual: tally[k] ?? 0,
          what: `wrong number of ${k} results (all: ${JSON.stringify(tally)})`,
        });
    }
  }
  if (exp.in_order && !settled.every((k, n) => k === n)) {
    const first = settled.findIndex((k, n) => k !== n);
    batch.push({
      at: `${at}.order`,
      key: "in_order",
      rules: resolveRules(exp.rules, "in_order"),
      expected: "settled in call order 0…" + (spec.count - 1),
      actual: settled.slice(Math.max(0, first - 2), first + 8),
      what: `call ${settled[first]} settled in position ${first}`,
    });
  }
  const perCall = perCallMisses(call, at, params, seen);
  batch.push(...perCall);
  batch.slice(0, BATCH_MISSES_MAX).forEach(miss);
  if (batch.length > BATCH_MISSES_MAX)
    miss({
      at,
      key: "kinds",
      rules: [...new Set(batch.slice(BATCH_MISSES_MAX).flatMap((m) => m.rules ?? []))],
      expected: "no further mismatches",
      actual: `${batch.length - BATCH_MISSES_MAX} more (${perCall.length} in per-call checks)`,
      what: "more mismatches in this batch",
    });
}

/** first (the first call with given params), rest (the repeats) and each (all), with ${i} bound per call. */
function perCallMisses(call: ConcurrentCall, at: string, params: unknown[], seen: unknown[]): Miss[] {
  const spec = call.concurrent;
  const exp = call.expect;
  const index = (k: number) => k % (spec.cycle ?? spec.count);
  const out: Miss[] = [];
  const firstSeen = new Set<string>();
  seen.forEach((r, k) => {
    const key = JSON.stringify(params[k]);
    const isFirst = !firstSeen.has(key);
    firstSeen.add(key);
    const checks: ResultExpect[] = [];
    if (exp.each) checks.push(exp.each);
    if (isFirst && exp.first) checks.push(exp.first);
    if (!isFirst && exp.rest) checks.push(exp.rest);
    for (const e of checks) out.push(...checkResult(withIndex(e, index(k)), r, [], `${at}[${k}]`));
  });
  return out;
}

/** The observation recorded for a batch: counts, order, and per result only kind / name / code / at_turn. */
function compact(count: number, settled: number[], seen: unknown[]): unknown {
  const tally = kindTally(seen);
  const results = seen.map((r) => {
    if (r === null || typeof r !== "object") return r;
    const o = r as Record<string, unknown>;
    const keep: Record<string, unknown> = {};
    for (const k of ["kind", "name", "code", "at_turn"]) if (o[k] !== undefined) keep[k] = o[k];
    return keep;
  });
  return { concurrent: count, settled_in_order: settled.every((k, n) => k === n), kinds: tally, results };
}
