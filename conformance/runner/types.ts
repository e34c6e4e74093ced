// The runner's results: plain, serialisable data with stable statuses. Reports only render these.

export type CaseStatus = "passed" | "failed" | "errored" | "skipped" | "expected_failure";

/** One expectation that did not hold. `at` says which call/check (e.g. "calls[1].result.code"). */
export interface Mismatch {
  at: string;
  expected: unknown;
  actual: unknown;
  /** The params of the call the mismatch belongs to (normalised), when it belongs to one. */
  call?: unknown;
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

export interface RunReport {
  kit: { version: string; specVersion: string };
  implementation: { name: string; version: string; language: string; driver: string };
  suite: string;
  started_at: string;
  summary: Summary;
  cases: CaseResult[];
}
