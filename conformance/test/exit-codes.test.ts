// The kit's one table of exit codes (docs/exit-codes.md, decision K51), checked over every command: each command is run
// as a user runs it (a real process) into each code it can give, and the code must be the one the table says: 0 a
// pass, 1 a failing result, 2 a usage or set-up error, nothing else (issue 28 deliver 2). The codes come from the
// table in the doc, so a code added to a command and not to the table fails here. Each process has a hard deadline:
// a command that spins (a report path under /proc did, issue 28 item 6) fails instead of hanging the suite.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../package-root.ts";

const dir = mkdtempSync(join(tmpdir(), "skill-exit-codes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The codes docs/exit-codes.md's first table lists. */
function documentedCodes(): number[] {
  const doc = readFileSync(join(PACKAGE_ROOT, "docs", "exit-codes.md"), "utf8");
  return [...doc.matchAll(/^\|\s*(\d+)\s*\|/gm)].map((m) => Number(m[1]));
}

/** tsx's loader by its URL: --import tsx would be looked up from the user's directory, which has no tsx. */
const TSX = pathToFileURL(join(PACKAGE_ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
const script = (name: string) => join(PACKAGE_ROOT, "scripts", `${name}.ts`);
const WRONG = `"${process.execPath}" "${join(PACKAGE_ROOT, "conformance", "test", "faulty", "wrong.mjs")}"`;
const DIES = `"${process.execPath}" -e "process.stderr.write('no such script ./missing.py'); process.exit(2)"`;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

function run(name: string, args: string[], input = "", deadlineMs = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    // Not the npm script: the command as installed runs it (node on the script), in a directory of the user's.
    const child = spawn(process.execPath, ["--import", TSX, script(name), ...args], {
      cwd: dir,
      env: { ...process.env, INIT_CWD: dir },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), deadlineMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err });
    });
    child.stdin.end(input);
  });
}

const HANDSHAKE =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"specVersion":"1","kitVersion":"0"}}\n{"jsonrpc":"2.0","id":2,"method":"shutdown","params":{}}\n';

/** [command, argv, the code the table gives it, what it is]; stdin for the driver. */
const RUNS: Array<[string, string[], 0 | 1 | 2, string, string?]> = [
  ["conformance", ["--help"], 0, "help"],
  ["conformance", ["--reference", "--filter", "U01"], 0, "a passing run"],
  ["conformance", ["--exec", WRONG, "--filter", "U05"], 1, "a failing case"],
  ["conformance", ["--bogus"], 2, "an unknown flag"],
  ["conformance", ["--driver", "./nope.js"], 2, "a missing --driver file"],
  ["conformance", ["--exec", DIES], 2, "a driver that exits before initialize (was 1)"],
  ["conformance", ["--reference", "--json", "/proc/x/r.json"], 2, "a report path under /proc (spun)"],
  ["e2e", ["--help"], 0, "help"],
  ["e2e", ["--model", "scripted:good", "-n", "1", "--scenario", "SK1"], 0, "a passing run"],
  [
    "e2e",
    ["--model", "scripted:bad", "-n", "1", "--scenario", "SK1", "--threshold", "1"],
    1,
    "a cell below --threshold",
  ],
  ["e2e", ["--bogus"], 2, "an unknown flag"],
  ["e2e", ["--driver", "./nope.js", "--model", "scripted:good"], 2, "a missing --driver file (was 3)"],
  ["e2e", ["--exec", DIES, "--model", "scripted:good"], 2, "a driver that exits before initialize (was 3)"],
  ["e2e", ["--model", "scripted:good", "--transcripts", "/proc/x"], 2, "a transcripts directory under /proc (spun)"],
  ["reference-driver", ["--help"], 0, "help"],
  ["reference-driver", [], 0, "a clean handshake and shutdown", HANDSHAKE],
  ["reference-driver", ["--bogus"], 2, "an unknown flag"],
  ["reference-driver", ["./nope.js"], 2, "a missing module"],
  ["compat", ["--help"], 0, "help"],
  ["compat", ["--bogus"], 2, "an unknown flag"],
  ["bench", ["--help"], 0, "help"],
  ["bench", ["--reps", "0"], 2, "a bad value"],
  ["fuzz", ["--help"], 0, "help"],
  ["fuzz", ["--count", "0"], 2, "a bad value"],
  ["fuzz", ["--count", "50", "--seed", "1"], 0, "a clean fuzz"],
  ["action-local", ["--help"], 0, "help"],
  ["action-local", ["--nope", "x"], 2, "an input the action does not have"],
];

describe("docs/exit-codes.md", () => {
  it("lists 0, 1 and 2, and nothing else", () => {
    expect(documentedCodes()).toEqual([0, 1, 2]);
  });

  it("every command gives the code the table says, each code one the table lists", async () => {
    const codes = new Set(documentedCodes());
    // A few at a time: the machine is shared, and a deadline must measure a spin, not a queue.
    const results: Run[] = [];
    for (let i = 0; i < RUNS.length; i += 3) {
      results.push(
        ...(await Promise.all(RUNS.slice(i, i + 3).map(([name, args, , , input]) => run(name, args, input)))),
      );
    }
    const wrong: string[] = [];
    for (const [i, [name, args, want, what]] of RUNS.entries()) {
      const r = results[i]!;
      if (r.code !== want || !codes.has(r.code)) {
        wrong.push(
          `${name} ${args.join(" ")} (${what}): exit ${r.code ?? r.signal}, the table says ${want}\n    ${(r.err || r.out).trim().split("\n").slice(-3).join("\n    ")}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  }, 900_000);
});
