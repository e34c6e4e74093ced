// The conformance runner: loads case files (validated against schemas/conformance-case.schema.json),
// runs one case against any Implementation (fresh temp dir, setup, session, scripted recording hook,
// calls in order — single ones, with optional setup steps right before, or batches issued concurrently —,
// expectations, schema validation of every result / catalog / hook payload, deadlines, a prototype-
// pollution guard, cleanup), and runs a suite (sequential, reopening the implementation after an errored
// case, baselines, summary).
// It reaches implementations only through schemas/implementation.ts.
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { minimatch } from "minimatch";
import { KIT_VERSION, SPEC_VERSION, check } from "../../schemas/index.ts";
import type { CaseCall, ConcurrentCall, ConformanceCase, PermissionDecision, PermissionRequest, ResultExpect, SessionConfig, SkillResult } from "../../schemas/index.ts";
import { DriverError } from "../driver/errors.ts";
import type { Implementation, PermissionHook, SessionHandle } from "../../schemas/implementation.ts";
import { checkCatalog, checkResult, type Miss } from "./expect.ts";
import { restorePrototypes, snapshotPrototypes } from "./prototypes.ts";
import { KitError, REPO_ROOT, applySteps, fixtureDir, normalise, prepareWorkspace, template, withIndex, type Workspace } from "./workspace.ts";
import type { CaseResult, Mismatch, RunReport, Summary } from "./types.ts";

export type { CaseResult, Mismatch, RunReport, Summary } from "./types.ts";

/** A case as loaded: the file's data plus where it came from. */
export type LoadedCase = ConformanceCase & { readonly suite: string; readonly file: string };

export const DEFAULT_TIMEOUT_MS = 5000;
const CASE_SCHEMA = "conformance-case.schema.json";

/** conformance/cases/ for "spec", conformance/cases-<suite>/ for any other suite. */
export function suiteDir(suite: string): string {
  return join(REPO_ROOT, "conformance", suite === "spec" ? "cases" : `cases-${suite}`);
}

function matchesFilter(id: string, filter: string | undefined): boolean {
  if (!filter?.trim()) return true;
  return filter
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .some((p) => (/[*?[\]{}!]/.test(p) ? minimatch(id, p) : id === p));
}

/** Load, validate and filter a suite's cases, sorted by id. An invalid case file is a kit fault: it throws. */
export function loadCases(suite = "spec", filter?: string): LoadedCase[] {
  return loadCasesFrom(suiteDir(suite), suite, filter);
}

/** loadCases over an explicit directory (the kit's own tests use it on a temp dir of broken cases). */
export function loadCasesFrom(dir: string, suite: string, filter?: string): LoadedCase[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new KitError(`suite ${suite}: no case directory ${dir}`);
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  const seen = new Set<string>();
  const out: LoadedCase[] = [];
  for (const f of files) {
    const file = join(dir, f);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      throw new KitError(`invalid case file ${file}: not JSON: ${(e as Error).message}`);
    }
    const v = check(CASE_SCHEMA, data);
    if (!v.valid) throw new KitError(`invalid case file ${file}: ${v.errors}`);
    const c = data as ConformanceCase;
    if (c.id !== basename(f, ".json")) throw new KitError(`invalid case file ${file}: id ${c.id} differs from the file name`);
    if (seen.has(c.id)) throw new KitError(`invalid case file ${file}: duplicate id ${c.id}`);
    seen.add(c.id);
    const fx = fixtureDir(c.fixture, suite);
    if (!existsSync(fx) || !statSync(fx).isDirectory()) throw new KitError(`invalid case file ${file}: fixture ${c.fixture} does not exist under fixtures/${suite === "spec" ? "" : `${suite}/ or fixtures/`}conformance/`);
    for (const [i, call] of c.calls.entries()) {
      if (!("concurrent" in call)) continue;
      for (const part of ["first", "rest", "each"] as const) {
        if (call.expect[part]?.hook_requests !== undefined) throw new KitError(`invalid case file ${file}: calls[${i}].expect.${part}: hook_requests cannot be attributed to one of concurrent calls`);
      }
    }
    const hookOn = c.config.permission?.hook === true;
    if (hookOn !== (c.hook !== undefined)) throw new KitError(`invalid case file ${file}: "hook" must be present exactly when config.permission.hook is true`);
    if (matchesFilter(c.id, filter)) out.push({ ...c, suite, file });
  }
  return out;
}

/** An error thrown by (or on behalf of) the implementation, as opposed to a fault of the kit. */
class ImplFault extends Error {
  constructor(message: string, readonly blame: "implementation" | "kit", readonly stderr?: string) {
    super(message);
  }
}

function faultOf(e: unknown, what: string): ImplFault {
  if (e instanceof ImplFault) return e;
  if (e instanceof DriverError) return new ImplFault(`${what}: ${e.message}`, e.blame, e.stderr);
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new ImplFault(`${what} threw ${msg}`, "implementation");
}

/** Await something the implementation does, under a deadline; any throw or timeout becomes an ImplFault. */
async function impl<T>(what: string, ms: number, f: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(f),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ImplFault(`${what} did not answer within ${ms} ms`, "implementation")), ms);
      }),
    ]);
  } catch (e) {
    throw faultOf(e, what);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

function brief(v: unknown): string {
  const s = JSON.stringify(v);
  if (s === undefined) return String(v);
  return s.length > 160 ? s.slice(0, 157) + "..." : s;
}

/** Strings longer than this are clipped in `observed` (a 1 MiB body would bloat every report); checks see them whole. */
const OBSERVED_STRING_MAX = 64 * 1024;

function clipLarge(value: unknown): unknown {
  if (typeof value === "string") return value.length > OBSERVED_STRING_MAX ? `${value.slice(0, OBSERVED_STRING_MAX)}… (${value.length} chars, clipped by the kit)` : value;
  if (Array.isArray(value)) return value.map(clipLarge);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipLarge(v)]));
  return value;
}

/** At most this many mismatches are listed for one batch of concurrent calls; the rest are counted. */
const BATCH_MISSES_MAX = 10;

function toMismatch(c: ConformanceCase, m: Miss): Mismatch {
  return {
    at: m.at,
    expected: m.expected,
    actual: m.actual,
    message: `${m.at}: ${m.what}: expected ${brief(m.expected)}, got ${brief(m.actual)} [${c.id}: ${c.spec.join(", ")}]`,
  };
}

interface Recorded {
  call: number;
  request: unknown;
  answer: PermissionDecision;
}

export async function runCase(implementation: Implementation, c: LoadedCase | ConformanceCase, opts: { timeoutMs?: number } = {}): Promise<CaseResult> {
  const ms = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const t0 = performance.now();
  const base = { id: c.id, title: c.title, spec: [...c.spec] };
  const done = (r: Omit<CaseResult, "id" | "title" | "spec" | "duration_ms">): CaseResult => ({ ...base, ...r, duration_ms: Math.round(performance.now() - t0) });

  if (c.capability !== undefined && implementation.info.capabilities?.[c.capability] === false) {
    return done({ status: "skipped", reason: `the implementation declares capability ${c.capability} false` });
  }

  const suite = "suite" in c && typeof c.suite === "string" ? c.suite : "spec";
  let ws: Workspace;
  try {
    ws = prepareWorkspace(c.id, c.fixture, c.setup ?? [], suite);
  } catch (e) {
    return done({ status: "errored", reason: (e as Error).message, blame: "kit" });
  }
  const norm = (v: unknown) => normalise(v, ws.spellings);

  const mismatches: Mismatch[] = [];
  const observed: unknown[] = [];
  const recorded: Recorded[] = [];
  let catalogSeen: unknown;
  let currentCall = -1;
  let session: SessionHandle | undefined;
  let fault: ImplFault | undefined;
  const miss = (m: Miss) => mismatches.push(toMismatch(c, m));

  const answers = c.hook ? [...c.hook] : undefined;
  const hook: PermissionHook | undefined = answers
    ? (request: PermissionRequest) => {
        const i = recorded.length;
        const answer: PermissionDecision = answers[i] ?? "deny";
        let copy: unknown;
        try {
          copy = structuredClone(request);
        } catch {
          copy = request;
        }
        recorded.push({ call: currentCall, request: copy, answer });
        return answer;
      }
    : undefined;

  const slow = (at: string, took: number, max: number | undefined) => {
    if (max !== undefined && took > max) miss({ at, expected: `an answer within ${max} ms`, actual: `${Math.round(took)} ms`, what: "too slow" });
  };
  // Checked (and undone) right after every step the implementation takes, before the kit's own code runs
  // on a polluted prototype, and once more at the end for anything done asynchronously.
  const prototypes = snapshotPrototypes();
  const guard = (at: string) => {
    const polluted = restorePrototypes(prototypes);
    if (polluted.length) miss({ at: `${at}.prototypes`, expected: "built-in prototypes unchanged", actual: polluted, what: "prototype pollution (undone by the kit)" });
  };

  try {
    const config = template(c.config, ws.dir) as SessionConfig;
    try {
      session = await impl("createSession", ms, () => implementation.createSession(config, hook ? { hook } : {}));
    } finally {
      guard("createSession");
    }

    const tc = performance.now();
    let catalog: unknown;
    try {
      catalog = await impl("catalog()", ms, () => session!.catalog());
    } finally {
      guard("catalog");
    }
    slow("catalog", performance.now() - tc, c.catalog?.max_ms);
    catalogSeen = norm(catalog);
    const cv = check("catalog.schema.json", catalog);
    if (!cv.valid) miss({ at: "catalog", expected: "a catalog valid against catalog.schema.json", actual: cv.errors, what: "schema-invalid catalog" });
    if (c.catalog) for (const m of checkCatalog(c.catalog, catalogSeen)) miss(m);

    for (const [i, call] of c.calls.entries()) {
      currentCall = i;
      const at = `calls[${i}]`;
      if (call.before) applySteps(ws.dir, call.before, `case ${c.id}: ${at}.before`);
      if ("concurrent" in call) {
        const before = recorded.length;
        observed.push(await runBatch(session, call, at, ws.dir, ms, norm, miss, slow, guard));
        for (const [k, r] of recorded.slice(before).entries()) {
          const hv = check("permission-request.schema.json", r.request);
          if (!hv.valid) miss({ at: `${at}.hook_requests[${k}]`, expected: "a request valid against permission-request.schema.json", actual: hv.errors, what: "schema-invalid hook payload" });
        }
        continue;
      }
      const single: CaseCall = call;
      const params = template(single.params as unknown, ws.dir);
      const invocation = single.invocation ?? "model";
      const before = recorded.length;
      const t1 = performance.now();
      let result: unknown;
      try {
        result = await impl(`call ${i} (${brief(single.params)})`, ms, () =>
          session!.call(params, single.turn === undefined ? { invocation } : { invocation, turn: single.turn }),
        );
      } finally {
        guard(at);
      }
      slow(`${at}.time`, performance.now() - t1, single.expect.max_ms);
      const seen = norm(result);
      observed.push(clipLarge(seen));
      const rv = check("result.schema.json", result);
      if (!rv.valid) miss({ at: `${at}.result`, expected: "a result valid against result.schema.json", actual: rv.errors, what: "schema-invalid result" });
      const asked = recorded.slice(before).map((r) => r.request);
      for (const [k, req] of asked.entries()) {
        const hv = check("permission-request.schema.json", req);
        if (!hv.valid) miss({ at: `${at}.hook_requests[${k}]`, expected: "a request valid against permission-request.schema.json", actual: hv.errors, what: "schema-invalid hook payload" });
      }
      for (const m of checkResult(single.expect, seen, asked.map(norm), at)) miss(m);
    }
    currentCall = -1;
    if (answers) {
      if (recorded.length > answers.length) {
        miss({ at: "hook", expected: `${answers.length} ask(s)`, actual: `${recorded.length} ask(s)`, what: "the hook was asked more often than the case scripts (unscripted asks were answered deny)" });
      } else if (recorded.length < answers.length) {
        miss({ at: "hook", expected: `${answers.length} ask(s)`, actual: `${recorded.length} ask(s)`, what: "scripted hook answers were never asked for" });
      }
    }
  } catch (e) {
    fault = e instanceof KitError ? new ImplFault(e.message, "kit") : e instanceof ImplFault ? e : e instanceof DriverError ? faultOf(e, "driver") : new ImplFault(`kit fault: ${(e as Error)?.stack ?? String(e)}`, "kit");
  } finally {
    if (session) {
      try {
        await impl("close()", ms, () => session!.close());
      } catch (e) {
        fault ??= faultOf(e, "close()");
      }
    }
    guard("end");
    ws.cleanup();
  }

  const extra = {
    observed,
    ...(catalogSeen !== undefined ? { catalog: catalogSeen } : {}),
    ...(recorded.length ? { hook_requests: recorded.map((r) => ({ call: r.call, request: norm(r.request), answer: r.answer })) } : {}),
  };
  if (fault) {
    return done({ status: "errored", reason: fault.message, blame: fault.blame, ...(fault.stderr !== undefined ? { stderr: fault.stderr } : {}), ...(mismatches.length ? { mismatches } : {}), ...extra });
  }
  if (mismatches.length) return done({ status: "failed", mismatches, ...extra });
  return done({ status: "passed", ...extra });
}

/**
 * One batch of concurrent calls: all issued before any is awaited, awaited together under one deadline,
 * then checked (schema, kind counts, settle order, first / rest / each). Returns the compact observation.
 */
async function runBatch(
  session: SessionHandle,
  call: ConcurrentCall,
  at: string,
  tmp: string,
  ms: number,
  norm: (v: unknown) => unknown,
  miss: (m: Miss) => void,
  slow: (at: string, took: number, max: number | undefined) => void,
  guard: (at: string) => void,
): Promise<unknown> {
  const spec = call.concurrent;
  const exp = call.expect;
  const cycle = spec.cycle ?? spec.count;
  const invocation = spec.invocation ?? "model";
  const options = spec.turn === undefined ? { invocation } : { invocation, turn: spec.turn };
  const index = (k: number) => k % cycle;
  const params = Array.from({ length: spec.count }, (_, k) => template(withIndex(spec.params as unknown, index(k)), tmp));
  const settled: number[] = [];
  const t0 = performance.now();
  const pending = params.map((p, k) => {
    let promise: Promise<SkillResult>;
    try {
      promise = Promise.resolve(session.call(p, options));
    } catch (e) {
      promise = Promise.reject(e);
    }
    promise.then(
      () => settled.push(k),
      () => settled.push(k),
    );
    return promise;
  });
  let results: SkillResult[];
  try {
    results = await impl(`${at}: ${spec.count} concurrent calls (${brief(spec.params)})`, ms, () => Promise.all(pending));
  } finally {
    guard(at);
  }
  slow(`${at}.time`, performance.now() - t0, exp.max_ms);

  const batch: Miss[] = [];
  const seen = results.map((r) => norm(r));
  let schemaBad = 0;
  results.forEach((r, k) => {
    const rv = check("result.schema.json", r);
    if (!rv.valid && schemaBad++ === 0) batch.push({ at: `${at}[${k}].result`, expected: "a result valid against result.schema.json", actual: rv.errors, what: "schema-invalid result" });
  });
  if (schemaBad > 1) batch.push({ at: `${at}.result`, expected: "every result schema-valid", actual: `${schemaBad} schema-invalid results`, what: "schema-invalid results" });

  const tally: Record<string, number> = {};
  for (const r of seen) {
    const kind = r !== null && typeof r === "object" && typeof (r as { kind?: unknown }).kind === "string" ? (r as { kind: string }).kind : "(none)";
    tally[kind] = (tally[kind] ?? 0) + 1;
  }
  if (exp.kinds) {
    const want: Record<string, number> = { ...exp.kinds };
    for (const k of new Set([...Object.keys(want), ...Object.keys(tally)])) {
      if ((want[k] ?? 0) !== (tally[k] ?? 0)) batch.push({ at: `${at}.kinds.${k}`, expected: want[k] ?? 0, actual: tally[k] ?? 0, what: `wrong number of ${k} results (all: ${JSON.stringify(tally)})` });
    }
  }
  const inOrder = settled.every((k, n) => k === n);
  if (exp.in_order && !inOrder) {
    const first = settled.findIndex((k, n) => k !== n);
    batch.push({ at: `${at}.order`, expected: "settled in call order 0…" + (spec.count - 1), actual: settled.slice(Math.max(0, first - 2), first + 8), what: `call ${settled[first]} settled in position ${first}` });
  }
  const firstSeen = new Set<string>();
  let perCall = 0;
  seen.forEach((r, k) => {
    const key = JSON.stringify(params[k]);
    const isFirst = !firstSeen.has(key);
    firstSeen.add(key);
    const checks: ResultExpect[] = [];
    if (exp.each) checks.push(exp.each);
    if (isFirst && exp.first) checks.push(exp.first);
    if (!isFirst && exp.rest) checks.push(exp.rest);
    for (const e of checks) {
      for (const m of checkResult(withIndex(e, index(k)), r, [], `${at}[${k}]`)) {
        perCall++;
        batch.push(m);
      }
    }
  });
  batch.slice(0, BATCH_MISSES_MAX).forEach(miss);
  if (batch.length > BATCH_MISSES_MAX) miss({ at, expected: "no further mismatches", actual: `${batch.length - BATCH_MISSES_MAX} more (${perCall} in per-call checks)`, what: "more mismatches in this batch" });

  const compact = seen.map((r) => {
    if (r === null || typeof r !== "object") return r;
    const o = r as Record<string, unknown>;
    const keep: Record<string, unknown> = {};
    for (const k of ["kind", "name", "code", "at_turn"]) if (o[k] !== undefined) keep[k] = o[k];
    return keep;
  });
  return { concurrent: spec.count, settled_in_order: inOrder, kinds: tally, results: compact };
}

export interface SuiteOptions {
  expectedFailures?: ReadonlySet<string>;
  onResult?: (r: CaseResult) => void;
  driverLabel: string;
  suite: string;
  timeoutMs?: number;
}

function applyBaseline(r: CaseResult, expected: ReadonlySet<string> | undefined): CaseResult {
  if (!expected?.has(r.id)) return r;
  if (r.status === "failed") return { ...r, status: "expected_failure" };
  if (r.status === "passed") {
    return {
      ...r,
      status: "failed",
      mismatches: [{ at: "baseline", expected: "failed", actual: "passed", message: `${r.id} is listed as an expected failure but passed: the baseline is stale, remove ${r.id} from it` }],
    };
  }
  return r;
}

async function safeDispose(i: Implementation | undefined): Promise<void> {
  if (!i) return;
  try {
    await i.dispose();
  } catch {
    // disposing is best effort; the next case opens a fresh implementation
  }
}

export function summarise(cases: readonly CaseResult[], duration_ms: number): Summary {
  const n = (s: CaseResult["status"]) => cases.filter((c) => c.status === s).length;
  return { total: cases.length, passed: n("passed"), failed: n("failed"), errored: n("errored"), skipped: n("skipped"), expected_failures: n("expected_failure"), duration_ms };
}

/** Run cases in order; reopen the implementation after an errored case; always dispose at the end. */
export async function runSuite(open: () => Promise<Implementation>, cases: readonly LoadedCase[], opts: SuiteOptions): Promise<RunReport> {
  const started_at = new Date().toISOString();
  const t0 = performance.now();
  const results: CaseResult[] = [];
  let current: Implementation | undefined;
  let info: Implementation["info"] | undefined;
  let openFailure: string | undefined;
  const tryOpen = async (): Promise<Implementation | ImplFault> => {
    try {
      const i = await open();
      info ??= i.info;
      return i;
    } catch (e) {
      const f = faultOf(e, "opening the implementation");
      openFailure ??= f.message;
      return f;
    }
  };
  try {
    for (const c of cases) {
      if (!current) {
        const o = await tryOpen();
        if (o instanceof ImplFault) {
          const r: CaseResult = { id: c.id, title: c.title, spec: [...c.spec], status: "errored", duration_ms: 0, reason: o.message, blame: o.blame, ...(o.stderr !== undefined ? { stderr: o.stderr } : {}) };
          results.push(r);
          opts.onResult?.(r);
          continue;
        }
        current = o;
      }
      const r = applyBaseline(await runCase(current, c, opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }), opts.expectedFailures);
      results.push(r);
      opts.onResult?.(r);
      if (r.status === "errored") {
        await safeDispose(current);
        current = undefined;
      }
    }
    if (!info && !openFailure) {
      const o = await tryOpen();
      if (!(o instanceof ImplFault)) current = o;
    }
  } finally {
    await safeDispose(current);
  }
  const meta = info?.implementation ?? { name: "unknown", version: "unknown", language: "unknown" };
  return {
    kit: { version: KIT_VERSION, specVersion: SPEC_VERSION },
    implementation: { name: meta.name, version: meta.version, language: meta.language, driver: opts.driverLabel },
    suite: opts.suite,
    started_at,
    summary: summarise(results, Math.round(performance.now() - t0)),
    cases: results,
  };
}
