// The agent's own tools besides `skill`: `bash` (a shell command in the workspace, with a timeout and an output cap)
// and `read` (a file, fenced to the workspace), plus the session permission policy every bash/read call passes
// (SK4: allow `git log`, deny `rm -rf`). Owns: TOOL_SPECS for bash/read, runBash, readFile, ToolPolicy, decide.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ToolSpec } from "./providers/types.ts";
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
  match: (input: string) => boolean;
  decision: "allow" | "deny";
}

/** Rules are tried in order; the first match decides; otherwise `fallback`. */
export interface ToolPolicy {
  rules: PolicyRule[];
  fallback: "allow" | "deny";
}

export const ALLOW_ALL: ToolPolicy = { rules: [], fallback: "allow" };

export function decide(policy: ToolPolicy, tool: "bash" | "read", input: string): { decision: "allow" | "deny"; rule: string } {
  for (const r of policy.rules) if (r.tool === tool && r.match(input)) return { decision: r.decision, rule: `${r.decision} ${tool}(${r.label})` };
  return { decision: policy.fallback, rule: `${policy.fallback} by default` };
}

/** Splits a command line into simple commands on ; & | && || and newlines (quotes respected, roughly). */
export function simpleCommands(line: string): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  let word = "";
  let quote: string | null = null;
  const flushWord = () => {
    if (word !== "") cur.push(word);
    word = "";
  };
  const flushCmd = () => {
    flushWord();
    if (cur.length) out.push(cur);
    cur = [];
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "\\" && i + 1 < line.length) word += line[++i];
    else if (/\s/.test(ch) && ch !== "\n") flushWord();
    else if (ch === ";" || ch === "&" || ch === "|" || ch === "\n" || ch === "(" || ch === ")" || ch === "`") flushCmd();
    else word += ch;
  }
  flushCmd();
  return out;
}

const WRAPPERS = new Set(["sudo", "command", "exec", "env", "nohup", "time", "xargs", "builtin"]);

/** The words of each simple command with leading wrappers (sudo, env X=1, xargs …) and assignments stripped. */
function programs(line: string): string[][] {
  return simpleCommands(line).map((words) => {
    let i = 0;
    while (i < words.length && (WRAPPERS.has(words[i]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!) || (i > 0 && words[i]!.startsWith("-") && WRAPPERS.has(words[i - 1]!)))) i++;
    return words.slice(i).map((w, j) => (j === 0 ? w.replace(/^.*\//, "") : w));
  });
}

/** True when any simple command is `rm` with both a recursive and a force flag (rm -rf, rm -r -f, rm --recursive --force …). */
export function isRmRf(line: string): boolean {
  return programs(line).some((w) => {
    if (w[0] !== "rm") return false;
    let r = false;
    let f = false;
    for (const a of w.slice(1)) {
      if (a === "--") break;
      if (a === "--recursive") r = true;
      else if (a === "--force") f = true;
      else if (/^-[a-zA-Z]+$/.test(a)) {
        if (/[rR]/.test(a)) r = true;
        if (a.includes("f")) f = true;
      }
    }
    return r && f;
  });
}

/** True when some simple command is `git log …`. */
export function isGitLog(line: string): boolean {
  return programs(line).some((w) => w[0] === "git" && w.slice(1).find((a) => !a.startsWith("-")) === "log");
}

/** Commands that delete files by any route: rm, rmdir, unlink, find -delete, git clean, shutil.rmtree, fs.rm… */
export function isDestructive(line: string): boolean {
  if (/shutil\.rmtree|os\.remove|os\.unlink|fs\.rm|rmSync|unlinkSync|File\.delete|-exec\s+rm\b/.test(line)) return true;
  return programs(line).some(
    (w) =>
      w[0] === "rm" ||
      w[0] === "rmdir" ||
      w[0] === "unlink" ||
      w[0] === "shred" ||
      (w[0] === "find" && w.includes("-delete")) ||
      (w[0] === "git" && (w.includes("clean") || (w.includes("rm") && w.includes("-r")))),
  );
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
  return [`exit code: ${r.exitCode ?? "none"}`, r.output.replace(/\n$/, ""), ...notes].filter((s) => s !== "").join("\n");
}

// ---------------------------------------------------------------------------------------------------------------
// read

export function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith(".." + sep) && rel !== ".." && !isAbsolute(rel));
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
