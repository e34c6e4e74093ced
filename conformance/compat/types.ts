// The compatibility run's plain results (`npm run compat`): what conformance/compat/ produces and the
// renderers read. No I/O here; docs/compatibility.json is this shape, written as is.

/** A rule that failed in one cell, with the cases that show it there. `source` is "case" when the
 *  kit's report had no per-rule data (before rules landed): the id is then a case id, not a rule id. */
export interface FailingRule {
  id: string;
  source: string;
  level?: string;
  cases: string[];
  /** A case's title, when the entry is a case (source "case"). */
  title?: string;
}

/** One implementation × profile × suite. */
export interface Cell {
  profile: string;
  suite: string;
  total: number;
  passed: number;
  failed: number;
  errored: number;
  /** n/a: the case needs a capability the implementation declares false. */
  skipped: number;
  /** The profile scores none of the rules the case exists to test. */
  not_scored: number;
  /** pass: no case failed or errored (skips are declared non-support); fail; error: the run itself broke. */
  status: "pass" | "fail" | "error";
  /** Whether failing[] names rules (the report had `rules`) or, as a fallback, cases. */
  by: "rule" | "case";
  /** The rules that fail this suite's cases (a case exists to test them), each once. */
  failing: FailingRule[];
  /** Failed rules seen in this suite only in checks its cases do not exist for (a control call): findings
   *  under their own rule that leave the cases passed. */
  incidental: FailingRule[];
  /** Set when status is "error": why the run gave no report. */
  reason?: string;
}

/** Discovery and activation through the driver, on the generated skills (bench/generate.ts). */
export interface Timing {
  skills: number;
  /** Median over the repetitions of a fresh session's create + first catalog(). */
  discovery_ms: number;
  discovery_runs_ms: number[];
  /** Entries the catalog listed (an implementation that drops skills discovers less). */
  listed: number;
  /** Per-call latency of first activations of distinct skills, sequential. */
  activation_p50_us: number;
  activation_p99_us: number;
  calls: number;
  /** How many of those calls answered kind "ok". */
  ok: number;
  error?: string;
}

export interface ImplementationResult {
  /** Folder-derived id: "reference", "rust", "mastra", … */
  id: string;
  name: string;
  version: string;
  language: string;
  /** How it was reached: the --driver module or the --exec command line, relative to the repo. */
  driver: string;
  /** The harness package the folder pins, and its exact version (from the folder's package.json). */
  pins?: Record<string, string>;
  status: "ran" | "not_built" | "install_failed" | "errored";
  reason?: string;
  capabilities?: Record<string, boolean>;
  cells: Cell[];
  timing?: Timing;
}

export interface CompatResult {
  generated_at: string;
  kit: { version: string; commit?: string };
  node: string;
  /** The profiles run; ["default"] when the kit has no --profile option yet. */
  profiles: string[];
  suites: { id: string; cases: number }[];
  implementations: ImplementationResult[];
  /** Rule ids → what the rule table says of them (when schemas/rules.json exists). */
  rules?: Record<string, { source?: string; level?: string; text?: string; cite?: string }>;
  duration_ms: number;
}
