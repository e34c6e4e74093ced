// The runner's results: plain, serialisable data with stable statuses. Reports only render these.

export type CaseStatus = "passed" | "failed" | "errored" | "skipped" | "expected_failure";

/** One expectation that did not hold. `at` says which call/check (e.g. "calls[1].result.code"). */
export interface Mismatch {
  at: string;
  expected: unknown;
  actual: unknown;
  /** The params of the call the mismatch belongs to (normalised), when it belongs to one. */
  call?: unknown;
  /** The rule(s) it breaks, when known (a schema-invalid answer: `result.schema`, …). */
  rules?: string[];
  message: string;
}

export interface CaseResult {
  id: string;
  title: string;
  spec: string[];
  status: CaseStatus;
  /** What the expected-failures baseline made of a listed case that kept its status (conformance/baseline.ts). */
  baseline?: "stale" | "accepted_skip";
  duration_ms: number;
  /** failed: the expectations that did not hold. */
  mismatches?: Mismatch[];
  /** errored / skipped: why, one line. */
  reason?: string;
  /** errored: who is at fault. */
  blame?: "implementation" | "kit";
  /** errored over a subprocess: the tail of the child's stderr. */
  stderr?: string;
  /** Every result the implementation returned, in call order (for parity and debugging). */
  observed?: unknown[];
  /** The params of every call as sent (normalised), by call index; a batch's entry is its params template. */
  calls?: unknown[];
  /** The catalog the implementation returned (normalised like observed), asked once before the calls. */
  catalog?: unknown;
  /** errored in-process by a throw: the top frames of its stack. */
  stack?: string;
  /** errored: cut off at its deadline, the case's calls close() left unanswered (leftover.ts). */
  leftover?: { pending: number; waited_ms: number };
  /** failed / errored: the case file (relative to the directory the kit ran in, when inside it). */
  file?: string;
  /** failed / errored: the command that reruns this case alone. */
  rerun?: string;
  /** Every permission request the scripted hook received: during which call, the payload (normalised), the answer given. */
  hook_requests?: Array<{ call: number; request: unknown; answer: string }>;
}

export interface Summary {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
  expected_failures: number;
  duration_ms: number;
}

/**
 * Why a run ended before its last case: the implementation could not be opened (handshake failed or never came), or
 * an in-process case left work running after close() that the kit cannot stop.
 */
export interface RunAbort {
  reason: string;
  blame: "implementation" | "kit";
  stderr?: string;
  /** The case the run ended at. */
  at: string;
  /** How long the failed attempt took (the open, or the wait after close()). */
  after_ms: number;
  /** The cases errored without being run (the one the open was for included). */
  not_run: number;
}

export interface RunReport {
  kit: { version: string; specVersion: string };
  implementation: { name: string; version: string; language: string; driver: string };
  suite: string;
  started_at: string;
  summary: Summary;
  /** Present when the run ended early. */
  aborted?: RunAbort;
  cases: CaseResult[];
}
