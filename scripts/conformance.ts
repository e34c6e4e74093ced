#!/usr/bin/env node
// `npm run conformance` (installed: `skill-conformance`): the kit's command line. Thin: parse flags, open the implementation (in-process
// module or subprocess), call the runner / parity / smoke modules, write the reports, map to an exit code.
//   exit 0  every case passed or is a listed expected failure (parity: no difference; smoke: every step ok)
//   exit 1  a case failed, errored or was skipped, an expected failure is stale, or parity found a difference
//   exit 2  usage error, or the kit itself could not run (unreadable file, no cases)
import { mkdirSync, readFileSync, realpathSync, writeFileSync, existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PACKAGE_ROOT, codePath, userCwd } from "../package-root.ts";
import { loadModule } from "../conformance/driver/in-process.ts";
import { spawnImplementation } from "../conformance/driver/subprocess.ts";
import type { Implementation } from "../schemas/implementation.ts";
import { DEFAULT_PARITY_LEVEL, PARITY_LEVELS, formatCaseParity, formatParitySummary, runParity, type ParityLevel } from "../conformance/parity.ts";
import { formatParityFuzz, runParityFuzz } from "../conformance/parity-fuzz.ts";
import { renderBadge } from "../conformance/report/badge.ts";
import { formatCase, formatHeader, formatSummary } from "../conformance/report/console.ts";
import { renderJson } from "../conformance/report/json.ts";
import { renderJunit } from "../conformance/report/junit.ts";
import { renderMarkdown } from "../conformance/report/markdown.ts";
import { loadCases, runSuite } from "../conformance/runner/index.ts";
import type { RunReport } from "../conformance/runner/types.ts";
import { formatSmokeStep, smoke } from "../conformance/smoke.ts";

const DEFAULT_MODULE = codePath("reference/index");

const USAGE = `usage: skill-conformance [target] [options]        (in a clone of the kit: npm run conformance -- [target] [options])

target (default: the reference, in-process)
  --driver <module>         a TS/JS module exporting createSession (and implementationInfo)
  --exec "<command line>"   any executable speaking the JSON-RPC protocol (conformance/PROTOCOL.md)

options
  --suite <name>            case suite: spec (default), security, contract, …, or all
  --filter <ids|globs>      comma-separated case ids or globs (U01,U1*)
  --timeout <ms>            per-request / per-case deadline
  --expected-failures <f>   ids expected to fail, one per line, # comments
  --json <file>  --junit <file>  --markdown <file>  --badge <file>
  --parity                  with two targets (--exec A --exec B, or --driver/--exec): compare results per case
  --parity-level <level>    exact (default: byte for byte) or semantic (prose compared for the facts it carries)
  --fuzz <count>            with --parity: instead of a suite, <count> generated frontmatters (conformance/parity-fuzz.ts),
                            each difference sorted as the contract allows it (R30, R35) or not; one target means A = the reference
  --seed <n>                the fuzz's seed (default: random; printed, so a run can be repeated)
  --smoke                   handshake, one session, one call, clean shutdown; each step ok/failed
  --help`;

type Target = { kind: "module"; spec: string } | { kind: "exec"; command: string };

export class UsageError extends Error {}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

function parse(argv: string[]) {
  const { values, tokens } = parseArgs({
    args: argv,
    allowPositionals: false,
    tokens: true,
    options: {
      driver: { type: "string", multiple: true },
      exec: { type: "string", multiple: true },
      suite: { type: "string", default: "spec" },
      filter: { type: "string" },
      timeout: { type: "string" },
      "expected-failures": { type: "string" },
      json: { type: "string" },
      junit: { type: "string" },
      markdown: { type: "string" },
      badge: { type: "string" },
      parity: { type: "boolean", default: false },
      fuzz: { type: "string" },
      seed: { type: "string" },
      "parity-level": { type: "string", default: DEFAULT_PARITY_LEVEL },
      smoke: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  // Targets in the order given, so that --parity --exec A --exec B means A then B.
  const targets: Target[] = [];
  for (const t of tokens ?? []) {
    if (t.kind !== "option" || t.value === undefined) continue;
    if (t.name === "driver") targets.push({ kind: "module", spec: t.value });
    if (t.name === "exec") targets.push({ kind: "exec", command: t.value });
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout wants a positive number of ms, not ${values.timeout}`);
  }
  const level = values["parity-level"] as ParityLevel;
  if (!PARITY_LEVELS.includes(level)) throw new UsageError(`--parity-level wants ${PARITY_LEVELS.join(" or ")}, not ${values["parity-level"]}`);
  return { values, targets, timeoutMs, level };
}

/** Where relative paths on the command line start (package-root.ts says why not simply cwd). */
const USER_CWD = userCwd();

/** Module specifiers that name files are resolved against the user's directory, then the repo (for the default). */
function moduleSpecifier(spec: string): string {
  if (isAbsolute(spec)) return spec;
  const fromCwd = resolve(USER_CWD, spec);
  if (existsSync(fromCwd)) return fromCwd;
  const fromRepo = resolve(PACKAGE_ROOT, spec);
  if (existsSync(fromRepo)) return fromRepo;
  return spec.startsWith(".") ? fromCwd : spec; // a missing path is reported where the user meant it; else a package name
}

/** A word for a POSIX shell: as is when plain, else single-quoted. */
function shellWord(s: string): string {
  return /^[\w./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command that reruns this target (the runner appends --suite and --filter per failing case). */
function rerunCommand(t: Target, timeoutMs: number | undefined): string {
  const cli = process.env.npm_lifecycle_event === "conformance" ? "npm run conformance --" : "skill-conformance";
  const target = t.kind === "exec" ? ` --exec ${shellWord(t.command)}` : t.spec === DEFAULT_MODULE ? "" : ` --driver ${shellWord(t.spec)}`;
  return `${cli}${target}${timeoutMs !== undefined ? ` --timeout ${timeoutMs}` : ""}`;
}

function opener(t: Target, timeoutMs: number | undefined): { open: () => Promise<Implementation>; label: string } {
  if (t.kind === "module") {
    const spec = moduleSpecifier(t.spec);
    return { open: () => loadModule(spec), label: t.spec === DEFAULT_MODULE ? "reference (in-process)" : t.spec };
  }
  return {
    open: () => spawnImplementation(t.command, { label: t.command, cwd: USER_CWD, ...(timeoutMs !== undefined ? { requestTimeoutMs: timeoutMs } : {}) }),
    label: t.command,
  };
}

/** One id per line; `#` starts a comment; blank lines ignored. */
export function parseExpectedFailures(text: string): Set<string> {
  const ids = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    if (line) ids.add(line);
  }
  return ids;
}

function writeOut(file: string, text: string): void {
  const path = resolve(USER_CWD, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Exit code of a run, and the lines explaining it. Stale expected failures make it non-zero. */
export function verdict(report: RunReport, expected: ReadonlySet<string>, filtered: boolean): { code: 0 | 1; notes: string[] } {
  const notes: string[] = [];
  const byId = new Map(report.cases.map((c) => [c.id, c]));
  let code: 0 | 1 = 0;
  for (const id of expected) {
    const c = byId.get(id);
    if (c?.status === "passed") {
      notes.push(`stale expected failure: ${id} passed; remove it from the expected-failures file`);
      code = 1;
    } else if (!c && !filtered) {
      notes.push(`stale expected failure: ${id} is not a case of suite "${report.suite}"`);
      code = 1;
    }
  }
  for (const c of report.cases) {
    if (c.status === "passed" || c.status === "expected_failure") continue;
    // A declared non-support the user has accepted: listed skips do not fail the run (errors always do).
    if (c.status === "skipped" && expected.has(c.id)) {
      notes.push(`accepted skip: ${c.id} (listed in the expected-failures file)`);
      continue;
    }
    code = 1;
  }
  return { code, notes };
}

export async function main(argv: string[], io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  const { values, timeoutMs } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const targets: Target[] = parsed.targets.length ? parsed.targets : [{ kind: "module", spec: DEFAULT_MODULE }];

  if (values.smoke) {
    if (targets.length !== 1) return usage(io, "--smoke takes one target");
    const t = opener(targets[0]!, timeoutMs);
    io.out(`smoke: ${t.label}`);
    const steps = await smoke(t.open, (s) => io.out(formatSmokeStep(s)));
    const ok = steps.every((s) => s.status === "ok");
    io.out(ok ? "smoke: ok" : "smoke: FAILED");
    return ok ? 0 : 1;
  }

  if (values.fuzz !== undefined || values.seed !== undefined) return fuzz(values, parsed.targets, timeoutMs, io, parsed.level);

  let cases;
  try {
    cases = loadCases(values.suite, values.filter);
  } catch (err) {
    io.err(`cannot load cases: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  if (!cases.length) {
    io.err(`no cases in suite "${values.suite}"${values.filter ? ` match --filter ${values.filter}` : ""}`);
    return 2;
  }

  if (values.parity) {
    if (targets.length !== 2) return usage(io, "--parity compares exactly two targets (--exec A --exec B, or --driver/--exec)");
    const a = opener(targets[0]!, timeoutMs);
    const b = opener(targets[1]!, timeoutMs);
    io.out(`parity (${parsed.level}): A = ${a.label}\n        B = ${b.label}\n`);
    const report = await runParity(a, b, cases, {
      suite: values.suite,
      level: parsed.level,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      onCase: (c) => io.out(formatCaseParity(c)),
    });
    io.out("\n" + formatParitySummary(report));
    return report.differing === 0 ? 0 : 1;
  }

  if (targets.length !== 1) return usage(io, "give one target (several only with --parity)");
  let expected = new Set<string>();
  if (values["expected-failures"]) {
    try {
      expected = parseExpectedFailures(readFileSync(resolve(USER_CWD, values["expected-failures"]), "utf8"));
    } catch (err) {
      io.err(`cannot read --expected-failures: ${err instanceof Error ? err.message : String(err)}`);
      return 2;
    }
  }
  const t = opener(targets[0]!, timeoutMs);
  if (targets[0]!.kind === "module") {
    // A module that cannot be loaded is a usage problem, not 30 errored cases.
    try {
      await (await t.open()).dispose();
    } catch (err) {
      io.err(`cannot load --driver ${t.label}: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
      return 2;
    }
  }
  let headerShown = false;
  const report = await runSuite(t.open, cases, {
    expectedFailures: expected,
    driverLabel: t.label,
    suite: values.suite,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    rerun: rerunCommand(targets[0]!, timeoutMs),
    // A dead driver: one line (and its stderr tail when the reason does not already say it), not one block per case.
    onAbort: (a) => {
      io.err(`run ended at ${a.at}: ${a.reason} (after ${a.after_ms} ms); ${a.not_run} case${a.not_run === 1 ? "" : "s"} not run`);
      const tail = a.stderr?.trim();
      if (tail && !a.reason.includes(tail.split("\n").pop()!)) io.err(tail.split("\n").map((l) => `  | ${l}`).join("\n"));
    },
    onResult: (r) => {
      if (!headerShown) {
        headerShown = true;
        io.out(`skill-tool conformance, suite "${values.suite}", ${cases.length} case${cases.length === 1 ? "" : "s"}, driver ${t.label}\n`);
      }
      io.out(formatCase(r));
    },
  });
  if (!headerShown) io.out(formatHeader(report));
  io.out("");
  io.out(`implementation: ${report.implementation.name} ${report.implementation.version} (${report.implementation.language})`);
  io.out(formatSummary(report.summary));

  if (values.json) writeOut(values.json, renderJson(report));
  if (values.junit) writeOut(values.junit, renderJunit(report));
  if (values.markdown) writeOut(values.markdown, renderMarkdown(report));
  if (values.badge) writeOut(values.badge, renderBadge(report));

  const { code, notes } = verdict(report, expected, values.filter !== undefined);
  for (const n of notes) io.err(n);
  return code;
}

/** --parity --fuzz N [--seed S]: the frontmatter parity fuzz; one target is compared with the reference in-process. */
async function fuzz(values: ReturnType<typeof parse>["values"], given: Target[], timeoutMs: number | undefined, io: CliIo, level: ParityLevel): Promise<number> {
  if (!values.parity) return usage(io, "--fuzz and --seed go with --parity");
  const count = Number(values.fuzz ?? 1000);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) return usage(io, "--fuzz wants a count ≥ 1 and --seed an integer");
  if (given.length < 1 || given.length > 2) return usage(io, "--parity --fuzz compares one target with the reference, or two targets");
  const targets: Target[] = given.length === 1 ? [{ kind: "module", spec: DEFAULT_MODULE }, given[0]!] : given;
  const a = opener(targets[0]!, timeoutMs);
  const b = opener(targets[1]!, timeoutMs);
  io.out(`parity fuzz (${level}): ${count} frontmatters, seed ${seed}\n  A = ${a.label}\n  B = ${b.label}\n`);
  const report = await runParityFuzz(a, b, { count, seed, level, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  for (const line of formatParityFuzz(report, { a: a.label, b: b.label })) io.out(line);
  if (values.json) writeOut(values.json, `${JSON.stringify(report, null, 2)}\n`);
  return report.ok ? 0 : 1;
}

function usage(io: CliIo, message: string): 2 {
  io.err(`${message}\n\n${USAGE}`);
  return 2;
}

// Installed, argv[1] is the bin symlink in node_modules/.bin: compare real paths.
if (process.argv[1] && existsSync(process.argv[1]) && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.exitCode = 2;
    },
  );
}
