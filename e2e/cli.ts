// The e2e command line (`skill-e2e …` installed, `npm run e2e -- …` in a clone): parse flags, load the implementation (in-process module or --exec),
// probe every model before any trial (saying what to start, pull or set), run the trials with progress, print the
// scenario × model matrix, write JSON/Markdown, and gate CI on --threshold. Also --rescore <dir> (offline), --resume
// and --list. Ctrl-C stops taking trials and still writes the report, marked interrupted (a second Ctrl-C kills).
// Owns: main, parseArgs, usage. The target (--exec, --driver, --reference) is opened by conformance/target.ts, the
// path skill-conformance uses, with the same errors. Exit codes (docs/exit-codes.md, the kit's one table): 0 ok,
// 1 a cell below --threshold, a scripted self-test trial without the outcome its policy expects (self-test.ts), or a
// run interrupted before every trial finished (the report is still written), 2 a usage or set-up error (no model
// reachable, an implementation that cannot be opened).
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { userCwd } from "../package-root.ts";
import type { Implementation } from "../schemas/implementation.ts";
import {
  createProvider,
  expandModels,
  probeProvider,
  PRESETS,
  PROVIDERS,
  validateSpec,
  type ProviderSettings,
} from "./providers/index.ts";
import { flagName } from "./providers/registry.ts";
import { policyNames } from "./providers/scripted.ts";
import type { ModelProvider } from "./providers/types.ts";
import { mergeShards, shardManifest } from "./merge.ts";
import { renderCsv, renderJsonl } from "./outcomes.ts";
import { Progress } from "./progress.ts";
import { readConversations, renderHtml } from "./report-html.ts";
import { makeDirs, outputPathsProblem } from "../conformance/output-paths.ts";
import { TargetError, openTargets, type Target } from "../conformance/target.ts";
import { servedDrift } from "./provenance.ts";
import {
  buildReport,
  gate,
  renderMarkdown,
  renderText,
  type Report,
  type ReportModel,
  type ReportVersions,
} from "./report.ts";
import { providerName, rescore, runAll, type RunResult } from "./run.ts";
import { selfTestProblems } from "./self-test.ts";
import { SCENARIOS, scenarioById } from "./scenarios/index.ts";
import type { Scenario } from "./scenario.ts";
import type { RunSettings } from "./transcript.ts";
import { parseShard, writeManifest, type Shard, type ShardManifest } from "./shard.ts";
import { clearTranscripts, transcriptsConflict } from "./transcripts-dir.ts";
import { kitVersion, scenarioVersion, versionsFor } from "./versions.ts";

/** --think's value: on, off or a level (the providers that have a think setting send it; the rest ignore it). */
type ThinkLevel = NonNullable<ProviderSettings["common"]["think"]>;

/**
 * The command as the user starts it, for the help text: in a clone, tsx runs scripts/e2e.ts for `npm run e2e --`;
 * installed, the compiled script is the `skill-e2e` bin.
 */
export function invokedAs(script: string = process.argv[1] ?? ""): string {
  return script.endsWith(".ts") ? "npm run e2e --" : "skill-e2e";
}

export const usage = (
  command: string = invokedAs(),
): string => `Usage: ${command} --model <spec> [--model <spec> …] [options]

Runs the SK1–SK8 model scenarios (spec §13.2) against a skill tool implementation and reports pass@k per
scenario × model. Results of scripted:* models are harness self-tests, never model results.

Models (repeat --model, or comma-separate; the provider is split off at the first colon):
${PROVIDERS.flatMap((p) => p.help)
  .map((l) => `  ${l}`)
  .join("\n")}
  presets: ${Object.keys(PRESETS).join(", ")}

Options:
  -n <N>                 trials per scenario per model (default 5)
  -k <list>              pass@k / pass^k to report, e.g. 1,5 (default 1); n/a when n < k
  --scenario <SKn>       only these scenarios (repeat or comma-separate)
  --exec "<cmd>"         the implementation under test: any executable speaking the JSON-RPC protocol on stdio
                         (conformance/PROTOCOL.md), as in skill-conformance
  --driver <module>      the implementation under test: a JS module exporting createSession; ./x, ../x and /x are
                         files where you run the command, as in skill-conformance (--impl is the same flag)
  --reference            the kit's own reference implementation (the default when no target is given)
  --json <file>          write the full report (cells and every trial) as JSON
  --markdown <file>      write the matrix as Markdown
  --html <file>          write a self-contained HTML report (no network): the matrix with pass@1 bars, every
                         cell's trials with their conversations and the judge's reason
  --csv <file>, --jsonl <file>   write one row per trial (outcome, reason, tokens, latency, versions, transcript)
  --shard <i>/<n>        run only shard i of n (every n-th trial of the plan); give each shard its own --transcripts
  --merge <dir>…         merge the --transcripts directories of every shard into the run's report (no model needed)
  --transcripts <dir>    keep one JSONL transcript per trial here (default: a new temp dir)
  --rescore <dir>        re-judge saved transcripts with the current checkers; no model needed. Transcripts made
                         under another checker or fixture are named and left out …
  --rescore-current      … unless this flag scores them under the current checker anyway
  --resume               with --transcripts <dir>: skip trials whose complete transcript is there for the same
                         model, scenario, trial, versions and settings; run only the missing ones. Refused when
                         the directory's transcripts were made with other settings or versions (says which)
  --overwrite            let a run replace the transcripts in --transcripts <dir> (refused otherwise: a fresh
                         run into a directory holding transcripts exits 2, saying what differs)
  --concurrency <N>      trials in flight at once per provider (default: ${PROVIDERS.map((p) => `${p.name} ${p.concurrency}`).join(", ")})
  --concurrency-<provider> <N>   per-provider override (${PROVIDERS.map((p) => `--concurrency-${p.name}`).join(", ")})
  --threshold <p>        CI gate: exit 1 when any cell's pass@k (for any requested k) is below p or n/a
  --temperature <t>      sampling temperature (default 0.7; recorded in every transcript)
  --seed <s>             base seed; trial i uses s+i-1 (default 1; Bedrock Converse has no seed: recorded only)
  --max-steps <N>        model calls allowed per trial (default per scenario, 8–14)
  --max-tokens <N>       output tokens per model call
  --timeout <ms>         per attempt of a model call (default 300000 Ollama, 120000 Bedrock)
  --retries <N>          retries on throttling / connection errors (default 3 Ollama, 4 Bedrock)
  --call-budget <ms>     total per model call, all attempts and waits (default 2 × timeout + backoff cap)
  --stall <s>            show a model call as stalled after this long (default 60)
${providerFlagHelp()}
  --think [level]        Ollama think for reasoning models: --think (true), --think low|medium|high, --no-think
                         (false); default: the model's own. The probe checks the model has the thinking capability
  --num-ctx <N>          Ollama context window (options.num_ctx); default: the model's own (often small)
  --keep-workspaces      do not delete the trial workspaces
  --list                 list scenarios and scripted policies
  --version              print the kit's version
  -h, --help
`;

/** Each provider's own flags, for --help. */
function providerFlagHelp(): string {
  return PROVIDERS.flatMap((p) =>
    p.flags.map((f) => `  ${`${flagName(p.name, f.key)} ${f.value}`.padEnd(22)} ${p.name}: ${f.help}`),
  ).join("\n");
}

export interface CliArgs {
  models: string[];
  n: number;
  ks: number[];
  scenarios: string[];
  exec?: string;
  impl?: string;
  /** --reference: the kit's reference is the target (also when no target is given). */
  reference?: boolean;
  /** The targets in the order given (conformance/target.ts). */
  targets: Target[];
  json?: string;
  markdown?: string;
  html?: string;
  csv?: string;
  jsonl?: string;
  shard?: Shard;
  merge?: string[];
  transcripts?: string;
  rescore?: string;
  rescoreCurrent: boolean;
  resume: boolean;
  /** Let the run replace transcripts it would not reuse (otherwise refused: transcripts-dir.ts). */
  overwrite?: boolean;
  concurrency?: number;
  /** --concurrency-<provider>, by provider name. */
  concurrencyBy: Record<string, number>;
  threshold?: number;
  temperature: number;
  seed?: number;
  maxSteps?: number;
  maxTokens?: number;
  timeoutMs?: number;
  retries?: number;
  callBudgetMs?: number;
  stallSeconds?: number;
  /** Each provider's own flags (--<provider>-<key>), by provider name then key. */
  providerOptions: Record<string, Record<string, string>>;
  think?: ThinkLevel;
  numCtx?: number;
  keepWorkspaces: boolean;
  list: boolean;
  help: boolean;
  version?: boolean;
}

/** Reads the flag values; each helper throws a usage error naming the flag. */
interface Reader {
  value(flag: string): string;
  int(flag: string, min?: number): number;
  num(flag: string): number;
  /** The next token when it is one of `choices` (consumed), else undefined (left for the next flag). */
  optional(choices: readonly string[]): string | undefined;
  /** One or more values: every token up to the next flag. */
  values(flag: string): string[];
}

type Setter = (a: CliArgs, r: Reader, flag: string) => void;

const THINK_LEVELS = ["true", "false", "low", "medium", "high"] as const;

/** Every flag and what it sets; aliases share a setter. */
const FLAGS: Record<string, Setter> = {
  "--model": (a, r, f) => void a.models.push(r.value(f)),
  "-n": (a, r, f) => void (a.n = r.int(f)),
  "-k": (a, r, f) => void (a.ks = r.value(f).split(",").map(positiveK)),
  "--scenario": (a, r, f) =>
    void a.scenarios.push(
      ...r
        .value(f)
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  "--exec": (a, r, f) => {
    a.exec = r.value(f);
    a.targets.push({ kind: "exec", command: a.exec });
  },
  "--driver": (a, r, f) => {
    a.impl = r.value(f);
    a.targets.push({ kind: "module", spec: a.impl });
  },
  "--reference": (a) => {
    a.reference = true;
    a.targets.push({ kind: "reference" });
  },
  "--json": (a, r, f) => void (a.json = r.value(f)),
  "--markdown": (a, r, f) => void (a.markdown = r.value(f)),
  "--html": (a, r, f) => void (a.html = r.value(f)),
  "--csv": (a, r, f) => void (a.csv = r.value(f)),
  "--jsonl": (a, r, f) => void (a.jsonl = r.value(f)),
  "--shard": (a, r, f) => void (a.shard = parseShard(r.value(f))),
  "--merge": (a, r, f) => void (a.merge = [...(a.merge ?? []), ...r.values(f)]),
  "--transcripts": (a, r, f) => void (a.transcripts = r.value(f)),
  "--rescore": (a, r, f) => void (a.rescore = r.value(f)),
  "--rescore-current": (a) => void (a.rescoreCurrent = true),
  "--resume": (a) => void (a.resume = true),
  "--overwrite": (a) => void (a.overwrite = true),
  "--concurrency": (a, r, f) => void (a.concurrency = r.int(f)),
  "--threshold": (a, r, f) => {
    const t = r.num(f);
    if (t < 0 || t > 1) throw new Error(`--threshold is a pass@k between 0 and 1, got ${t}`);
    a.threshold = t;
  },
  "--temperature": (a, r, f) => void (a.temperature = r.num(f)),
  "--seed": (a, r, f) => void (a.seed = r.int(f, 0)),
  "--max-steps": (a, r, f) => void (a.maxSteps = r.int(f)),
  "--max-tokens": (a, r, f) => void (a.maxTokens = r.int(f)),
  "--timeout": (a, r, f) => void (a.timeoutMs = r.int(f)),
  "--retries": (a, r, f) => void (a.retries = r.int(f, 0)),
  "--call-budget": (a, r, f) => void (a.callBudgetMs = r.int(f)),
  "--stall": (a, r, f) => void (a.stallSeconds = r.int(f)),
  "--think": (a, r) => {
    const level = r.optional(THINK_LEVELS);
    a.think = level === undefined || level === "true" ? true : level === "false" ? false : (level as ThinkLevel);
  },
  "--no-think": (a) => void (a.think = false),
  "--num-ctx": (a, r, f) => void (a.numCtx = r.int(f, 256)),
  "--keep-workspaces": (a) => void (a.keepWorkspaces = true),
  "--list": (a) => void (a.list = true),
  "--help": (a) => void (a.help = true),
  "--version": (a) => void (a.version = true),
  // Each provider's flags and concurrency override come from its registry entry.
  ...Object.fromEntries(
    PROVIDERS.flatMap((p): [string, Setter][] => [
      [`--concurrency-${p.name}`, (a, r, f) => void (a.concurrencyBy[p.name] = r.int(f))],
      ...p.flags.map((fl): [string, Setter] => [
        flagName(p.name, fl.key),
        (a, r, f) => void ((a.providerOptions[p.name] ??= {})[fl.key] = r.value(f)),
      ]),
    ]),
  ),
};
const ALIASES: Record<string, string> = {
  "-m": "--model",
  "--trials": "-n",
  "-s": "--scenario",
  "--impl": "--driver",
  "-j": "--concurrency",
  "-h": "--help",
};

function positiveK(s: string): number {
  const k = Number(s.trim());
  if (!Number.isInteger(k) || k < 1) throw new Error(`-k needs positive integers, got "${s}"`);
  return k;
}

/** Flags that add to a list (--model a --model b); every other flag is given at most once. */
const REPEATABLE = new Set(["--model", "--scenario", "--merge"]);

export function parseArgs(argv: string[]): CliArgs {
  const a: CliArgs = {
    models: [],
    n: 5,
    ks: [1],
    scenarios: [],
    temperature: 0.7,
    seed: 1,
    keepWorkspaces: false,
    list: false,
    help: false,
    resume: false,
    rescoreCurrent: false,
    concurrencyBy: {},
    providerOptions: {},
    targets: [],
  };
  // --flag=value becomes two tokens.
  const tokens = argv.flatMap((t) => {
    const eq = t.match(/^(--[a-z-]+)=(.*)$/);
    return eq ? [eq[1]!, eq[2]!] : [t];
  });
  let i = 0;
  const r: Reader = {
    value: (flag) => {
      const v = tokens[i++];
      if (v === undefined || v.startsWith("--")) throw new Error(`${flag} needs a value`);
      return v;
    },
    int: (flag, min = 1) => {
      const s = r.value(flag);
      const v = Number(s);
      if (!Number.isInteger(v) || v < min) throw new Error(`${flag} needs an integer ≥ ${min}, got "${s}"`);
      return v;
    },
    num: (flag) => {
      const s = r.value(flag);
      const v = Number(s);
      if (!Number.isFinite(v)) throw new Error(`${flag} needs a number, got "${s}"`);
      return v;
    },
    optional: (choices) => (tokens[i] !== undefined && choices.includes(tokens[i]!) ? tokens[i++] : undefined),
    values: (flag) => {
      const vs = [r.value(flag)];
      while (tokens[i] !== undefined && !tokens[i]!.startsWith("-")) vs.push(tokens[i++]!);
      return vs;
    },
  };
  const seen = new Set<string>();
  while (i < tokens.length) {
    const flag = tokens[i++]!;
    const name = ALIASES[flag] ?? flag;
    const set = FLAGS[name];
    if (!set) throw new Error(`unknown option "${flag}" (see --help)`);
    // A second --json, -n, --temperature … would silently replace the first: only list flags may repeat.
    if (seen.has(name) && !REPEATABLE.has(name)) throw new Error(`${flag} is given twice: give it once`);
    seen.add(name);
    set(a, r, flag);
  }
  return a;
}

export interface Io {
  stdout: (s: string) => void;
  stderr: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean; columns?: number };
}

const defaultIo: Io = { stdout: (s) => void process.stdout.write(s), stderr: process.stderr };

function pickScenarios(ids: string[]): Scenario[] {
  if (ids.length === 0) return [...SCENARIOS];
  return ids.map((id) => {
    const s = scenarioById(id);
    if (!s) throw new Error(`unknown scenario "${id}" (known: ${SCENARIOS.map((x) => x.id).join(", ")})`);
    return s;
  });
}

const REPORT_KEYS = ["json", "markdown", "html", "csv", "jsonl"] as const;

function writeOut(file: string, text: string): void {
  makeDirs(dirname(resolve(file)));
  writeFileSync(file, text);
}

/** Writes every report asked for; a failure (checked before the run, so rare: a full disk) is one line, exit 2. */
function writeReports(report: Report, args: CliArgs): void {
  const render = {
    json: () => JSON.stringify(report, null, 2) + "\n",
    markdown: () => renderMarkdown(report),
    html: () => renderHtml(report, readConversations(report)),
    csv: () => renderCsv(report),
    jsonl: () => renderJsonl(report),
  };
  for (const key of REPORT_KEYS) {
    const file = args[key];
    if (file === undefined) continue;
    try {
      writeOut(file, render[key]());
    } catch (e) {
      throw new UsageError(
        `cannot write --${key} ${file}: ${(e as Error).message}${report.transcripts ? ` (the transcripts are in ${report.transcripts}: --rescore them)` : ""}`,
      );
    }
  }
}

/** A usage problem: the message goes to stderr, the exit code is 2 (or the code given). */
class UsageError extends Error {
  constructor(
    message: string,
    readonly code = 2,
  ) {
    super(message);
  }
}

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const err = (s: string) => void io.stderr.write(s.endsWith("\n") ? s : s + "\n");
  try {
    const { args, scenarios } = readCommandLine(argv);
    if (args.help) return (io.stdout(usage()), 0);
    if (args.version) return (io.stdout(`${kitVersion()}\n`), 0);
    if (args.list) return (io.stdout(listing()), 0);
    if (args.rescore) return rescoreCommand(args, scenarios, io, err);
    if (args.merge) return mergeCommand(args, io, err);
    return await runCommand(args, scenarios, io, err);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`e2e: ${e.message}`);
    return e.code;
  }
}

/** Flags, scenarios, and paths made relative to where the user typed the command (userCwd, decision R70). */
function readCommandLine(argv: string[]): { args: CliArgs; scenarios: Scenario[] } {
  try {
    const args = parseArgs(argv);
    const scenarios = pickScenarios(args.scenarios);
    if (args.targets.length > 1) throw new Error("give one target: --exec, --driver or --reference");
    const here = userCwd();
    for (const key of ["transcripts", "rescore", "json", "markdown", "html", "csv", "jsonl"] as const) {
      const v = args[key];
      if (typeof v === "string") args[key] = resolve(here, v);
    }
    if (args.merge) args.merge = args.merge.map((d) => resolve(here, d));
    if (args.transcripts) {
      // Checked like the reports: a file there (or a parent that is one) crashed the run at its first trial.
      try {
        if (existsSync(args.transcripts) && !statSync(args.transcripts).isDirectory())
          throw new Error("it is a file, not a directory");
        makeDirs(args.transcripts);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new Error(
          `--transcripts ${args.transcripts}: cannot hold transcripts (${code === "ENOTDIR" || code === "EEXIST" ? "a parent of it is a file" : code === "ENOENT" ? "it cannot be created there" : (code ?? (e as Error).message)})`,
        );
      }
    }
    // A report that cannot be written is refused before hours of model calls, not found after them.
    const outputs = REPORT_KEYS.flatMap((k) => (args[k] === undefined ? [] : [[k, args[k]!, args[k]!] as const]));
    const problem = outputPathsProblem(outputs);
    if (problem) throw new Error(problem);
    if (args.resume && !args.transcripts)
      throw new Error("--resume needs --transcripts <dir> (the directory of the run to finish)");
    if (args.merge && (args.models.length || args.rescore || args.shard || args.transcripts || args.resume))
      throw new Error(
        "--merge reads the shards' transcript directories given after it and runs nothing: it takes no --model, --rescore, --shard, --transcripts or --resume",
      );
    if (args.shard && args.rescore) throw new Error("--shard splits a run; --rescore scores one directory whole");
    // --rescore calls no model: a --model beside it would be silently ignored, so it is refused.
    if (args.rescore && args.models.length)
      throw new Error(
        "--rescore re-judges saved transcripts and calls no model: drop --model (the transcripts say which model made them)",
      );
    return { args, scenarios };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function listing(): string {
  const lines = [
    "Scenarios (spec §13.2):",
    ...SCENARIOS.map((s) => `  ${s.id} ${s.title}: ${s.spec}`),
    "",
    "Scripted policies (harness self-tests):",
  ];
  for (const p of policyNames(SCENARIOS))
    lines.push(`  scripted:${p.name.padEnd(22)} ${p.scenario.padEnd(4)} ${p.mistake}`);
  lines.push(
    "",
    `Presets: ${Object.entries(PRESETS)
      .map(([k, v]) => `${k} = ${v.join(" ")}`)
      .join("; ")}`,
  );
  return lines.join("\n") + "\n";
}

/** The kit version and the current checker/fixture hash of every scenario. */
function currentVersions(): ReportVersions {
  return { kit: kitVersion(), scenarios: Object.fromEntries(SCENARIOS.map((s) => [s.id, scenarioVersion(s)])) };
}

/** The request settings recorded in transcripts and reports (only those given). */
function runSettings(args: CliArgs): RunSettings {
  return {
    ...(args.maxTokens !== undefined ? { maxTokens: args.maxTokens } : {}),
    ...(args.think !== undefined ? { think: args.think } : {}),
    ...(args.numCtx !== undefined ? { numCtx: args.numCtx } : {}),
    ...(args.maxSteps !== undefined ? { maxSteps: args.maxSteps } : {}),
  };
}

function rescoreCommand(args: CliArgs, scenarios: Scenario[], io: Io, err: (s: string) => void): number {
  let summary;
  try {
    summary = rescore(args.rescore!, SCENARIOS, { current: args.rescoreCurrent });
  } catch (e) {
    throw new UsageError(`cannot re-score ${args.rescore}: ${(e as Error).message}`);
  }
  const wanted = new Set(scenarios.map((s) => s.id));
  const results = summary.results.filter((r) => wanted.has(r.scenario) || r.scenario === "?");
  if (results.length === 0 && summary.changed.length === 0)
    throw new UsageError(`no scorable *.jsonl transcripts under ${args.rescore}`);
  err(`e2e: re-scored ${results.length} transcript(s) from ${args.rescore} (no model was called)`);
  for (const d of servedDrift(results))
    err(
      `e2e: ${d.model}: the transcripts were made by different weights (${d.values.join(" and ")}); its numbers mix two models`,
    );
  if (summary.changed.length && !args.rescoreCurrent)
    err(
      `e2e: ${summary.changed.length} transcript(s) were made under another checker or fixture and are left out (--rescore-current scores them)`,
    );
  const report = buildReport({
    results,
    ks: args.ks,
    n: Math.max(0, ...countPerCell(results)),
    implementation: "(from transcripts)",
    temperature: args.temperature,
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    scenarios: SCENARIOS.map((s) => ({ id: s.id, title: s.title })),
    versions: currentVersions(),
    rescore: {
      changed: summary.changed,
      scoredUnderCurrent: summary.scoredUnderCurrent,
      skipped: summary.skipped,
      served: servedDrift(results),
    },
  });
  return publish(report, args, io, err);
}

/** Never lose a run: a transcripts directory this run would overwrite or mix into is refused before anything runs. */
function guardTranscripts(args: CliArgs, implementation: Implementation, err: (s: string) => void): void {
  if (!args.transcripts) return;
  const identity = {
    implementation: implementation.info.implementation,
    temperature: args.temperature,
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    settings: runSettings(args),
    versions: (id: string) => {
      const s = scenarioById(id);
      return s ? versionsFor(s) : undefined;
    },
  };
  const conflict = transcriptsConflict(args.transcripts, identity, { resume: args.resume });
  if (conflict === undefined) return;
  if (!args.overwrite) throw new UsageError(conflict);
  if (!args.resume)
    err(
      `e2e: --overwrite: removed ${clearTranscripts(args.transcripts)} transcript(s) of the earlier run in ${args.transcripts}`,
    );
}

async function runCommand(args: CliArgs, scenarios: Scenario[], io: Io, err: (s: string) => void): Promise<number> {
  const settings = providerSettings(args);
  const specs = modelSpecs(args, settings);
  // The target first: a wrong path or a dead driver is said before any model server is asked.
  const implementation = await openImplementation(args);
  let providers: ModelProvider[];
  try {
    providers = await probeAll(specs, settings);
  } catch (e) {
    await implementation.dispose().catch(() => {});
    throw e;
  }
  // After the load (the transcripts must be of this implementation), before any trial.
  try {
    guardTranscripts(args, implementation, err);
  } catch (e) {
    for (const p of providers) p.close?.();
    await implementation.dispose().catch(() => {});
    throw e;
  }
  const transcripts = args.transcripts ?? join(tmpdir(), `skill-e2e-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  let summary;
  try {
    const manifest = args.shard ? recordShard(args, scenarios, providers, implementation, transcripts) : undefined;
    const ran = await runWithProgress(args, scenarios, providers, implementation, transcripts, io);
    summary = {
      ...ran,
      ...(manifest
        ? {
            shard: {
              index: manifest.shard.index,
              count: manifest.shard.count,
              trials: manifest.trials.length,
              total: manifest.total,
            },
          }
        : {}),
    };
  } finally {
    for (const p of providers) p.close?.();
    await implementation.dispose().catch(() => {});
  }
  const report = buildReport({
    results: summary.results,
    ks: args.ks,
    n: args.n,
    implementation: implementationName(implementation),
    temperature: args.temperature,
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    settings: runSettings(args),
    scenarios: SCENARIOS.map((s) => ({ id: s.id, title: s.title })),
    versions: currentVersions(),
    models: providers.map((p) => modelEntry(p, summary.results)),
    transcripts,
    interrupted: { unfinished: summary.unfinished },
    resumed: summary.resumed,
    ...(summary.shard ? { shard: summary.shard } : {}),
  });
  const code = publish(report, args, io, err);
  if (summary.interrupted) {
    // Not a pass: exit 1 (the kit's exit codes are 0, 1 and 2 only, docs/exit-codes.md).
    err(
      `e2e: interrupted: ${summary.unfinished.length} trial(s) not scored; finish with the same command plus --resume --transcripts ${transcripts}`,
    );
    return 1;
  }
  return code;
}

function implementationName(implementation: Implementation): string {
  const info = implementation.info.implementation;
  return `${info.name} ${info.version} (${info.language})`;
}

/** A shard's manifest, written before its first trial (so an interrupted shard is still accounted for by --merge). */
function recordShard(
  args: CliArgs,
  scenarios: Scenario[],
  providers: ModelProvider[],
  implementation: Implementation,
  transcripts: string,
): ShardManifest {
  const manifest = shardManifest({
    shard: args.shard!,
    providers,
    scenarios,
    n: args.n,
    implementation: implementationName(implementation),
    temperature: args.temperature,
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    settings: runSettings(args),
    kit: kitVersion(),
  });
  writeManifest(transcripts, manifest);
  return manifest;
}

/** --merge: the shards' transcripts re-judged into the report the unsharded run would have made. */
function mergeCommand(args: CliArgs, io: Io, err: (s: string) => void): number {
  let merged;
  try {
    merged = mergeShards(args.merge!, {
      ks: args.ks,
      scenarios: SCENARIOS,
      versions: currentVersions(),
      current: args.rescoreCurrent,
    });
  } catch (e) {
    throw new UsageError(`cannot merge ${args.merge!.join(" ")}: ${(e as Error).message}`);
  }
  err(
    `e2e: merged ${merged.report.trials.length} trial(s) from ${merged.report.merged!.shards} shard(s) (no model was called)`,
  );
  for (const note of merged.notes) err(`e2e: ${note}`);
  const code = publish(merged.report, args, io, err);
  const unfinished = merged.report.interrupted?.unfinished.length ?? 0;
  if (unfinished === 0) return code;
  // A merge missing trials must not read as the run's result: it fails whatever the threshold says.
  err(
    `e2e: ${unfinished} planned trial(s) have no finished transcript in the shards; rerun their shard with --resume, then merge again`,
  );
  return 1;
}

/** A model as the report names it: kind, sampling reach, what served it, and the sampling its requests carried. */
function modelEntry(p: ModelProvider, results: readonly RunResult[]): ReportModel {
  const sent = results.find((r) => r.model === p.id && r.sent)?.sent;
  return {
    id: p.id,
    kind: p.kind,
    ...(p.sampling ? { sampling: p.sampling } : {}),
    ...(p.served ? { served: p.served } : {}),
    ...(sent ? { sent } : {}),
  };
}

function modelSpecs(args: CliArgs, settings: ProviderSettings): string[] {
  try {
    const specs = expandModels(args.models);
    if (specs.length === 0)
      throw new Error("no --model given (e.g. --model ollama:qwen3:8b, --model scripted:good; see --help)");
    for (const spec of specs) {
      const problem = validateSpec(spec, settings);
      if (problem) throw new Error(problem);
    }
    return specs;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function providerSettings(args: CliArgs): ProviderSettings {
  return {
    common: {
      ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
      ...(args.retries !== undefined ? { retries: args.retries } : {}),
      ...(args.callBudgetMs ? { budgetMs: args.callBudgetMs } : {}),
      ...(args.maxTokens ? { maxTokens: args.maxTokens } : {}),
      ...(args.think !== undefined ? { think: args.think } : {}),
      ...(args.numCtx !== undefined ? { numCtx: args.numCtx } : {}),
    },
    options: args.providerOptions,
    scenarios: SCENARIOS,
  };
}

/** Probes every model before anything runs; any that cannot be used stops the run with what to start, pull or set. */
async function probeAll(specs: string[], settings: ProviderSettings): Promise<ModelProvider[]> {
  const problems: string[] = [];
  const providers: ModelProvider[] = [];
  for (const spec of specs) {
    try {
      const p = await probeProvider(spec, settings);
      if (p.ok) providers.push(createProvider(spec, settings, p.served));
      else problems.push(p.advice);
    } catch (e) {
      problems.push(`${spec}: ${(e as Error).message}`);
    }
  }
  if (problems.length) {
    const head =
      problems.length === specs.length
        ? "no model is reachable"
        : `${problems.length} of ${specs.length} models are not usable`;
    throw new UsageError(`${head}; nothing was run: ${problems.join("; ")}`);
  }
  return providers;
}

/**
 * The implementation under test, opened as skill-conformance opens it (conformance/target.ts): a path where the user
 * is, a driver that starts and answers initialize; no target is the kit's reference. Anything else is exit 2.
 */
async function openImplementation(args: CliArgs): Promise<Implementation> {
  const targets: Target[] = args.targets.length ? args.targets : [{ kind: "reference" }];
  try {
    const [t] = await openTargets(targets, {
      cwd: userCwd(),
      reference: args.reference === true || args.targets.length === 0,
    });
    return await t!.open();
  } catch (e) {
    if (e instanceof TargetError) throw new UsageError(e.message);
    throw new UsageError(`the kit could not run: ${(e as Error).message}`);
  }
}

/** Concurrency per provider: --concurrency-<provider>, else --concurrency, else the provider's default (registry). */
export function concurrencyFor(
  args: Pick<CliArgs, "concurrency"> & Partial<Pick<CliArgs, "concurrencyBy">>,
): Record<string, number> {
  return Object.fromEntries(
    PROVIDERS.map((p) => [p.name, args.concurrencyBy?.[p.name] ?? args.concurrency ?? p.concurrency]),
  );
}

/** Runs the trials with progress on stderr; the first Ctrl-C stops taking trials (the report is still written). */
async function runWithProgress(
  args: CliArgs,
  scenarios: Scenario[],
  providers: ModelProvider[],
  implementation: Implementation,
  transcripts: string,
  io: Io,
) {
  const limits = concurrencyFor(args);
  const byModel = new Map(providers.map((p) => [p.id, limits[providerName(p)] ?? 1]));
  const progress = new Progress(io.stderr, {
    concurrencyOf: (m) => byModel.get(m) ?? 1,
    ...(args.stallSeconds ? { stallMs: args.stallSeconds * 1000 } : {}),
  });
  const controller = new AbortController();
  const onSigint = () => {
    io.stderr.write("\ne2e: interrupted: finishing the report with what completed (Ctrl-C again to quit at once)\n");
    controller.abort(new Error("interrupted"));
  };
  process.once("SIGINT", onSigint);
  try {
    return await runAll({
      scenarios,
      providers,
      implementation,
      n: args.n,
      concurrency: 1,
      concurrencyByProvider: limits,
      temperature: args.temperature,
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(args.maxTokens ? { maxTokens: args.maxTokens } : {}),
      ...(args.maxSteps ? { maxSteps: args.maxSteps } : {}),
      settings: runSettings(args),
      transcriptsDir: transcripts,
      resume: args.resume,
      ...(args.shard ? { shard: args.shard } : {}),
      keepWorkspaces: args.keepWorkspaces,
      signal: controller.signal,
      onStart: (total, jobs) => progress.start(total, jobs),
      onResult: (r, done) => progress.result(r, done),
      watch: (job) => progress.watch(job),
    });
  } finally {
    progress.finish();
    process.removeListener("SIGINT", onSigint);
  }
}

/** Prints the matrix, writes JSON/Markdown, applies the self-test gate and the --threshold gate. */
function publish(report: Report, args: CliArgs, io: Io, err: (s: string) => void): number {
  io.stdout(renderText(report) + "\n");
  writeReports(report, args);
  const selfTest = selfTestProblems(report.trials);
  if (selfTest.length) {
    err(
      `e2e: harness self-test failed: ${selfTest.length} scripted trial(s) did not get the outcome their policy expects:`,
    );
    for (const line of selfTest) err(`  ${line}`);
  }
  const thresholdCode = thresholdGate(report, args, err);
  return selfTest.length ? 1 : thresholdCode;
}

/** The --threshold gate: 1 when any cell's pass@k is below it (or n/a), else 0. */
function thresholdGate(report: Report, args: CliArgs, err: (s: string) => void): number {
  if (args.threshold === undefined) return 0;
  const below = gate(report, args.threshold);
  if (below.length === 0) {
    err(`e2e: every cell meets pass@k ≥ ${args.threshold}`);
    return 0;
  }
  err(`e2e: ${below.length} cell(s) below the threshold ${args.threshold}:`);
  for (const b of below)
    err(
      `  ${b.cell.scenario} × ${b.cell.model}: pass@${b.k} = ${b.value === null ? "n/a" : b.value.toFixed(2)} (${b.cell.passed}/${b.cell.n}, ${b.cell.errors} errors)`,
    );
  return 1;
}

function countPerCell(results: readonly RunResult[]): number[] {
  const m = new Map<string, number>();
  for (const r of results) m.set(`${r.scenario}\u0000${r.model}`, (m.get(`${r.scenario}\u0000${r.model}`) ?? 0) + 1);
  return [...m.values()];
}
