#!/usr/bin/env node
// `npm run conformance` (installed: `skill-conformance`): the kit's command line. Thin: parse and check flags (every
// usage error is one line, exit 2, before anything runs), name the target (conformance/target.ts), read the baseline
// (conformance/baseline.ts), call the runner / parity / smoke modules, write the reports, map to an exit code.
//   exit 0  every case passed or is a listed expected failure (parity: no difference; smoke: every step ok)
//   exit 1  a case failed, errored or was skipped, a scored rule failed (also one only a control call showed), an
//           expected failure is stale, or parity found a difference
//   exit 2  usage error (no target, a missing driver file, an unknown suite or baseline id, an unwritable report
//           path, the kit's reference without --reference), or the kit itself could not run
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PACKAGE_ROOT, userCwd } from "../package-root.ts";
import { KIT_VERSION, SPEC_VERSION, rules } from "../schemas/index.ts";
import { BaselineError, EMPTY_BASELINE, gate, parseBaseline, type Baseline } from "../conformance/baseline.ts";
import {
  DEFAULT_PARITY_LEVEL,
  PARITY_LEVELS,
  formatCaseParity,
  formatParitySummary,
  runParity,
  type ParityLevel,
} from "../conformance/parity.ts";
import { outputPathsProblem } from "../conformance/output-paths.ts";
import { FORCED_EXIT } from "../conformance/compat/run-suites.ts";
import { formatParityFuzz, runParityFuzz } from "../conformance/parity-fuzz.ts";
import { renderBadge } from "../conformance/report/badge.ts";
import { formatCase, formatRules, formatScore } from "../conformance/report/console.ts";
import { renderJson } from "../conformance/report/json.ts";
import { renderJunit } from "../conformance/report/junit.ts";
import { renderMarkdown } from "../conformance/report/markdown.ts";
import {
  DEFAULT_PROFILE,
  PROFILES,
  isProfile,
  loadCases,
  runSuite,
  suiteDir,
  suites,
  type LoadedCase,
  type Profile,
} from "../conformance/runner/index.ts";
import type { RunReport } from "../conformance/runner/types.ts";
import { formatSmokeStep, smoke } from "../conformance/smoke.ts";
import {
  TargetError,
  describe,
  isKitReference,
  openFailure,
  openTargets,
  opener,
  primed,
  type OpenedTarget,
  type Target,
} from "../conformance/target.ts";

const USAGE = `usage: skill-conformance <target> [options]        (in a clone of the kit: npm run conformance -- <target> [options])

target (required: the implementation under test)
  --exec "<command line>"   any executable speaking the JSON-RPC protocol (conformance/PROTOCOL.md)
  --driver <module>         a JS module exporting createSession (and implementationInfo); ./x, ../x and /x are
                            files where you run the command, never looked up anywhere else
  --reference               the kit's own reference implementation (in-process, from the kit's installation);
                            an implementation answering as the reference is refused without this word

options
  --suite <names>           spec (default), security, contract, frontmatter, a comma list (spec,security), or all
  --profile <p>             which rules are scored: spec (default: the spec's own rules), decisions (+ the kit's
                            decisions), exact (+ the reference's rendering, for byte parity); rules outside the
                            profile are still shown, as not scored
  --filter <ids|globs>      comma-separated case ids or globs (U01,U1*)
  --jobs <n>                cases run at once, each on its own implementation (default 1: one at a time); cases
                            whose verdict is timed (max_ms: S16's 1,000 calls, …) still run alone, after the others;
                            the report is the same, in case order
  --timeout <ms>            per-request / per-case deadline, the handshake included (default 5000; handshake 20000)
  --expected-failures <f>   case ids (of any suite) expected to fail, one per line, # comments; checked before the run
  --json <file>  --junit <file>  --markdown <file>  --badge <file>     (checked writable before the run; a suite run's
                            reports: --parity, --parity --fuzz and --smoke write their own report to --json only)
  --parity                  with two targets (--reference --exec B, or --exec A --exec B): compare results per case
  --parity-level <level>    exact (default: byte for byte) or semantic (prose compared for the facts it carries)
  --fuzz <count>            with --parity: instead of a suite, <count> generated frontmatters (conformance/parity-fuzz.ts),
                            each difference sorted as the contract allows it (R30, R35) or not; one target means A = the reference
  --seed <n>                the fuzz's seed (default: random; printed, so a run can be repeated)
  --smoke                   handshake, one session, one call, clean shutdown; each step ok/failed
  --list                    the suites and their cases (with --suite: those suites), then exit
  --version  --help`;

export class UsageError extends Error {}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Options that take one value: given twice is a usage error, not a silent "last one wins". */
const SINGLE = [
  "suite",
  "filter",
  "timeout",
  "jobs",
  "expected-failures",
  "json",
  "junit",
  "markdown",
  "badge",
  "fuzz",
  "seed",
  "parity-level",
] as const;

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: false,
      tokens: true,
      options: {
        driver: { type: "string", multiple: true },
        exec: { type: "string", multiple: true },
        reference: { type: "boolean", multiple: true },
        suite: { type: "string" },
        profile: { type: "string" },
        filter: { type: "string" },
        timeout: { type: "string" },
        jobs: { type: "string" },
        "expected-failures": { type: "string" },
        json: { type: "string" },
        junit: { type: "string" },
        markdown: { type: "string" },
        badge: { type: "string" },
        parity: { type: "boolean" },
        fuzz: { type: "string" },
        seed: { type: "string" },
        "parity-level": { type: "string" },
        smoke: { type: "boolean" },
        list: { type: "boolean" },
        version: { type: "boolean" },
        help: { type: "boolean" },
      },
    });
  } catch (err) {
    const [first, ...rest] = (err as Error).message.split("\n");
    // Node's "argument is ambiguous" (a value starting with a dash) says what to do only on its last line: keep that.
    const how = /argument is ambiguous/.test(first!)
      ? rest.find((l) => /^To specify an option argument/.test(l))
      : undefined;
    throw new UsageError(`${first!.replace(/\. To specify a positional argument.*$/, "")}${how ? ` ${how}` : ""}`);
  }
  const { values, tokens } = parsed;
  const seen = new Map<string, number>();
  // Targets in the order given, so that --parity --exec A --exec B means A then B.
  const targets: Target[] = [];
  for (const t of tokens ?? []) {
    if (t.kind !== "option") continue;
    seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
    if (t.name === "driver") targets.push({ kind: "module", spec: t.value ?? "" });
    if (t.name === "exec") targets.push({ kind: "exec", command: t.value ?? "" });
    if (t.name === "reference") targets.push({ kind: "reference" });
  }
  for (const name of [...SINGLE, "reference", "parity", "smoke", "list"]) {
    if ((seen.get(name) ?? 0) > 1) throw new UsageError(`--${name} is given ${seen.get(name)} times: give it once`);
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
      throw new UsageError(`--timeout wants a positive number of ms, not ${values.timeout}`);
  }
  const jobs = values.jobs === undefined ? 1 : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs wants an integer ≥ 1, not ${values.jobs}`);
  if (values.profile !== undefined && !isProfile(values.profile))
    throw new UsageError(`--profile wants ${PROFILES.join(", ")}, not ${values.profile}`);
  const level = (values["parity-level"] ?? DEFAULT_PARITY_LEVEL) as ParityLevel;
  if (!PARITY_LEVELS.includes(level))
    throw new UsageError(`--parity-level wants ${PARITY_LEVELS.join(" or ")}, not ${values["parity-level"]}`);
  return { values, targets, timeoutMs, jobs, level, reference: targets.some((t) => t.kind === "reference") };
}
type Parsed = ReturnType<typeof parse>;

/** Where relative paths on the command line start (package-root.ts says why not simply cwd). */
const USER_CWD = userCwd();

/** `--suite a,b` / `all` → suite names, each one the kit has. */
export function parseSuites(value: string | undefined): string[] {
  const known = suites();
  const names = (value ?? "spec")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length) throw new UsageError(`--suite is empty: give ${known.join(", ")}, a comma list, or all`);
  const out: string[] = [];
  for (const n of names.flatMap((n) => (n === "all" ? known : [n]))) {
    if (!known.includes(n))
      throw new UsageError(`unknown suite "${n}": the suites are ${known.join(", ")} (a comma list, or all)`);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

function readBaseline(file: string | undefined): Baseline {
  if (file === undefined) return EMPTY_BASELINE;
  let text: string;
  try {
    text = readFileSync(resolve(USER_CWD, file), "utf8");
  } catch (err) {
    throw new UsageError(
      `cannot read --expected-failures ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const cases = new Set(suites().flatMap((s) => loadCases(s).map((c) => c.id)));
  try {
    return parseBaseline(text, file, { cases, rules: new Set(rules().map((r) => r.id)) });
  } catch (err) {
    if (err instanceof BaselineError) throw new UsageError(err.message);
    throw err;
  }
}

const REPORT_FLAGS = ["json", "junit", "markdown", "badge"] as const;

/** Every report path can be written, checked before the run: a bad path must not cost a finished run. */
function checkOutputs(values: Parsed["values"]): void {
  const given = REPORT_FLAGS.flatMap((flag) =>
    values[flag] === undefined ? [] : [[flag, values[flag]!, resolve(USER_CWD, values[flag]!)] as const],
  );
  const problem = outputPathsProblem(given);
  if (problem) throw new UsageError(problem);
}

/** A report or baseline flag a mode does not use is refused, not silently dropped (the user would look for a file never written). */
function refuseUnused(values: Parsed["values"], mode: string, uses: readonly string[]): void {
  const unused = [...REPORT_FLAGS, "expected-failures" as const].filter(
    (f) => values[f] !== undefined && !uses.includes(f),
  );
  if (unused.length)
    throw new UsageError(
      `${mode} writes ${uses.length ? uses.map((f) => `--${f}`).join(", ") + " only" : "no report and reads no baseline"}: drop ${unused.map((f) => `--${f}`).join(", ")}`,
    );
}

function writeReports(values: Parsed["values"], report: RunReport): void {
  const render = { json: renderJson, junit: renderJunit, markdown: renderMarkdown, badge: renderBadge };
  for (const flag of REPORT_FLAGS) {
    const file = values[flag];
    if (file !== undefined) writeFileSync(resolve(USER_CWD, file), render[flag](report));
  }
}

function list(suiteNames: string[], io: CliIo): number {
  for (const s of suiteNames) {
    const cases = loadCases(s);
    io.out(`${s}  (${cases.length} case${cases.length === 1 ? "" : "s"}, ${relative(PACKAGE_ROOT, suiteDir(s))}/)`);
    for (const c of cases) io.out(`  ${c.id.padEnd(5)} ${c.title}`);
  }
  return 0;
}

/** A word for a POSIX shell: as is when plain, else single-quoted. */
function shellWord(s: string): string {
  return /^[\w./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command that reruns this target (the runner appends --suite and --filter per failing case). */
function rerunCommand(t: Target, timeoutMs: number | undefined, profile: string | undefined): string {
  const cli = process.env["npm_lifecycle_event"] === "conformance" ? "npm run conformance --" : "skill-conformance";
  const target =
    t.kind === "exec"
      ? ` --exec ${shellWord(t.command)}`
      : t.kind === "reference"
        ? " --reference"
        : ` --driver ${shellWord(t.spec)}`;
  // The profile decides which rules are scored: without it a rerun of a decision rule's failure shows "not scored".
  return `${cli}${target}${timeoutMs !== undefined ? ` --timeout ${timeoutMs}` : ""}${profile !== undefined ? ` --profile ${profile}` : ""}`;
}

/** Opens each target once (conformance/target.ts, the path skill-e2e shares): one that cannot be opened is exit 2. */
function openAll(targets: Target[], p: Parsed): Promise<OpenedTarget[]> {
  return openTargets(targets, { cwd: USER_CWD, timeoutMs: p.timeoutMs, reference: p.reference });
}

/** The cases a run will execute: every chosen suite, filtered; none is a usage error. */
function selectCases(suiteNames: string[], filter: string | undefined): LoadedCase[] {
  const cases = suiteNames.flatMap((s) => loadCases(s, filter));
  if (!cases.length) throw new UsageError(`no case of suite ${suiteNames.join(",")} matches --filter ${filter}`);
  return cases;
}

async function runMatrix(
  p: Parsed,
  suiteNames: string[],
  cases: LoadedCase[],
  baseline: Baseline,
  io: CliIo,
): Promise<number> {
  const [t] = await openAll(p.targets, p);
  const suite = suiteNames.join(",");
  io.out(
    `skill-tool conformance ${KIT_VERSION} (spec ${SPEC_VERSION}), suite "${suite}", ${cases.length} case${cases.length === 1 ? "" : "s"}`,
  );
  io.out(`implementation under test: ${t!.described}\n`);
  const profile = (p.values.profile ?? DEFAULT_PROFILE) as Profile;
  const observed = await runSuite(t!.open, cases, {
    driverLabel: t!.label,
    suite,
    handshakeMs: t!.openMs,
    profile,
    jobs: p.jobs,
    ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
    rerun: rerunCommand(p.targets[0]!, p.timeoutMs, p.values.profile),
    // A dead driver: one line (and its stderr tail when the reason does not already say it), not one block per case.
    onAbort: (a) => {
      io.err(
        `run ended at ${a.at}: ${a.reason} (after ${a.after_ms} ms); ${a.not_run} case${a.not_run === 1 ? "" : "s"} not run`,
      );
      const tail = a.stderr?.trim();
      if (tail && !a.reason.includes(tail.split("\n").pop()!))
        io.err(
          tail
            .split("\n")
            .map((l) => `  | ${l}`)
            .join("\n"),
        );
    },
    onResult: (r) => io.out(formatCase(r)),
  });
  const { report, verdict } = gate(observed, baseline);
  io.out("");
  io.out(formatRules(report));
  io.out("");
  io.out(
    `implementation: ${report.implementation.name} ${report.implementation.version} (${report.implementation.language})`,
  );
  io.out(formatScore(report));
  try {
    writeReports(p.values, report);
  } catch (err) {
    io.err(`cannot write a report: ${(err as Error).message}`);
    return 2;
  }
  for (const n of verdict.notes) io.err(n);
  return verdict.code;
}

async function runParityMode(p: Parsed, suiteNames: string[], cases: LoadedCase[], io: CliIo): Promise<number> {
  if (p.targets.length !== 2)
    throw new UsageError("--parity compares exactly two targets (--reference --exec B, or --exec A --exec B)");
  const [a, b] = await openAll(p.targets, p);
  io.out(`parity (${p.level}): A = ${a!.described}\n        B = ${b!.described}\n`);
  const report = await runParity(a!, b!, cases, {
    suite: suiteNames.join(","),
    level: p.level,
    ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
    onCase: (c) => io.out(formatCaseParity(c)),
  });
  io.out("\n" + formatParitySummary(report));
  if (p.values.json) writeFileSync(resolve(USER_CWD, p.values.json), `${JSON.stringify(report, null, 2)}\n`);
  return report.differing === 0 ? 0 : 1;
}

/** --parity --fuzz N [--seed S]: the frontmatter parity fuzz; one target is compared with the reference in-process. */
async function runFuzz(p: Parsed, io: CliIo): Promise<number> {
  const { values } = p;
  if (!values.parity) throw new UsageError("--fuzz and --seed go with --parity");
  const count = Number(values.fuzz ?? 1000);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed))
    throw new UsageError("--fuzz wants a count ≥ 1 and --seed an integer");
  if (p.targets.length < 1 || p.targets.length > 2)
    throw new UsageError("--parity --fuzz compares one target with the reference, or two targets");
  // One target: the reference is the oracle (A), the target is what is tested (B).
  const targets: Target[] = p.targets.length === 1 ? [{ kind: "reference" }, p.targets[0]!] : p.targets;
  const [a, b] = await openAll(targets, p);
  io.out(
    `parity fuzz (${p.level}): ${count} frontmatters, seed ${seed}\n  A = ${a!.described}\n  B = ${b!.described}\n`,
  );
  const report = await runParityFuzz(a!, b!, {
    count,
    seed,
    level: p.level,
    ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
  });
  for (const line of formatParityFuzz(report, { a: a!.label, b: b!.label })) io.out(line);
  if (values.json) writeFileSync(resolve(USER_CWD, values.json), `${JSON.stringify(report, null, 2)}\n`);
  return report.ok ? 0 : 1;
}

async function runSmoke(p: Parsed, io: CliIo): Promise<number> {
  if (p.targets.length !== 1) throw new UsageError("--smoke takes one target");
  const target = p.targets[0]!;
  // Primed like a run (the reference needs --reference here too); a failed open is smoke's failed initialize step,
  // and then exit 2 like any run whose implementation could not be started.
  const o = primed(opener(target, { cwd: USER_CWD, timeoutMs: p.timeoutMs }));
  const first = await o.first;
  if (first.ok && target.kind !== "reference" && isKitReference(first.impl.info) && !p.reference) {
    await first.impl.dispose();
    throw new UsageError(
      `${o.label} answers as the kit's own reference (${describe(first.impl.info)}), not an implementation of yours; to test the reference, say --reference`,
    );
  }
  io.out(`smoke: ${o.label}`);
  const steps = await smoke(o.open, (s) => io.out(formatSmokeStep(s)), { firstOpenMs: first.ms });
  const ok = steps.every((s) => s.status === "ok");
  io.out(ok ? "smoke: ok" : "smoke: FAILED");
  if (p.values.json)
    writeFileSync(resolve(USER_CWD, p.values.json), `${JSON.stringify({ smoke: o.label, ok, steps }, null, 2)}\n`);
  if (!first.ok) io.err(`skill-conformance: ${openFailure(o.label, target.kind, first.error, first.ms)}`);
  return ok ? 0 : first.ok ? 1 : 2;
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const p = parse(argv);
  const { values } = p;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (values.version) {
    io.out(`skill-conformance ${KIT_VERSION} (spec ${SPEC_VERSION})`);
    return 0;
  }
  const suiteNames = parseSuites(values.list && values.suite === undefined ? "all" : values.suite);
  if (values.list) return list(suiteNames, io);
  if (!p.targets.length) {
    throw new UsageError(
      'no target: name the implementation under test with --exec "<command>" or --driver <module> (the kit\'s own reference: --reference)',
    );
  }
  if (values.jobs !== undefined && (values.smoke || values.parity || values.fuzz !== undefined))
    throw new UsageError("--jobs goes with a suite run (not --smoke, --parity or --fuzz): drop it");
  if (values.smoke) {
    refuseUnused(values, "--smoke", ["json"]);
    checkOutputs(values);
    return runSmoke(p, io);
  }
  if (values.fuzz !== undefined || values.seed !== undefined) {
    refuseUnused(values, "--parity --fuzz", ["json"]);
    checkOutputs(values);
    return runFuzz(p, io);
  }
  const cases = selectCases(suiteNames, values.filter);
  if (values.parity) {
    refuseUnused(values, "--parity", ["json"]);
    checkOutputs(values);
    return runParityMode(p, suiteNames, cases, io);
  }
  if (p.targets.length !== 1) throw new UsageError("give one target (several only with --parity)");
  const baseline = readBaseline(values["expected-failures"]);
  checkOutputs(values);
  return runMatrix(p, suiteNames, cases, baseline, io);
}

export async function main(
  argv: string[],
  io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) },
): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    if (err instanceof TargetError) {
      // The target is named right but cannot be opened: what it said matters, not the usage.
      io.err(`skill-conformance: ${err.message}`);
      return 2;
    }
    if (err instanceof UsageError) {
      io.err(`skill-conformance: ${err.message} (--help for usage)`);
      return 2;
    }
    // The kit itself could not run (an invalid case file, …): one line, exit 2.
    io.err(
      `skill-conformance: the kit could not run: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`,
    );
    return 2;
  }
}

// Installed, argv[1] is the bin symlink in node_modules/.bin: compare real paths.
if (
  process.argv[1] &&
  existsSync(process.argv[1]) &&
  realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      // The run is over and its reports are written. Work an in-process implementation left running (an open() of a
      // FIFO holds a libuv thread for good: S24) keeps the process alive, and even process.exit() waits to join that
      // thread: a compat run waited 15 min for it. So after a grace the process ends itself, saying the exit code the
      // run had (FORCED_EXIT: compat reads it); unref'd, so a process with nothing left exits at once as always.
      setTimeout(() => {
        process.stderr.write(`${FORCED_EXIT} ${code}\n`);
        process.kill(process.pid, "SIGKILL");
      }, 2000).unref();
    },
    (err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.exitCode = 2;
    },
  );
}
