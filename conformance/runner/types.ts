// The runner's results: plain, serialisable data with stable statuses. Reports only render these.
import type { ConformanceReport } from "../../schemas/types.gen.ts";
import type { Effect, Profile } from "./rules.ts";

export type CaseStatus = "passed" | "failed" | "errored" | "skipped" | "expected_failure" | "not_scored";

/**
 * One expectation that did not hold. `at` says where (e.g. "calls[1].code"), `key` which check of the expectation
 * (kind, fields.body, output_matches.1, names.order, max_ms, schema, prototypes), `rules` what it breaks.
 */
export interface Mismatch {
  at: string;
  key: string;
  /** The rules (schemas/rules.json) the check verifies; [] only for a check the case file did not attribute. */
  rules: string[];
  /** fails_case: a rule the case exists to test; incidental: a finding under another scored rule; not_scored: outside the profile; n/a: a capability the implementation lacks. */
  effect: Effect;
  expected: unknown;
  actual: unknown;
  /** The params of the call the mismatch belongs to (normalised), when it belongs to one. */
  call?: unknown;
  /** What went wrong, short (wrong kind, missing, not equal, …). */
  what: string;
  /** A cascade: an earlier call (calls[i]) came back as the wrong kind or code, and this finding may only follow from it. */
  after?: string;
  /** One line for a log: at, what, expected, actual and the rules. Renderers compose their own from the fields. */
  message: string;
}

export interface CaseResult {
  id: string;
  title: string;
  spec: string[];
  /** The rules the case exists to test: its status comes from these. */
  rules: string[];
  /** Every rule some check of the case verifies (its own, its control calls', the runner's). */
  checked_rules: string[];
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
  /** errored, or not_scored after a missed deadline: the rules whose checks never ran (no rule passes on them). */
  unchecked_rules?: string[];
  /** The calls the driver answered unobserved (K120): the harness could not be given them; nothing of them was judged. */
  unobserved_calls?: Array<{ call: number; unobserved: string; reason: string }>;
  /** With unobserved_calls: the rules checked only at those calls (left out of checked_rules: never checked here). */
  unobserved_rules?: string[];
  /** The rules with a check at a value the harness does not produce (effect not_observable): only partly observed
   *  here, so this case is no evidence that they hold (K124, partly-observed.ts). */
  partly_observed_rules?: string[];
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
  not_scored: number;
  duration_ms: number;
}

/** A rule's verdict, as report.schema.json lists them (one list: the schema's). */
export type RuleStatus = NonNullable<ConformanceReport["rules"]>[number]["status"];

/** The verdict on one rule over the whole run. */
export interface RuleResult {
  id: string;
  source: "spec" | "decision" | "rendering";
  level: "MUST" | "SHOULD";
  status: RuleStatus;
  /** The cases that show it failing (failed, expected_failure, or not_scored when it did not hold); empty when it held. */
  cases: string[];
  /** The cases that checked it (for a passed rule: where it held). */
  checked_in: string[];
  statement: string;
  cites: string[];
  /** not_scored: whether it held where checked; n/a: the capability; not_checkable: why, and where it is judged instead. */
  note?: string;
  /** One mismatch that shows the failure. */
  example?: { case: string; at: string; key: string; expected: unknown; actual: unknown; call?: unknown; what: string };
}

export type RuleCounts = Record<RuleStatus, number>;

/** report.schema.json's score: the rules the profile scores (the headline), the cases as the detail. */
export interface RunScore {
  profile: Profile;
  sources: Array<"spec" | "decision" | "rendering">;
  rules: RuleCounts;
  cases: { scored: number; passed: number; not_scored: number };
  /** This profile scores none of the run's cases: the smallest profile that scores some. */
  scored_by?: Profile;
}

/**
 * Why a run ended before its last case: the implementation could not be opened (handshake failed or never came), or
 * an in-process case left work running after close() that the kit cannot stop. Its shape is report.schema.json's.
 */
export type RunAbort = NonNullable<ConformanceReport["aborted"]>;

export interface RunReport {
  kit: { version: string; specVersion: string };
  implementation: { name: string; version: string; language: string; driver: string };
  /** What the implementation declared: its capabilities, and the values it does not produce (K40). */
  capabilities?: Record<string, boolean>;
  unobserved?: string[];
  suite: string;
  /** Which rule sources were scored: spec, decisions (+ decision), exact (+ rendering). */
  profile: Profile;
  started_at: string;
  summary: Summary;
  /** Every rule of schemas/rules.json, failing first. */
  rules: RuleResult[];
  /** Rule statuses counted by source. */
  rule_counts: Record<"spec" | "decision" | "rendering", RuleCounts>;
  /** The one score: the rules the profile scores, then the cases (a not-scored case is neither passed nor failed). */
  score: RunScore;
  /** Present when the run ended early. */
  aborted?: RunAbort;
  cases: CaseResult[];
}
