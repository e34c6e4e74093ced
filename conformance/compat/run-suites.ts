// Owns running the kit's own command line on one target: `scripts/conformance.ts --suite all
// [--profile P] --json <file>` in a child process, exactly as a user would, and reading the JSON report
// back. Also installs a harness folder (npm ci) and asks the command line which options it has.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ReportLike } from "./cells.ts";
import type { Target } from "./targets.ts";

export interface SuiteRun {
  report?: ReportLike & { implementation?: { name?: string; version?: string; language?: string } };
  exit: number | null;
  /** Why there is no report (the CLI's own words, its last stderr lines). */
  reason?: string;
}

/** The line the CLI ends with when work an implementation left running held its process after the reports were
 *  written, and it killed itself (scripts/conformance.ts): the run's own exit code follows. */
export const FORCED_EXIT =
  "skill-conformance: work an implementation left running held the process; the run's exit code:";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const tail = (s: string, n = 600) => (s.length > n ? `…${s.slice(-n)}` : s).trim();

/** The kit's CLI under node + tsx, from the repo root (no npm in between: one process, its exit code). */
export function cliArgs(root: string, args: string[]): string[] {
  return ["--import", "tsx", join(root, "scripts", "conformance.ts"), ...args];
}

/** Whether this kit's conformance command has --profile (issue 19 item 4). */
export function supportsProfiles(root: string): boolean {
  const r = spawnSync(process.execPath, cliArgs(root, ["--help"]), { cwd: root, encoding: "utf8", timeout: 60_000 });
  return /--profile\b/.test(`${r.stdout}${r.stderr}`);
}

/** The default cap on one target's whole run. */
export const RUN_CAP_MS = 60 * 60_000;

/** `filter`: only these case ids (a rerun of a load-dependent case); `jobs`: cases at once (the CLI's --jobs). */
export function runSuites(
  root: string,
  t: Target,
  profile: string | undefined,
  jsonFile: string,
  // A run cannot hang on a case (each has its deadline) nor after its reports (FORCED_EXIT): the cap only stops a
  // runaway. 15 min cut off an agent CLI's whole run on a loaded machine (qwen-code: 112 CLI start-ups), so 60.
  timeoutMs = RUN_CAP_MS,
  filter?: string[],
  jobs = 1,
): Promise<SuiteRun> {
  const target =
    t.kind === "reference" ? ["--reference"] : t.kind === "module" ? ["--driver", t.spec] : ["--exec", t.spec];
  const args = cliArgs(root, [
    "--suite",
    "all",
    ...target,
    ...(profile ? ["--profile", profile] : []),
    ...(t.args ?? []),
    ...(filter?.length ? ["--filter", filter.join(",")] : []),
    // A folder whose package.json args name their own --jobs (a harness that mostly waits) keeps them.
    ...(jobs > 1 && !t.args?.includes("--jobs") ? ["--jobs", String(jobs)] : []),
    "--json",
    jsonFile,
  ]);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, INIT_CWD: root },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString("utf8")).slice(-4096)));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (exit, signal) => {
      clearTimeout(timer);
      // Ended by itself after its reports were written (scripts/conformance.ts FORCED_EXIT): the exit code it said.
      const forced = signal === "SIGKILL" ? new RegExp(`${escape(FORCED_EXIT)} (\\d+)\\s*$`).exec(stderr) : null;
      const code = forced ? Number(forced[1]) : exit;
      // 0: all passed; 1: some failed (a normal verdict). Anything else: the kit could not run the target.
      if ((code === 0 || code === 1) && existsSync(jsonFile)) {
        try {
          return resolve({ report: JSON.parse(readFileSync(jsonFile, "utf8")), exit: code });
        } catch (e) {
          return resolve({ exit: code, reason: `unreadable JSON report: ${(e as Error).message}` });
        }
      }
      resolve({
        exit: code,
        reason: signal ? `killed (${signal}) after ${timeoutMs} ms` : `exit ${code}: ${tail(stderr) || "no output"}`,
      });
    });
  });
}

/** npm's first error lines, on one line: the cause, not the usage text npm prints after it. */
export function npmErrorHead(stderr: string, max = 6): string {
  const lines = stderr.split("\n").map((l) => l.replace(/^npm (error|ERR!)\s?/, "").trim());
  const cause = lines
    .slice(0, lines.findIndex((l, i) => i > 0 && /^(Clean install|Usage:)/.test(l)) >>> 0)
    .filter(Boolean);
  return cause.slice(0, max).join(" ") + (cause.length > max ? " …" : "") || "no output";
}

/** Where a folder's install records the lockfile it was made from (installs cached: npm ci again only when it changed). */
const STAMP = join("node_modules", ".skill-compat-lock.sha256");

const lockHash = (dir: string): string | undefined => {
  const lock = join(dir, "package-lock.json");
  if (!existsSync(lock)) return undefined;
  // The lockfile and the dependencies it was made for; not the rest of package.json (its skillConformance settings).
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  const deps = JSON.stringify([pkg.dependencies ?? {}, pkg.devDependencies ?? {}, pkg.optionalDependencies ?? {}]);
  return createHash("sha256").update(readFileSync(lock)).update(deps).digest("hex");
};

/** `npm ci` in a harness folder: its own lockfile, nothing added to the kit's install; skipped when node_modules
 *  was installed from this very lockfile and package.json (`cached: true`). */
export function npmCi(dir: string): { ok: boolean; cached?: boolean; reason?: string } {
  const hash = lockHash(dir);
  const stamp = join(dir, STAMP);
  if (hash && existsSync(stamp) && readFileSync(stamp, "utf8").trim() === hash) return { ok: true, cached: true };
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 10 * 60_000,
  });
  if (r.status === 0) {
    if (hash) writeFileSync(stamp, `${hash}\n`);
    return { ok: true };
  }
  return {
    ok: false,
    reason: `npm ci failed (${r.error?.message ?? `exit ${r.status}`}): ${npmErrorHead(r.stderr ?? "")}`,
  };
}
