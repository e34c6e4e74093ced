// The e2e command line (npm run e2e -- …): parse flags, load the implementation (in-process module or --exec),
// probe every model before any trial (saying what to start, pull or set), run the trials with a progress bar,
// print the scenario × model matrix, write JSON/Markdown, and gate CI on --threshold. Also --rescore <dir> (offline)
// and --list. Owns: main, parseArgs, USAGE. Exit codes: 0 ok, 1 a cell below --threshold, 2 usage / no model
// reachable, 3 the implementation could not be loaded.
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { codePath, userCwd } from "../package-root.ts";
import type { Implementation } from "../schemas/implementation.ts";
import { expandModels, createProvider, parseModelSpec, probeProvider, PRESETS, type ProviderSettings } from "./providers/index.ts";
import { policyNames } from "./providers/scripted.ts";
import type { ModelProvider } from "./providers/types.ts";
import { Progress } from "./progress.ts";
import { buildReport, gate, renderMarkdown, renderText } from "./report.ts";
import { rescoreDir, runTrials } from "./run.ts";
import { SCENARIOS, scenarioById } from "./scenarios/index.ts";
import type { Scenario } from "./scenario.ts";

const DEFAULT_IMPL = codePath("reference/index");

export const USAGE = `Usage: npm run e2e -- --model <spec> [--model <spec> …] [options]

Runs the SK1–SK8 model scenarios (spec §13.2) against a skill tool implementation and reports pass@k per
scenario × model. Results of scripted:* models are harness self-tests, never model results.

Models (repeat --model, or comma-separate; the provider is split off at the first colon):
  ollama:<model>        via the local Ollama server ($OLLAMA_HOST or http://127.0.0.1:11434), e.g. ollama:qwen3:8b
  bedrock:<modelId>     via Bedrock Converse (AWS region/credentials from the standard chain)
  scripted:good         the deterministic good policy of every scenario (harness self-test)
  scripted:bad          every scenario's characteristic mistake (each cell should fail)
  scripted:bad-<name>   one named mistake, run only where defined (--list shows them)
  presets: ${Object.keys(PRESETS).join(", ")}

Options:
  -n <N>                 trials per scenario per model (default 5)
  -k <list>              pass@k / pass^k to report, e.g. 1,5 (default 1); n/a when n < k
  --scenario <SKn>       only these scenarios (repeat or comma-separate)
  --exec "<cmd>"         test a subprocess implementation (JSON-RPC over stdio) instead of the in-process one
  --driver <module>      in-process implementation module (default reference/index.ts); --impl is the same flag
  --json <file>          write the full report (cells and every trial) as JSON
  --markdown <file>      write the matrix as Markdown
  --transcripts <dir>    keep one JSONL transcript per trial here (default: a new temp dir)
  --rescore <dir>        re-judge saved transcripts with the current checkers; no model needed
  --concurrency <N>      trials in flight at once (default 2; scripted-only runs default to 8)
  --threshold <p>        CI gate: exit 1 when any cell's pass@k (for any requested k) is below p or n/a
  --temperature <t>      sampling temperature (default 0.7; recorded in every transcript)
  --seed <s>             base seed; trial i uses s+i-1 (default 1; Bedrock Converse has no seed: recorded only)
  --max-steps <N>        model calls allowed per trial (default per scenario, 8–14)
  --max-tokens <N>       output tokens per model call
  --timeout <ms>         per model call (default 300000 Ollama, 120000 Bedrock)
  --retries <N>          retries on throttling / connection errors (default 3 Ollama, 4 Bedrock)
  --ollama-host <url>    overrides $OLLAMA_HOST
  --bedrock-region <r>   overrides the AWS chain's region
  --bedrock-endpoint <u> overrides the Bedrock runtime endpoint URL
  --think / --no-think   Ollama think flag for reasoning models (default: the model's own)
  --keep-workspaces      do not delete the trial workspaces
  --list                 list scenarios and scripted policies
  -h, --help
`;

export interface CliArgs {
  models: string[];
  n: number;
  ks: number[];
  scenarios: string[];
  exec?: string;
  impl?: string;
  json?: string;
  markdown?: string;
  transcripts?: string;
  rescore?: string;
  concurrency?: number;
  threshold?: number;
  temperature: number;
  seed?: number;
  maxSteps?: number;
  maxTokens?: number;
  timeoutMs?: number;
  retries?: number;
  ollamaHost?: string;
  bedrockRegion?: string;
  bedrockEndpoint?: string;
  think?: boolean;
  keepWorkspaces: boolean;
  list: boolean;
  help: boolean;
}

export function parseArgs(argv: string[]): CliArgs {
  const a: CliArgs = { models: [], n: 5, ks: [1], scenarios: [], temperature: 0.7, seed: 1, keepWorkspaces: false, list: false, help: false };
  const it = argv[Symbol.iterator]();
  const value = (flag: string): string => {
    const v = it.next();
    if (v.done || v.value.startsWith("--")) throw new Error(`${flag} needs a value`);
    return v.value;
  };
  const int = (flag: string, min = 1): number => {
    const s = value(flag);
    const v = Number(s);
    if (!Number.isInteger(v) || v < min) throw new Error(`${flag} needs an integer ≥ ${min}, got "${s}"`);
    return v;
  };
  const num = (flag: string): number => {
    const s = value(flag);
    const v = Number(s);
    if (!Number.isFinite(v)) throw new Error(`${flag} needs a number, got "${s}"`);
    return v;
  };
  for (let r = it.next(); !r.done; r = it.next()) {
    const arg = r.value;
    const eq = arg.match(/^(--[a-z-]+)=(.*)$/);
    if (eq) {
      // --flag=value: re-dispatch as two tokens.
      return parseArgs([...argv.slice(0, argv.indexOf(arg)), eq[1]!, eq[2]!, ...argv.slice(argv.indexOf(arg) + 1)]);
    }
    switch (arg) {
      case "--model":
      case "-m":
        a.models.push(value(arg));
        break;
      case "-n":
      case "--trials":
        a.n = int(arg);
        break;
      case "-k":
        a.ks = value(arg)
          .split(",")
          .map((s) => {
            const k = Number(s.trim());
            if (!Number.isInteger(k) || k < 1) throw new Error(`-k needs positive integers, got "${s}"`);
            return k;
          });
        break;
      case "--scenario":
      case "-s":
        a.scenarios.push(...value(arg).split(",").map((s) => s.trim()).filter(Boolean));
        break;
      case "--exec":
        a.exec = value(arg);
        break;
      case "--impl":
      case "--driver":
        a.impl = value(arg);
        break;
      case "--json":
        a.json = value(arg);
        break;
      case "--markdown":
        a.markdown = value(arg);
        break;
      case "--transcripts":
        a.transcripts = value(arg);
        break;
      case "--rescore":
        a.rescore = value(arg);
        break;
      case "--concurrency":
      case "-j":
        a.concurrency = int(arg);
        break;
      case "--threshold": {
        const t = num(arg);
        if (t < 0 || t > 1) throw new Error(`--threshold is a pass@k between 0 and 1, got ${t}`);
        a.threshold = t;
        break;
      }
      case "--temperature":
        a.temperature = num(arg);
        break;
      case "--seed":
        a.seed = int(arg, 0);
        break;
      case "--max-steps":
        a.maxSteps = int(arg);
        break;
      case "--max-tokens":
        a.maxTokens = int(arg);
        break;
      case "--timeout":
        a.timeoutMs = int(arg);
        break;
      case "--retries":
        a.retries = int(arg, 0);
        break;
      case "--ollama-host":
        a.ollamaHost = value(arg);
        break;
      case "--bedrock-region":
        a.bedrockRegion = value(arg);
        break;
      case "--bedrock-endpoint":
        a.bedrockEndpoint = value(arg);
        break;
      case "--think":
        a.think = true;
        break;
      case "--no-think":
        a.think = false;
        break;
      case "--keep-workspaces":
        a.keepWorkspaces = true;
        break;
      case "--list":
        a.list = true;
        break;
      case "-h":
      case "--help":
        a.help = true;
        break;
      default:
        throw new Error(`unknown option "${arg}" (see --help)`);
    }
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

function writeOut(file: string, text: string): void {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, text);
}

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const err = (s: string) => void io.stderr.write(s.endsWith("\n") ? s : s + "\n");
  let args: CliArgs;
  let scenarios: Scenario[];
  try {
    args = parseArgs(argv);
    scenarios = pickScenarios(args.scenarios);
    // npm runs scripts in the package root; paths the user typed are relative to where they typed them.
    const here = userCwd();
    for (const key of ["transcripts", "rescore", "json", "markdown", "impl"] as const) {
      const v = args[key];
      if (typeof v === "string") args[key] = resolve(here, v);
    }
  } catch (e) {
    err(`e2e: ${(e as Error).message}`);
    return 2;
  }
  if (args.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (args.list) {
    io.stdout("Scenarios (spec §13.2):\n");
    for (const s of SCENARIOS) io.stdout(`  ${s.id} ${s.title}: ${s.spec}\n`);
    io.stdout("\nScripted policies (harness self-tests):\n");
    for (const p of policyNames(SCENARIOS)) io.stdout(`  scripted:${p.name.padEnd(22)} ${p.scenario.padEnd(4)} ${p.mistake}\n`);
    io.stdout(`\nPresets: ${Object.entries(PRESETS).map(([k, v]) => `${k} = ${v.join(" ")}`).join("; ")}\n`);
    return 0;
  }

  const finish = (results: Parameters<typeof buildReport>[0]["results"], implementation: string, transcripts?: string, models?: { id: string; kind: "real" | "scripted" }[]): number => {
    const report = buildReport({
      results,
      ks: args.ks,
      n: args.rescore ? Math.max(0, ...countPerCell(results)) : args.n,
      implementation,
      temperature: args.temperature,
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      scenarios: SCENARIOS.map((s) => ({ id: s.id, title: s.title })),
      ...(models ? { models } : {}),
      ...(transcripts ? { transcripts } : {}),
    });
    io.stdout(renderText(report) + "\n");
    if (args.json) writeOut(args.json, JSON.stringify(report, null, 2) + "\n");
    if (args.markdown) writeOut(args.markdown, renderMarkdown(report));
    if (args.threshold !== undefined) {
      const below = gate(report, args.threshold);
      if (below.length) {
        err(`e2e: ${below.length} cell(s) below the threshold ${args.threshold}:`);
        for (const b of below) err(`  ${b.cell.scenario} × ${b.cell.model}: pass@${b.k} = ${b.value === null ? "n/a" : b.value.toFixed(2)} (${b.cell.passed}/${b.cell.n}, ${b.cell.errors} errors)`);
        return 1;
      }
      err(`e2e: every cell meets pass@k ≥ ${args.threshold}`);
    }
    return 0;
  };

  if (args.rescore) {
    let results;
    try {
      results = rescoreDir(args.rescore, SCENARIOS);
    } catch (e) {
      err(`e2e: cannot re-score ${args.rescore}: ${(e as Error).message}`);
      return 2;
    }
    if (results.length === 0) {
      err(`e2e: no *.jsonl transcripts under ${args.rescore}`);
      return 2;
    }
    const wanted = new Set(scenarios.map((s) => s.id));
    results = results.filter((r) => wanted.has(r.scenario) || r.scenario === "?");
    err(`e2e: re-scored ${results.length} transcript(s) from ${args.rescore} (no model was called)`);
    return finish(results, "(from transcripts)");
  }

  let specs: string[];
  try {
    specs = expandModels(args.models);
    if (specs.length === 0) throw new Error("no --model given (e.g. --model ollama:qwen3:8b, --model scripted:good; see --help)");
    specs.forEach(parseModelSpec);
  } catch (e) {
    err(`e2e: ${(e as Error).message}`);
    return 2;
  }

  const settings: ProviderSettings = {
    scenarios: SCENARIOS,
    ollama: {
      ...(args.ollamaHost ? { host: args.ollamaHost } : {}),
      ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
      ...(args.retries !== undefined ? { retries: args.retries } : {}),
      ...(args.think !== undefined ? { think: args.think } : {}),
    },
    bedrock: {
      ...(args.bedrockRegion ? { region: args.bedrockRegion } : {}),
      ...(args.bedrockEndpoint ? { endpoint: args.bedrockEndpoint } : {}),
      ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
      ...(args.retries !== undefined ? { retries: args.retries } : {}),
      ...(args.maxTokens ? { maxTokens: args.maxTokens } : {}),
    },
  };

  // Probe every model before running anything.
  const problems: string[] = [];
  const providers: ModelProvider[] = [];
  for (const spec of specs) {
    try {
      const p = await probeProvider(spec, settings);
      if (!p.ok) {
        problems.push(p.advice);
        continue;
      }
      providers.push(createProvider(spec, settings));
    } catch (e) {
      problems.push(`${spec}: ${(e as Error).message}`);
    }
  }
  if (problems.length) {
    err(`e2e: ${problems.length === specs.length ? "no model is reachable" : `${problems.length} of ${specs.length} models are not reachable`}; nothing was run.`);
    for (const p of problems) err(`  - ${p}`);
    return 2;
  }

  let implementation: Implementation;
  try {
    if (args.exec) {
      const { spawnImplementation } = await import("../conformance/driver/subprocess.ts");
      implementation = await spawnImplementation(args.exec, { cwd: userCwd() });
    } else {
      const { loadModule } = await import("../conformance/driver/in-process.ts");
      implementation = await loadModule(args.impl ?? DEFAULT_IMPL);
    }
  } catch (e) {
    err(`e2e: cannot load the implementation${args.exec ? ` (--exec ${args.exec})` : ""}: ${(e as Error).message}`);
    return 3;
  }
  const implLabel = `${implementation.info.implementation.name} ${implementation.info.implementation.version} (${implementation.info.implementation.language})`;

  const transcripts = args.transcripts ?? join(tmpdir(), `skill-e2e-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const allScripted = providers.every((p) => p.kind === "scripted");
  const progress = new Progress(io.stderr as NodeJS.WriteStream);
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSigint);
  let results;
  try {
    results = await runTrials({
      scenarios,
      providers,
      implementation,
      n: args.n,
      concurrency: args.concurrency ?? (allScripted ? 8 : 2),
      temperature: args.temperature,
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(args.maxTokens ? { maxTokens: args.maxTokens } : {}),
      ...(args.maxSteps ? { maxSteps: args.maxSteps } : {}),
      transcriptsDir: transcripts,
      keepWorkspaces: args.keepWorkspaces,
      signal: controller.signal,
      onStart: (total) => progress.start(total),
      onResult: (r, done) => progress.result(r, done),
    });
  } finally {
    progress.finish();
    process.removeListener("SIGINT", onSigint);
    for (const p of providers) p.close?.();
    await implementation.dispose().catch(() => {});
  }
  return finish(results, implLabel, transcripts, providers.map((p) => ({ id: p.id, kind: p.kind })));
}

function countPerCell(results: { scenario: string; model: string }[]): number[] {
  const m = new Map<string, number>();
  for (const r of results) m.set(`${r.scenario}\u0000${r.model}`, (m.get(`${r.scenario}\u0000${r.model}`) ?? 0) + 1);
  return [...m.values()];
}
