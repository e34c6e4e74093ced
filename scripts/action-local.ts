// Runs a composite GitHub Action's steps on this machine the way a runner would, so action.yml is tested without
// GitHub: inputs (defaults merged with the given ones) substituted into `${{ … }}`, each `run:` step executed with
// `bash --noprofile --norc -eo pipefail` in its working directory with its env, GITHUB_PATH lines put on PATH for the
// steps after, GITHUB_OUTPUT lines becoming `steps.<id>.outputs.<name>` and then the action's own outputs, and the
// first failing step ending the run. `uses:` steps (setup-node, cache) cannot run here: they are reported as skipped;
// a second run with the same runnerTemp is what a cache hit restores. Each step is timed. An expression this runner
// does not know is an error, not an empty string.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import YAML from "yaml";

interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  "working-directory"?: string;
}

interface ActionFile {
  inputs?: Record<string, { default?: string; required?: boolean }>;
  outputs?: Record<string, { value: string; description?: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface LocalRunOptions {
  /** Directory holding action.yml (github.action_path). */
  actionDir: string;
  inputs: Record<string, string>;
  /** The caller's checkout (github.workspace); steps run here unless they say otherwise. */
  workspace: string;
  /** runner.temp: a scratch directory of the job. */
  runnerTemp: string;
  env: NodeJS.ProcessEnv;
}

export interface StepOutcome {
  name: string;
  status: "ok" | "failed" | "skipped";
  code?: number;
  output?: string;
  /** Wall-clock time of the step. */
  ms?: number;
}

export interface LocalRun {
  code: number;
  steps: StepOutcome[];
  /** What the steps appended to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The action's outputs, evaluated from its steps' outputs (those of steps that ran). */
  outputs: Record<string, string>;
}

/** GITHUB_OUTPUT's format: name=value lines, and name<<DELIM … DELIM blocks for multi-line values. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) body.push(lines[i]!);
      out[heredoc[1]!] = body.join("\n");
    } else if (line.includes("=")) out[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
  }
  return out;
}

/** Replace every `${{ context.path }}`; anything but a known context path throws. */
export function substitute(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    if (!(expr in context)) throw new Error(`action-local: unsupported expression \${{ ${expr} }}`);
    return context[expr]!;
  });
}

function loadAction(
  actionDir: string,
  given: Record<string, string>,
): { action: ActionFile; context: Record<string, string> } {
  const action = YAML.parse(readFileSync(join(actionDir, "action.yml"), "utf8")) as ActionFile;
  if (action.runs.using !== "composite")
    throw new Error(`action-local: runs.using is ${action.runs.using}, not composite`);
  const declared = action.inputs ?? {};
  for (const name of Object.keys(given))
    if (!(name in declared)) throw new Error(`action-local: the action has no input "${name}"`);
  const context: Record<string, string> = {};
  for (const [name, spec] of Object.entries(declared)) {
    const value = given[name] ?? spec.default ?? "";
    if (spec.required && value === "") throw new Error(`action-local: input "${name}" is required`);
    context[`inputs.${name}`] = value;
  }
  return { action, context };
}

export function runActionLocally(opts: LocalRunOptions): LocalRun {
  const { action, context } = loadAction(opts.actionDir, opts.inputs);
  Object.assign(context, {
    "github.action_path": opts.actionDir,
    "github.workspace": opts.workspace,
    "runner.temp": opts.runnerTemp,
  });
  const files = join(opts.runnerTemp, "_runner_file_commands");
  mkdirSync(files, { recursive: true });
  const githubPath = join(files, "path");
  const stepSummary = join(files, "step_summary");
  writeFileSync(githubPath, "");
  writeFileSync(stepSummary, "");
  const steps: StepOutcome[] = [];
  const finish = (code: number): LocalRun => {
    const outputs: Record<string, string> = {};
    // An output of a step that did not run is empty, as on GitHub.
    for (const [name, o] of Object.entries(action.outputs ?? {}))
      outputs[name] = o.value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => context[e] ?? "");
    return { code, steps, summary: readFileSync(stepSummary, "utf8"), outputs };
  };
  for (const [i, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${i + 1}`;
    if (step.uses !== undefined) {
      steps.push({ name, status: "skipped" });
      continue;
    }
    if (step.if !== undefined)
      throw new Error(`action-local: step "${name}" has an if:, which this runner does not evaluate`);
    if (step.shell !== "bash")
      throw new Error(`action-local: step "${name}" uses shell ${step.shell}; composite run steps here must say bash`);
    const extraPath = readFileSync(githubPath, "utf8").split("\n").filter(Boolean).reverse();
    const githubOutput = join(files, `output-${i + 1}`);
    writeFileSync(githubOutput, "");
    const env: NodeJS.ProcessEnv = {
      ...opts.env,
      GITHUB_ACTION_PATH: opts.actionDir,
      GITHUB_WORKSPACE: opts.workspace,
      RUNNER_TEMP: opts.runnerTemp,
      GITHUB_PATH: githubPath,
      GITHUB_OUTPUT: githubOutput,
      GITHUB_STEP_SUMMARY: stepSummary,
      PATH: [...extraPath, opts.env["PATH"] ?? ""].join(delimiter),
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(String(v), context);
    const cwd = resolve(opts.workspace, substitute(step["working-directory"] ?? ".", context));
    if (!existsSync(cwd)) throw new Error(`action-local: working-directory ${cwd} does not exist`);
    const script = join(files, `step-${i + 1}.sh`);
    writeFileSync(script, substitute(step.run ?? "", context));
    const t0 = performance.now();
    const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd,
      env,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const ms = Math.round(performance.now() - t0);
    const code = r.status ?? 1;
    const output = `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}`;
    if (step.id !== undefined) {
      for (const [k, v] of Object.entries(parseOutputFile(readFileSync(githubOutput, "utf8"))))
        context[`steps.${step.id}.outputs.${k}`] = v;
    }
    steps.push({ name, status: code === 0 ? "ok" : "failed", code, output, ms });
    if (code !== 0) return finish(code);
  }
  return finish(0);
}

// ---- `npm run action-local -- …`: the Action on this machine, as a workflow would run it -------------------------

const LOCAL_USAGE = `usage: npm run action-local -- --<input> <value> … [--workspace <dir>] [--runner-temp <dir>]

Runs action.yml's steps here, the way a GitHub runner would (setup-node and the cache are skipped: this machine's node
is used, and a second run with the same --runner-temp is a cache hit). Every --<input> is one of the action's inputs,
e.g.:
  npm run action-local -- --exec ./target/release/my-skill-driver --suite spec,security --profile decisions \\
    --args '--filter U0*' --json out/conformance.json
  --workspace <dir>     the caller's repository (default: where the command runs); relative inputs start here
  --runner-temp <dir>   the job's scratch directory (default: <tmp>/skill-action-local, kept for the next run)
Exit: 0 the run passed, 1 it failed (skill-conformance exited 1), 2 a usage error or a step failed before the run.`;

/** The command line's inputs, and where to run; a usage problem throws. */
export function parseLocalArgs(
  argv: string[],
  actionDir: string,
  cwd: string,
): { inputs: Record<string, string>; workspace: string; runnerTemp?: string; help?: true } {
  const declared = Object.keys(
    (YAML.parse(readFileSync(join(actionDir, "action.yml"), "utf8")) as ActionFile).inputs ?? {},
  );
  const inputs: Record<string, string> = {};
  let workspace = cwd;
  let runnerTemp: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === "--help" || flag === "-h") return { inputs, workspace, help: true };
    const eq = /^--([\w-]+)=(.*)$/s.exec(flag);
    const name = eq ? eq[1]! : flag.startsWith("--") ? flag.slice(2) : undefined;
    if (name === undefined) throw new Error(`action-local: ${flag} is not an option (--<input> <value>; --help)`);
    const value = eq ? eq[2]! : argv[++i];
    if (value === undefined) throw new Error(`action-local: --${name} needs a value`);
    if (name === "workspace") workspace = resolve(cwd, value);
    else if (name === "runner-temp") runnerTemp = resolve(cwd, value);
    else if (!declared.includes(name))
      throw new Error(`action-local: the action has no input "${name}" (its inputs: ${declared.join(", ")})`);
    else if (name in inputs) throw new Error(`action-local: --${name} is given twice`);
    else inputs[name] = value;
  }
  return { inputs, workspace, ...(runnerTemp ? { runnerTemp } : {}) };
}

/** The exit code of a local run: the run step's own 0/1/2; any earlier step failing is a set-up error, 2. */
export function localExitCode(run: LocalRun): number {
  if (run.code === 0) return 0;
  const failed = run.steps.find((s) => s.status === "failed");
  return failed?.name === "Run the conformance suite" && (run.code === 1 || run.code === 2) ? run.code : 2;
}

async function localMain(argv: string[]): Promise<number> {
  const { PACKAGE_ROOT, userCwd } = await import("../package-root.ts");
  const { tmpdir } = await import("node:os");
  let parsed;
  try {
    parsed = parseLocalArgs(argv, PACKAGE_ROOT, userCwd());
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  if (parsed.help) {
    console.log(LOCAL_USAGE);
    return 0;
  }
  const runnerTemp = parsed.runnerTemp ?? join(tmpdir(), "skill-action-local");
  mkdirSync(runnerTemp, { recursive: true });
  let run: LocalRun;
  try {
    run = runActionLocally({
      actionDir: PACKAGE_ROOT,
      inputs: parsed.inputs,
      workspace: parsed.workspace,
      runnerTemp,
      env: process.env,
    });
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  for (const s of run.steps) {
    console.log(`== ${s.name}: ${s.status}${s.ms !== undefined ? ` (${s.ms} ms)` : ""}`);
    if (s.output) process.stdout.write(s.output.endsWith("\n") ? s.output : `${s.output}\n`);
  }
  console.log("== outputs");
  for (const [k, v] of Object.entries(run.outputs)) if (v !== "") console.log(`${k}=${v}`);
  const summaryFile = join(runnerTemp, "job-summary.md");
  writeFileSync(summaryFile, run.summary);
  console.log(`== job summary: ${summaryFile}`);
  return localExitCode(run);
}

// Run as a script (npm run action-local: tsx runs this file), not when imported (pack-test, tests). By the script's
// name: no module but package-root.ts finds its place from its own file URL (test/package-root.test.ts).
if (process.argv[1] && /[\\/]action-local\.ts$/.test(process.argv[1])) {
  process.exitCode = await localMain(process.argv.slice(2));
}
