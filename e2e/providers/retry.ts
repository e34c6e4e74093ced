// Retry with exponential backoff + jitter, a per-call timeout, and the provider-agnostic part of error classification
// (is this failure worth retrying?). Provider adapters add their own advice on top (what to start, pull or set).
// Every call has a total budget (attempts + backoff waits), so retries can never add up to hours: an attempt gets
// at most what is left of it, and no retry starts that could not finish inside it (decision R64).
// Owns: withRetry, withTimeout, callBudget, callRetryOptions, CallTimeoutError, isAbortError, httpStatusOf, connectionCodeOf, isTransientError.

import { ProviderError, type ChatRequest } from "./types.ts";

export interface RetryOptions {
  /** Retries after the first attempt (total attempts = retries + 1). */
  retries: number;
  /** First backoff delay; doubles each retry. */
  baseMs: number;
  /** Cap on one backoff delay. */
  maxMs: number;
  isTransient: (err: unknown) => boolean;
  /** Caller cancellation: stops waiting and stops retrying. */
  signal?: AbortSignal;
  /** Observe each failed attempt that will be retried (logging, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** Randomness source for jitter, injectable so tests are deterministic. */
  random?: () => number;
  /** Total wall time for the call, all attempts and waits included; absent → unbounded (retries still cap it). */
  budgetMs?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

/** The default total budget of one model call: two full attempts' worth of time plus the backoff cap. */
export function callBudget(timeoutMs: number, maxDelayMs: number): number {
  return 2 * timeoutMs + maxDelayMs;
}

/** A provider's retry settings for one model call: the caller's where given, else `defaultRetries`, a 1 s base and the call budget. */
export function callRetryOptions(
  o: { retries?: number; baseDelayMs?: number; budgetMs?: number },
  defaultRetries: number,
  timing: { timeoutMs: number; maxMs: number },
  req: Pick<ChatRequest, "onRetry">,
  signal: AbortSignal | undefined,
): RetryOptions {
  return {
    retries: o.retries ?? defaultRetries,
    baseMs: o.baseDelayMs ?? 1000,
    maxMs: timing.maxMs,
    budgetMs: o.budgetMs ?? callBudget(timing.timeoutMs, timing.maxMs),
    isTransient: isTransientError,
    ...(req.onRetry
      ? {
          onRetry: (i) =>
            req.onRetry!({
              attempt: i.attempt,
              delayMs: i.delayMs,
              error: (i.error as Error)?.message ?? String(i.error),
            }),
        }
      : {}),
    ...(signal ? { signal } : {}),
  };
}

/** Thrown when a call's total budget is spent before it succeeded. Not transient: the budget is the last word. */
export class BudgetExhaustedError extends Error {
  override readonly name = "BudgetExhaustedError";
  constructor(
    readonly budgetMs: number,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(
      `gave up after ${attempts} attempt(s): the call's total budget of ${Math.round(budgetMs / 1000)} s is spent (last error: ${(cause as Error)?.message ?? String(cause)})`,
      { cause },
    );
  }
}

/** Delay before retry number `retry` (0-based): "equal jitter" — half fixed, half random — so retries never bunch at 0. */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** retry);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Runs fn until it succeeds, a non-transient error occurs, retries run out, or the signal aborts.
 * The last error is rethrown unchanged with `attempts` recorded when it is a ProviderError, so callers can report how
 * hard we tried; callers map other errors to ProviderError themselves (they know the provider's advice).
 */
export async function withRetry<T>(
  fn: (attempt: number, remainingMs: number) => Promise<T>,
  opts: RetryOptions,
): Promise<{ value: T; attempts: number }> {
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  const started = now();
  const remaining = () => (opts.budgetMs === undefined ? Number.POSITIVE_INFINITY : opts.budgetMs - (now() - started));
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(opts.signal);
    try {
      return { value: await fn(attempt, remaining()), attempts: attempt };
    } catch (error) {
      if (error instanceof ProviderError) error.attempts = attempt;
      else if (error && typeof error === "object") {
        try {
          (error as { attempts?: number }).attempts = attempt;
        } catch {
          // frozen error objects: attempts just goes unrecorded
        }
      }
      const callerAborted = opts.signal?.aborted === true;
      if (callerAborted || attempt > opts.retries || !opts.isTransient(error)) throw error;
      const delayMs = backoffDelay(attempt - 1, opts.baseMs, opts.maxMs, random);
      // A retry that would start after the budget is spent is not made (a sliver of time is no attempt either).
      if (remaining() - delayMs < Math.min(1000, (opts.budgetMs ?? 0) / 10))
        throw new BudgetExhaustedError(opts.budgetMs!, attempt, error);
      opts.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, opts.signal);
    }
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? Object.assign(new Error("aborted"), { name: "AbortError" });
}

/** setTimeout as a promise that rejects early when the signal aborts (so a cancelled run does not sit out a backoff). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Thrown when one call exceeds its time budget. Transient: a slow model load or a stalled socket may not recur. */
export class CallTimeoutError extends Error {
  override readonly name = "CallTimeoutError";
  constructor(
    readonly timeoutMs: number,
    cause?: unknown,
  ) {
    super(`no response within ${timeoutMs} ms`, cause === undefined ? undefined : { cause });
  }
}

/**
 * Runs fn with a signal that aborts after `timeoutMs` or when `parent` aborts, whichever comes first.
 * We also race fn against the signal, because a client that ignores its signal must still not hang the trial.
 * A timeout surfaces as CallTimeoutError; a parent abort surfaces as the parent's reason (not retried).
 */
export async function withTimeout<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  parent?: AbortSignal,
): Promise<T> {
  if (parent?.aborted) throw abortReason(parent);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new CallTimeoutError(timeoutMs));
  }, timeoutMs);
  const onParentAbort = () => controller.abort(abortReason(parent!));
  parent?.addEventListener("abort", onParentAbort, { once: true });
  let removeRace: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(controller.signal.reason);
    controller.signal.addEventListener("abort", onAbort, { once: true });
    removeRace = () => controller.signal.removeEventListener("abort", onAbort);
  });
  // The losing side of the race must not become an unhandled rejection.
  aborted.catch(() => {});
  const work = fn(controller.signal);
  work.catch(() => {});
  try {
    return await Promise.race([work, aborted]);
  } catch (error) {
    if (timedOut) throw error instanceof CallTimeoutError ? error : new CallTimeoutError(timeoutMs, error);
    throw error;
  } finally {
    clearTimeout(timer);
    removeRace();
    parent?.removeEventListener("abort", onParentAbort);
  }
}

export function isAbortError(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === "AbortError";
}

/** HTTP status from the shapes our clients throw: ollama ResponseError.status_code, AWS $metadata.httpStatusCode. */
export function httpStatusOf(err: unknown): number | undefined {
  if (!err || typeof err !== "object") return undefined;
  const e = err as {
    status_code?: unknown;
    status?: unknown;
    statusCode?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  for (const v of [e.status_code, e.$metadata?.httpStatusCode, e.statusCode, e.status]) {
    if (typeof v === "number" && v >= 100 && v < 600) return v;
  }
  return undefined;
}

const CONNECTION_CODES = [
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ERR_HTTP2_STREAM_CANCEL",
  "ERR_HTTP2_SESSION_ERROR",
  "ERR_HTTP2_STREAM_ERROR",
  "ERR_HTTP2_GOAWAY_SESSION",
] as const;

/**
 * The socket-level error code behind err, searching the cause chain and messages: undici wraps ECONNREFUSED as
 * TypeError("fetch failed", {cause}), and the AWS HTTP/2 handler reports it only inside its message text.
 * The most specific code wins (ECONNREFUSED over the ERR_HTTP2_STREAM_CANCEL wrapping it).
 */
export function connectionCodeOf(err: unknown): string | undefined {
  const seen: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 6; depth++) {
    const e = cur as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === "string") seen.push(e.code);
    if (typeof e.message === "string") seen.push(e.message);
    if (Array.isArray(e.errors)) for (const sub of e.errors) seen.push(String((sub as { code?: unknown })?.code ?? ""));
    cur = e.cause;
  }
  const text = seen.join(" ");
  for (const code of CONNECTION_CODES) if (text.includes(code)) return code;
  if (/fetch failed|socket hang up|other side closed/i.test(text)) return "ECONNRESET";
  return undefined;
}

const TRANSIENT_AWS_NAMES = new Set([
  "ThrottlingException",
  "TooManyRequestsException",
  "ServiceUnavailableException",
  "ModelNotReadyException",
  "InternalServerException",
  "ModelTimeoutException",
]);

/** Errors worth retrying: throttling, 5xx, dropped/refused connections, call timeouts. Never a caller abort. */
export function isTransientError(err: unknown): boolean {
  if (err instanceof ProviderError) return err.transient;
  if (err instanceof CallTimeoutError) return true;
  if (isAbortError(err)) return false;
  const name = (err as { name?: unknown } | null)?.name;
  if (typeof name === "string" && TRANSIENT_AWS_NAMES.has(name)) return true;
  const status = httpStatusOf(err);
  if (status !== undefined) return status === 408 || status === 429 || status >= 500;
  const code = connectionCodeOf(err);
  // A name that does not resolve will not resolve on retry either.
  return code !== undefined && code !== "ENOTFOUND";
}

/**
 * The error a caller sees once retrying is over: the provider's advice for the underlying failure, with the attempts
 * made and, when the budget ended it, a note saying so.
 */
export function finalError(err: unknown, advise: (e: unknown) => ProviderError): ProviderError {
  const budget = err instanceof BudgetExhaustedError ? err : undefined;
  const e = advise(budget ? budget.cause : err);
  e.attempts ??= budget?.attempts ?? (err as { attempts?: number } | null)?.attempts;
  if (budget)
    e.message += ` (gave up: the call's total budget of ${Math.round(budget.budgetMs / 1000)} s is spent; raise --call-budget)`;
  return e;
}
