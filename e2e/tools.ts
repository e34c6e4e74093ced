// The agent's own tools besides `skill`: `bash` (a shell command in the workspace, with a timeout and an output cap)
// and `read` (a file, fenced to the workspace), plus the session permission policy every bash/read call passes
// (SK4: allow `git log`, deny `rm -rf`), decided on the parsed command line (shell.ts). Owns: TOOL_SPECS for bash/read,
// runBash, readFile, ToolPolicy, decide, commandsOf and the command predicates (isRmRf, isGitLog, isDestructive).
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, readSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ToolSpec } from "./providers/types.ts";
import { parseShell, type ShellWord } from "./shell.ts";
import type { BashRecord, ReadRecord } from "./transcript.ts";

export const BASH_TOOL: ToolSpec = {
  name: "bash",
  description:
    "Run a shell command with bash in the project workspace (the working directory). Returns the exit code and the " +
    "combined stdout/stderr. Every command passes the session's permission hook, which may deny it.",
  parameters: {
    type: "object",
    properties: { command: { type: "string", description: "The command line to run." } },
    required: ["command"],
  },
};

export const READ_TOOL: ToolSpec = {
  name: "read",
  description:
    "Read a text file (or list a directory). The path is absolute or relative to the working directory and must be " +
    "inside the workspace. Every read passes the session's permission hook.",
  parameters: {
    type: "object",
    properties: { path: { type: "string", description: "The file to read." } },
    required: ["path"],
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Permission policy

export interface PolicyRule {
  tool: "bash" | "read";
  /** What the rule matches, e.g. "git log", "rm -rf" — shown in the transcript and the denial message. */
  label: string;
  /** For bash: one command as it would run (wrappers such as sudo, env, xargs, bash -c unwrapped); for read: [path]. */
  match: (argv: ShellWord[]) => boolean;
  decision: "allow" | "deny";
}

/** Per command, the first matching rule decides, else `fallback`; a bash line is denied when any command it runs is. */
export interface ToolPolicy {
  rules: PolicyRule[];
  fallback: "allow" | "deny";
}

export const ALLOW_ALL: ToolPolicy = { rules: [], fallback: "allow" };

/**
 * The policy's answer for one call. A bash line is parsed (shell.ts) and every command it could run is judged, in any
 * branch or nesting; a line that cannot be parsed, or that runs a program only known at run time, is denied when the
 * policy has bash rules, because nobody can say what it would run.
 */
export function decide(
  policy: ToolPolicy,
  tool: "bash" | "read",
  input: string,
  scripts?: ScriptReader,
): { decision: "allow" | "deny"; rule: string } {
  const rules = policy.rules.filter((r) => r.tool === tool);
  if (rules.length === 0) return { decision: policy.fallback, rule: `${policy.fallback} by default` };
  let argvs: ShellWord[][];
  if (tool === "read") argvs = [[{ text: input, dynamic: false }]];
  else {
    const cmds = commandsOf(input, scripts);
    if (!cmds.ok) return { decision: "deny", rule: `deny bash(${cmds.reason})` };
    argvs = cmds.commands;
  }
  let allowed: PolicyRule | undefined;
  for (const argv of argvs) {
    const r = rules.find((x) => x.match(argv));
    if (r?.decision === "deny") return { decision: "deny", rule: ruleText(r) };
    if (r?.decision === "allow") allowed ??= r;
    if (!r && policy.fallback === "deny") return { decision: "deny", rule: "deny by default" };
  }
  if (allowed) return { decision: "allow", rule: ruleText(allowed) };
  return { decision: policy.fallback, rule: `${policy.fallback} by default` };
}

/** How a scenario rule's decision is written in the transcript and the denial message: `deny bash(rm -rf)`. */
export const ruleText = (r: Pick<PolicyRule, "decision" | "tool" | "label">): string =>
  `${r.decision} ${r.tool}(${r.label})`;

class Opaque extends Error {}

/**
 * The text of a file a command line would run as a script (`bash x.sh`, `. x.sh`, `./x.sh`), as it is when the
 * policy decides; undefined when there is no such file. Without a reader, script files are not looked into.
 */
export type ScriptReader = (path: string) => string | undefined;

/** Every command a bash line could run, wrappers unwrapped and nested command strings parsed; or why that is unknowable. */
export function commandsOf(
  line: string,
  scripts?: ScriptReader,
): { ok: true; commands: ShellWord[][] } | { ok: false; reason: string } {
  try {
    return { ok: true, commands: expand(line, 0, scripts) };
  } catch (err) {
    if (err instanceof Opaque) return { ok: false, reason: err.message };
    throw err;
  }
}

function expand(line: string, depth: number, scripts: ScriptReader | undefined): ShellWord[][] {
  if (depth > 6) throw new Opaque("command strings nested too deeply");
  const parsed = parseShell(line);
  if (!parsed.ok) throw new Opaque(`unparseable: ${parsed.reason}`);
  return parsed.commands.flatMap((c) => unwrap(c.words, depth, scripts));
}

const SHELL_SHEBANG = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:bash|sh|dash|zsh|ksh|mksh|ash)\b/;

/**
 * A script file the line runs: its commands are what runs, so they are judged too (a `cleanup.sh` holding rm -rf is
 * an rm -rf). A file the policy cannot read (not there yet: written by the same line) is unknowable. A file run
 * directly counts only when it is a shell script (a shell shebang, or none and text); binaries and other interpreters
 * are judged by their command line alone.
 */
function scriptCommands(
  path: ShellWord,
  depth: number,
  scripts: ScriptReader | undefined,
  direct: boolean,
): ShellWord[][] {
  if (!scripts) return [];
  if (path.dynamic) throw new Opaque(`a script path only known at run time: ${path.text}`);
  const text = scripts(path.text);
  if (text === undefined) throw new Opaque(`runs ${path.text}, a script the policy cannot read`);
  if (direct && (text.includes("\u0000") || (text.startsWith("#!") && !SHELL_SHEBANG.test(text)))) return [];
  return expand(text, depth + 1, scripts); // a shebang line is a comment to the parser
}

const basename = (p: string) => p.replace(/^.*\//, "");
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** Wrappers that run the rest of their words as a command, with the options that take a separate value. */
const WRAPPERS: Record<string, string[]> = {
  sudo: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"],
  doas: ["-u", "-C"],
  command: [],
  builtin: [],
  exec: ["-a"],
  nohup: [],
  time: ["-f", "-o"],
  nice: ["-n"],
  ionice: ["-c", "-n", "-p"],
  setsid: [],
  stdbuf: ["-i", "-o", "-e"],
  chronic: [],
  unbuffer: [],
  timeout: ["-s", "-k", "--signal", "--kill-after"],
  xargs: [
    "-I",
    "-L",
    "-l",
    "-n",
    "-P",
    "-d",
    "-E",
    "-e",
    "-s",
    "-a",
    "--arg-file",
    "--delimiter",
    "--max-args",
    "--max-procs",
    "--max-lines",
    "--replace",
    "--eof",
    "--max-chars",
  ],
  env: ["-u", "--unset", "-C", "--chdir"],
};
const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox"]);

/** Interpreters whose inline code (-c, -e …) can run a shell command the line does not show. */
const INTERPRETERS = /^(python[0-9.]*|perl|ruby|node|nodejs|deno|bun|php)$/;
const INLINE_CODE = new Set(["-c", "-e", "-E", "--eval", "-r", "-p", "--print"]);
const SHELLS_OUT =
  /\bsystem\s*\(|os\.(system|popen|exec\w*|spawn\w*)|subprocess|popen|\bexec\w*\s*\(|spawn|child_process|shell_exec|passthru|\bqx\b|`[^`]*`|Deno\.(run|Command)|Bun\.(spawn|\$)/;

function unwrap(words: ShellWord[], depth: number, scripts: ScriptReader | undefined): ShellWord[][] {
  let w = words;
  let fromStdin = false; // under xargs: more arguments (or a whole command string) arrive on stdin
  for (;;) {
    while (w.length && !w[0]!.dynamic && ASSIGNMENT.test(w[0]!.text)) w = w.slice(1);
    if (!w.length) return [];
    const prog = w[0]!;
    if (prog.dynamic) throw new Opaque(`the program ${prog.text} is only known at run time`);
    const name = basename(prog.text);
    if ((name === "source" || name === ".") && w[1]) return [w, ...scriptCommands(w[1], depth, scripts, false)];
    if (name === "busybox" && w[1]) {
      w = w.slice(1);
      continue;
    }
    const takesValue = WRAPPERS[name];
    if (takesValue) {
      let i = 1;
      while (i < w.length) {
        const t = w[i]!.text;
        if (t === "--") {
          i++;
          break;
        }
        if (name === "env" && (t === "-S" || t === "--split-string"))
          return nested(w[i + 1], w.slice(i + 2), depth, scripts);
        if (name === "env" && !w[i]!.dynamic && ASSIGNMENT.test(t)) i++;
        else if (t.startsWith("-") && t !== "-") i += takesValue.includes(t) ? 2 : 1;
        else if (name === "env" && t === "-") i++;
        else break;
      }
      if (name === "timeout" && i < w.length) i++; // the duration
      const rest = w.slice(i);
      if (name === "xargs") fromStdin = true;
      if (rest.length === 0) return name === "xargs" ? [[{ text: "echo", dynamic: false }]] : [];
      w = rest;
      continue;
    }
    if (SHELLS.has(name)) {
      let i = 1;
      let inline = false;
      for (; i < w.length && w[i]!.text.startsWith("-"); i++) {
        const t = w[i]!.text;
        if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(t)) inline = true;
        if ((t === "-o" || t === "+o" || t === "-O") && i + 1 < w.length) i++;
      }
      if (fromStdin) throw new Opaque(`${name} under xargs runs commands that arrive on stdin`);
      // Without -c: a script file operand runs that file (its contents are not on the line); no operand, `-s` or `-`
      // reads the commands from stdin (a pipe, a heredoc), which the policy cannot see.
      if (!inline) {
        const opts = w.slice(1, i).map((x) => x.text);
        if (i >= w.length || w[i]!.text === "-" || opts.some((o) => /^-[a-zA-Z]*s[a-zA-Z]*$/.test(o)))
          throw new Opaque(`${name} reading its commands from stdin`);
        return [w, ...scriptCommands(w[i]!, depth, scripts, false)];
      }
      return nested(w[i], [], depth, scripts);
    }
    if (INTERPRETERS.test(name)) {
      const at = w.findIndex((x, j) => j > 0 && INLINE_CODE.has(x.text));
      const code = at === -1 ? undefined : w[at + 1];
      if (code && (code.dynamic || SHELLS_OUT.test(code.text)))
        throw new Opaque(`${name} inline code that runs other commands`);
    }
    if (name === "eval") {
      if (w.slice(1).some((x) => x.dynamic)) throw new Opaque("eval of a string only known at run time");
      return expand(
        w
          .slice(1)
          .map((x) => x.text)
          .join(" "),
        depth + 1,
        scripts,
      );
    }
    if (name === "find") {
      const out: ShellWord[][] = [w];
      for (let i = 1; i < w.length; i++) {
        if (!["-exec", "-execdir", "-ok", "-okdir"].includes(w[i]!.text)) continue;
        const endAt = w.findIndex((x, j) => j > i && (x.text === ";" || x.text === "+"));
        const sub = w.slice(i + 1, endAt === -1 ? w.length : endAt);
        out.push(...unwrap(sub, depth + 1, scripts));
        i = endAt === -1 ? w.length : endAt;
      }
      return out;
    }
    // Under xargs the command gets more arguments from stdin: flags such as -rf may be among them.
    const argv = fromStdin ? [...w, { text: "<stdin>", dynamic: true }] : w;
    // A program named by its path may be a script in the workspace (`./cleanup.sh`): what it runs is judged too.
    return prog.text.includes("/") ? [argv, ...scriptCommands(prog, depth, scripts, true)] : [argv];
  }
}

function nested(
  script: ShellWord | undefined,
  _args: ShellWord[],
  depth: number,
  scripts: ScriptReader | undefined,
): ShellWord[][] {
  if (!script) throw new Opaque("a shell -c without a command string");
  if (script.dynamic) throw new Opaque(`a command string only known at run time: ${script.text}`);
  return expand(script.text, depth + 1, scripts);
}

/** Long option `arg` abbreviates `full` (GNU getopt accepts any unambiguous prefix; rm's are unique from 3 chars). */
const abbreviates = (arg: string, full: string) => arg.length >= 3 && full.startsWith(arg);

/** `rm` with both a recursive and a force flag (rm -rf, -fR, -r -f, --recursive --force, --rec --forc …). */
export function isRmRf(argv: ShellWord[]): boolean {
  if (!argv.length || basename(argv[0]!.text) !== "rm") return false;
  let r = false;
  let f = false;
  for (const a of argv.slice(1)) {
    if (a.text === "--") break;
    if (a.dynamic) return true; // could expand to the flags
    if (a.text.startsWith("--")) {
      if (abbreviates(a.text, "--recursive")) r = true;
      if (abbreviates(a.text, "--force")) f = true;
    } else if (/^-[a-zA-Z]+$/.test(a.text)) {
      if (/[rR]/.test(a.text)) r = true;
      if (a.text.includes("f")) f = true;
    }
  }
  return r && f;
}

/** Git's global options that take a separate value. */
const GIT_VALUE_OPTS = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
  "--super-prefix",
]);

/** The git subcommand of a command (`git -C dir --no-pager log` → log), if it is git. */
export function gitSubcommand(argv: ShellWord[]): string | undefined {
  if (!argv.length || basename(argv[0]!.text) !== "git") return undefined;
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i]!.text;
    if (GIT_VALUE_OPTS.has(t)) i++;
    else if (!t.startsWith("-")) return t;
  }
  return undefined;
}

export const isGitLog = (argv: ShellWord[]): boolean => gitSubcommand(argv) === "log";

/** Deletes or moves away files by any route: rm, rmdir, unlink, shred, mv, find -delete, git clean / rm, inline scripts. */
export function isDestructive(argv: ShellWord[]): boolean {
  if (!argv.length) return false;
  const name = basename(argv[0]!.text);
  const words = argv.map((a) => a.text);
  if (["rm", "rmdir", "unlink", "shred", "mv", "truncate"].includes(name)) return true;
  if (name === "find" && words.includes("-delete")) return true;
  if (gitSubcommand(argv) === "clean" || gitSubcommand(argv) === "rm") return true;
  if (/^(python[0-9.]*|node|perl|ruby|deno|bun|php)$/.test(name)) {
    return /rmtree|os\.remove|os\.unlink|os\.rmdir|\.unlink|rmSync|rmdirSync|unlinkSync|fs\.rm|unlink\s*\(|rmdir\s*\(|FileUtils\.rm|Path\(.*\)\.(unlink|rmdir)/.test(
      words.join(" "),
    );
  }
  return false;
}

/** Any command of a bash line matches `pred`; an unparseable line matches nothing. */
export function lineRuns(line: string, pred: (argv: ShellWord[]) => boolean): boolean {
  const c = commandsOf(line);
  return c.ok && c.commands.some(pred);
}

// ---------------------------------------------------------------------------------------------------------------
// bash

export interface BashOptions {
  cwd: string;
  /** HOME for the command: the workspace, so nothing reads the operator's dotfiles. */
  home: string;
  timeoutMs: number;
  outputCap: number;
}

export function runBash(command: string, opts: BashOptions): Promise<BashRecord> {
  return new Promise((resolvePromise) => {
    const child = spawn("bash", ["-c", command], {
      cwd: opts.cwd,
      detached: true, // own process group, so a timeout kills the whole pipeline
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
        HOME: opts.home,
        LANG: "C.UTF-8",
        TERM: "dumb",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_PAGER: "cat",
        PAGER: "cat",
      },
    });
    let output = "";
    let truncated = false;
    let timedOut = false;
    const take = (chunk: Buffer) => {
      if (truncated) return;
      output += chunk.toString("utf8");
      if (output.length > opts.outputCap) {
        output = output.slice(0, opts.outputCap);
        truncated = true;
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const finish = (exitCode: number | null) => {
      clearTimeout(timer);
      killGroup(); // reap stragglers left in the group (background jobs)
      resolvePromise({ command, exitCode, timedOut, truncated, output });
    };
    child.on("error", (err) => {
      output += `\n[could not start bash: ${err.message}]`;
      finish(null);
    });
    child.on("close", (code, signal) => finish(code ?? (signal ? 128 : null)));
  });
}

export function renderBash(r: BashRecord, timeoutMs: number): string {
  const notes: string[] = [];
  if (r.timedOut) notes.push(`[timed out after ${timeoutMs} ms and was killed]`);
  if (r.truncated) notes.push(`[output truncated]`);
  return [`exit code: ${r.exitCode ?? "none"}`, r.output.replace(/\n$/, ""), ...notes]
    .filter((s) => s !== "")
    .join("\n");
}

// ---------------------------------------------------------------------------------------------------------------
// read

export function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith(".." + sep) && rel !== ".." && !isAbsolute(rel));
}

/** The longest script file the policy judges; a longer one is unreadable to it, so denied (never judged on a prefix). */
const SCRIPT_CAP = 65_536;

/** The policy's ScriptReader for a bash tool working in `cwd`: a script's text, or undefined when missing or too long. */
export function scriptReader(cwd: string): ScriptReader {
  return (path) => {
    let fd: number | undefined;
    try {
      fd = openSync(resolve(cwd, path), "r");
      const buf = Buffer.alloc(SCRIPT_CAP + 1);
      const n = readSync(fd, buf, 0, buf.length, 0);
      return n > SCRIPT_CAP ? undefined : buf.subarray(0, n).toString("utf8");
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
}

/** Reads a file for the model: absolute or cwd-relative, real path inside `root`, capped. */
export function readFile(path: string, cwd: string, root: string, cap: number): { record: ReadRecord; output: string } {
  const resolved = resolve(cwd, path);
  const fail = (error: string) => ({ record: { path, resolved, ok: false, error }, output: `Error: ${error}` });
  let real: string;
  try {
    real = realpathSync(resolved);
  } catch {
    return inside(root, resolved) ? fail(`no such file: ${path}`) : fail(`${path} is outside the workspace`);
  }
  if (!inside(root, real)) return fail(`${path} is outside the workspace`);
  try {
    if (statSync(real).isDirectory()) {
      const names = readdirSync(real, { withFileTypes: true }).map((d) => (d.isDirectory() ? d.name + "/" : d.name));
      return { record: { path, resolved, ok: true }, output: names.sort().join("\n") };
    }
    let text = readFileSync(real, "utf8");
    if (text.length > cap) text = text.slice(0, cap) + `\n[truncated at ${cap} characters]`;
    return { record: { path, resolved, ok: true }, output: text };
  } catch (error) {
    return fail(`cannot read ${path}: ${(error as Error).message}`);
  }
}
