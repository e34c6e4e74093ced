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
  /** Skipped cases: missing + not_observable (kept for older readers). */
  skipped: number;
  /** The case needs a capability the implementation declares it does not have: a missing feature, counted in the
   *  denominator (never removed from it), shown in its own colour. */
  missing: number;
  /** Every rule the case tests needs a value the harness does not produce (K40): not observable here, counted. */
  not_observable: number;
  /** The profile scores none of the rules the case exists to test. */
  not_scored: number;
  /** pass: every scored case passed (none missing, none unobservable); partial: none failed, but some are missing
   *  or not observable; none: the profile scores no case of this suite (never green); fail; error: the run broke. */
  status: "pass" | "partial" | "none" | "fail" | "error";
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
  /** The timed calls ended at the first that failed (the harness stopped answering): its error; the figures are of
   *  the calls before it. */
  stopped?: string;
  error?: string;
}

/** A load-dependent case (S16: 1,000 concurrent calls) run once more; `flipped` when the two runs disagree. */
export interface Rerun {
  case: string;
  first: string;
  rerun: string;
  flipped: boolean;
}

/** Rule verdicts of one profile, counted by status, for the spec's own rules (the headline: over every spec rule). */
export type SpecRuleCounts = Record<string, number>;

/** A spec rule the implementation fails under profile spec, with the first mismatch that shows it: the material of
 *  one finding (docs/findings/<id>.md, findings.ts). */
export interface Finding {
  rule: string;
  level: string;
  statement: string;
  cites: string[];
  case: string;
  at: string;
  what: string;
  expected?: unknown;
  actual?: unknown;
  call?: unknown;
  /** Every case that shows it. */
  cases: string[];
}

export interface ImplementationResult {
  /** Folder-derived id: "reference", "rust", "mastra", … */
  id: string;
  /** The harness folder it comes from, and what this row's configuration is when the folder has several. */
  folder?: string;
  note?: string;
  /** Values the driver declares the harness does not produce (K40). */
  unobserved?: string[];
  /** Per profile: the spec rules' verdicts counted (passed, failed, n/a = missing, not_observable, not_checkable, …). */
  spec_rules?: Record<string, SpecRuleCounts>;
  reruns?: Rerun[];
  /** Load-dependent cases that were not run once more (the run was told --no-reruns): their verdict is one run's. */
  not_rerun?: string[];
  /** Wall-clock seconds of this row's phases in the run that made it (what a CI job for it costs): its suite run
   *  (with the --jobs it had), its load-dependent reruns, its discovery and activation timing. */
  seconds?: { run?: number; reruns?: number; timing?: number; jobs?: number };
  /** The kit commit this row was made from, when a merged page holds rows of several (merge.ts). */
  kit_commit?: string;
  /** The spec rules it fails under profile spec, each with the mismatch that shows it first. */
  findings?: Finding[];
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
  /** Made with --resume: the rows whose report an interrupted run had finished were not run again (duration_ms is
   *  the resumed part's); a row made from a kept report has no seconds. */
  resumed?: true;
  /** Built by --merge from this many runs (duration_ms is then their sum); absent for one run. */
  merged?: number;
}
