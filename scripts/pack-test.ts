// `npm run pack-test`: proves the package works outside this repository. Packs the kit (prepack builds dist/),
// checks the tarball's files against an allow-list, installs it into an empty scratch project (offline from the npm
// cache), and runs the installed commands from a subdirectory of that project, in a clean environment (no npm_* or
// INIT_CWD from this npm run, no node_modules/.bin of this repository on PATH, so no tsx): the matrix over stdio
// through the installed driver with every report, a user's own --driver module, --parity, --smoke, the suites
// (--suite all), a wrong implementation that must fail, the gate's refusals (a missing --driver file, no target, a
// garbage expected-failures file, the kit's reference without --reference: each exit 2 before any case runs), the
// public API's exports and types (compiled with --types '': no @types/node), the scripted e2e run, the README's
// commands for a repository without package.json (a --prefix install and a stdio driver, run as the README writes
// them), and the GitHub Action's steps (scripts/action-local.ts) against the same tarball, cold and warm (outputs,
// annotations, summary), its args with a glob in them, its profile input and `npm run action-local`; a --driver module
// with flat implementationInfo, and a Python --exec driver that reads the installed kit's messages.json.
// Exit 0 only when every check holds.
//   npm run pack-test [-- --keep]    (--keep leaves the temp dir for a look)
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join, relative } from "node:path";
import { minimatch } from "minimatch";
import { PACKAGE_ROOT } from "../package-root.ts";
import { runActionLocally, type LocalRun } from "./action-local.ts";

/** Every file the tarball may hold. Anything else (sources, tests, mutants, benchmarks, docs) is a failure. */
const ALLOWED = [
  "package.json",
  "README.md",
  "LICENSE",
  "dist/**/*.js",
  "dist/**/*.d.ts",
  "dist/schemas/validators/*.cjs",
  "schemas/*.json",
  "schemas/decisions/*.json",
  "conformance/cases/*.json",
  "conformance/cases-*/*.json",
  "fixtures/**",
];
/** Files that must never ship even though they match an allowed glob: the kit's tests and mutants (a case's mutants sit beside its JSON). */
const DENIED = [
  "dist/**/test/**",
  "dist/**/mutants/**",
  "dist/bench/**",
  "**/*.mutants.ts",
  "**/*.mutants.js",
  "**/*.mutants.d.ts",
  "dist/conformance/catalog.*",
];
/** What the installed commands cannot run without. */
const REQUIRED = [
  "dist/index.js",
  "dist/index.d.ts",
  "dist/package-root.js",
  "dist/scripts/conformance.js",
  "dist/scripts/e2e.js",
  "dist/scripts/reference-driver.js",
  "dist/scripts/action-report.js",
  "LICENSE",
  "dist/schemas/validators/driver-protocol.cjs",
  "dist/schemas/validators/driver-protocol.defs.initializeParams.cjs",
  "schemas/driver-protocol.schema.json",
  "schemas/limits.json",
];

const PKG = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { name: string; version: string };
const keep = process.argv.includes("--keep");
let failures = 0;

function check(what: string, ok: boolean, detail = ""): void {
  console.log(
    `${ok ? "ok  " : "FAIL"}  ${what}${!ok && detail ? `\n      ${detail.trim().split("\n").slice(-25).join("\n      ")}` : ""}`,
  );
  if (!ok) failures++;
}

/** The environment of a user's shell: nothing inherited from this `npm run`, and no tsx of ours on PATH. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== "INIT_CWD") env[k] = v;
  env["PATH"] = (process.env["PATH"] ?? "")
    .split(delimiter)
    .filter((p) => !p.includes(`node_modules${"/"}.bin`))
    .join(delimiter);
  return env;
}
const ENV = cleanEnv();

function run(cmd: string, args: string[], cwd: string): { code: number; out: string } {
  const r = spawnSync(cmd, args, { cwd, env: ENV, encoding: "utf8", timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? 1, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

const npx = (cwd: string, ...args: string[]) => run("npx", ["--no-install", ...args], cwd);
const readJson = (file: string): any => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

// ---- pack and the tarball's file list ----------------------------------------------------------------------------

function pack(tmp: string): string {
  const r = spawnSync("npm", ["pack", "--json", "--pack-destination", tmp], {
    cwd: PACKAGE_ROOT,
    env: process.env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  check("npm pack (prepack builds dist/)", r.status === 0, r.stderr);
  if (r.status !== 0) process.exit(1);
  // Lifecycle output may precede the JSON on stdout: the report is the last top-level array.
  const json = r.stdout.slice(r.stdout.lastIndexOf("\n[") + 1 || r.stdout.indexOf("["));
  const [info] = JSON.parse(json) as [{ filename: string; files: { path: string }[]; size: number }];
  const files = info.files.map((f) => f.path);
  const outside = files.filter(
    (f) => !ALLOWED.some((g) => minimatch(f, g, { dot: true })) || DENIED.some((g) => minimatch(f, g, { dot: true })),
  );
  check(
    `the tarball holds only allowed files (${files.length} files, ${(info.size / 1024).toFixed(0)} KiB packed)`,
    outside.length === 0,
    outside.join("\n"),
  );
  const missing = REQUIRED.filter((f) => !files.includes(f));
  // Data the runner reads: every case, fixture and decisions file of the repository, none left behind (a case's
  // <ID>.mutants.ts beside it is the kit's evidence, not data: it never ships).
  for (const dir of ["conformance/cases", "conformance/cases-security", "fixtures", "schemas/decisions"]) {
    for (const f of walk(join(PACKAGE_ROOT, dir))) {
      const rel = relative(PACKAGE_ROOT, f).split("\\").join("/");
      if (!files.includes(rel) && !rel.endsWith(".mutants.ts")) missing.push(rel);
    }
  }
  check(
    "the tarball holds the commands, the API, the schemas, every case and every fixture file",
    missing.length === 0,
    missing.join("\n"),
  );
  check(
    "no TypeScript sources ship (only compiled .js and .d.ts)",
    !files.some((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
  );
  return join(tmp, info.filename);
}

// ---- install into an empty project -------------------------------------------------------------------------------

function install(tmp: string, tarball: string): { project: string; sub: string } {
  const project = join(tmp, "project");
  const sub = join(project, "checks", "here");
  mkdirSync(sub, { recursive: true });
  // The user's own npm script runs the command in a subdirectory: npm's INIT_CWD (the project root) is not where
  // ./my-impl.js is, the working directory is.
  const scripts = {
    "kit:sub": "cd checks/here && skill-conformance --driver ./my-impl.js --json out/from-script.json",
  };
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "scratch-user-project", private: true, type: "module", scripts }, null, 2),
  );
  const r = run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], project);
  check("npm install <tarball> into an empty project", r.code === 0, r.out);
  if (r.code !== 0) process.exit(1);
  const nm = join(project, "node_modules");
  check(
    "tsx and typescript are not installed with the kit (nothing needs them at run time)",
    !existsSync(join(nm, "tsx")) && !existsSync(join(nm, "typescript")),
  );
  for (const bin of ["skill-conformance", "skill-e2e", "skill-reference-driver"])
    check(`bin ${bin} is installed`, existsSync(join(nm, ".bin", bin)));
  return { project, sub };
}

// ---- the installed commands, run from a subdirectory of the user's project ---------------------------------------

// A user's implementation: here the reference through the package's public API, under a name of its own (the kit
// refuses to test an implementation answering as its own reference unless --reference is said).
const USER_IMPL = `import { implementationInfo as info } from "${PKG.name}";
export { createSession } from "${PKG.name}";
export const implementationInfo = { ...info, implementation: { ...info.implementation, name: "my-impl" } };
`;
const WRONG_IMPL = `// A wrong implementation: every activation says the skill does not exist.
import { createSession as inner, implementationInfo as info } from "${PKG.name}";
export const implementationInfo = { ...info, implementation: { ...info.implementation, name: "wrong" } };
export function createSession(config, options) {
  const s = inner(config, options);
  return { catalog: () => s.catalog(), close: () => s.close(), call: async () => ({ kind: "not_found", name: "x", siblings: [], output: "no" }) };
}
`;

/**
 * Preloaded into the installed driver (--import): on exit, lists which of the packages its handshake must not need
 * were loaded, through require (require.cache) or through import (a resolve hook: ES modules never enter require.cache).
 */
const LOAD_PROBE = `import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";
import { MessageChannel } from "node:worker_threads";
const imported = [];
const { port1, port2 } = new MessageChannel();
port1.on("message", (url) => imported.push(url));
port1.unref();
const here = pathToFileURL(process.cwd() + "/"); // the probe runs from the scratch project, beside load-hooks.mjs
register("./load-hooks.mjs", here, { data: { port: port2 }, transferList: [port2] });
const require = createRequire(here);
process.on("exit", () => {
  const loaded = [...Object.keys(require.cache), ...imported];
  const heavy = ["ajv/dist/core.js", "ajv/dist/compile/index.js", "yaml/dist/index.js", "fast-levenshtein", "minimatch"];
  process.stderr.write("LOADED " + JSON.stringify(heavy.filter((h) => loaded.some((f) => f.includes("node_modules/" + h)))) + "\\n");
});
`;
const LOAD_HOOKS = `let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  port.postMessage(r.url);
  return r;
}
`;
const HANDSHAKE =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"specVersion":"1","kitVersion":"0"}}\n{"jsonrpc":"2.0","id":2,"method":"shutdown","params":{}}\n';

/** The installed driver answers the handshake from its precompiled validators: no ajv compiler, no YAML engine loaded. */
function startupCheck(project: string): void {
  writeFileSync(join(project, "load-probe.mjs"), LOAD_PROBE);
  writeFileSync(join(project, "load-hooks.mjs"), LOAD_HOOKS);
  const driver = join(project, "node_modules", PKG.name, "dist", "scripts", "reference-driver.js");
  const r = spawnSync(process.execPath, ["--import", "./load-probe.mjs", driver], {
    cwd: project,
    env: ENV,
    input: HANDSHAKE,
    encoding: "utf8",
    timeout: 30_000,
  });
  const loaded = /LOADED (.*)/.exec(r.stderr ?? "")?.[1];
  check(
    "the installed driver answers initialize without loading ajv's compiler, yaml, fast-levenshtein or minimatch",
    r.status === 0 && /"id":1,"result"/.test(r.stdout ?? "") && loaded === "[]",
    `${r.stdout}${r.stderr}`,
  );
}

function conformanceChecks(sub: string): void {
  writeFileSync(join(sub, "my-impl.js"), USER_IMPL);
  writeFileSync(join(sub, "wrong-impl.js"), WRONG_IMPL);
  const reports = [
    "--json",
    "out/spec.json",
    "--junit",
    "out/spec.xml",
    "--markdown",
    "out/spec.md",
    "--badge",
    "out/badge.json",
  ];
  let r = npx(sub, "skill-conformance", "--exec", "skill-reference-driver ./my-impl.js", ...reports);
  const spec = readJson(join(sub, "out", "spec.json"));
  check(
    'skill-conformance --exec "skill-reference-driver ./my-impl.js" (the installed driver over stdio): 30/30, exit 0',
    r.code === 0 && spec?.summary?.total === 30 && spec?.summary?.passed === 30,
    r.out,
  );
  const xml = existsSync(join(sub, "out", "spec.xml")) ? readFileSync(join(sub, "out", "spec.xml"), "utf8") : "";
  check(
    "the reports land where the user ran the command (JSON, JUnit, Markdown, badge)",
    /tests="30"/.test(xml) &&
      /failures="0"/.test(xml) &&
      readFileSync(join(sub, "out", "spec.md"), "utf8").includes("| U30 |") &&
      /, 30\/30 cases$/.test(String(readJson(join(sub, "out", "badge.json"))?.message)),
  );

  r = npx(sub, "skill-conformance", "--driver", "./my-impl.js");
  check(
    "skill-conformance --driver ./my-impl.js (a user's module, through the public API): 30/30",
    r.code === 0 && /30\/30 passed/.test(r.out),
    r.out,
  );

  r = run("npm", ["run", "kit:sub"], join(sub, "..", ".."));
  check(
    "from the user's own npm script (cd into a subdirectory): paths start at the working directory, 30/30",
    r.code === 0 && readJson(join(sub, "out", "from-script.json"))?.summary?.passed === 30,
    r.out,
  );

  r = npx(sub, "skill-conformance", "--parity", "--reference", "--exec", "skill-reference-driver ./my-impl.js");
  check(
    "skill-conformance --parity --reference --exec <driver> (in-process vs stdio): no difference, exit 0",
    r.code === 0 && /30\/30 cases identical/.test(r.out),
    r.out,
  );
  r = npx(
    sub,
    "skill-conformance",
    "--parity",
    "--fuzz",
    "200",
    "--seed",
    "1",
    "--reference",
    "--exec",
    "skill-reference-driver",
  );
  check(
    "skill-conformance --parity --fuzz 200 (the reference over stdio vs in-process): 200 calls the same, exit 0",
    r.code === 0 && /same 200,/.test(r.out),
    r.out,
  );

  r = npx(sub, "skill-conformance", "--smoke", "--exec", "skill-reference-driver ./my-impl.js");
  check("skill-conformance --smoke: every step ok", r.code === 0 && /smoke: ok/.test(r.out), r.out);

  // Every suite the package ships (security, contract, frontmatter), each found through package-root.ts.
  // A generous deadline: S15/S16 and the frontmatter cases are heavy, and this VM is shared (a 5 s catalog timed out at load 17).
  r = npx(
    sub,
    "skill-conformance",
    "--suite",
    "all",
    "--profile",
    "exact",
    "--timeout",
    "20000",
    "--exec",
    "skill-reference-driver ./my-impl.js",
    "--json",
    "out/all.json",
  );
  const all = readJson(join(sub, "out", "all.json"));
  const sec = all?.summary;
  const ids: string[] = (all?.cases ?? []).map((c: { id: string }) => c.id);
  const everySuite = ["U01", "S01", "C01", "F01"].every((id) => ids.includes(id));
  check(
    `skill-conformance --suite all (spec, contract, frontmatter, security): all passed (${sec?.passed}/${sec?.total})`,
    r.code === 0 && everySuite && sec?.total > 0 && sec?.passed === sec?.total,
    r.out,
  );

  r = npx(sub, "skill-conformance", "--driver", "./wrong-impl.js", "--json", "out/wrong.json");
  const wrong = readJson(join(sub, "out", "wrong.json"))?.summary;
  check(
    `a wrong implementation fails the run (exit 1, ${wrong?.failed} cases failed)`,
    r.code === 1 && wrong?.failed > 0,
    r.out,
  );

  gateChecks(sub);
  frontDoorChecks(sub);

  r = npx(sub, "skill-e2e", "--help");
  check(
    "skill-e2e --help names the installed command, not npm run e2e",
    r.code === 0 && /^Usage: skill-e2e /.test(r.out) && !r.out.includes("npm run"),
    r.out,
  );

  r = npx(sub, "skill-e2e", "--version");
  check("skill-e2e --version", r.code === 0 && r.out.trim().endsWith(PKG.version), r.out);

  r = npx(
    sub,
    "skill-e2e",
    "--model",
    "scripted:good",
    "-n",
    "2",
    "--json",
    "out/e2e.json",
    "--transcripts",
    "out/transcripts",
  );
  const cells = (readJson(join(sub, "out", "e2e.json"))?.cells ?? []) as {
    scenario: string;
    passed: number;
    n: number;
  }[];
  check(
    `skill-e2e --model scripted:good: every scenario passes (${cells.length} cells)`,
    r.code === 0 && cells.length === 8 && cells.every((c) => c.n === 2 && c.passed === 2),
    r.out,
  );
}

// A TypeScript implementer's module with implementationInfo flat, as conformance/README.md shows it (issue 28 item 1).
const FLAT_IMPL = `export { createSession } from "${PKG.name}";
export const implementationInfo = { name: "my-flat-impl", version: "0.3.0", language: "typescript" };
`;
// A driver in another language that renders from the kit's messages.json: it finds the table through initialize's
// messagesPath and the SKILL_KIT_MESSAGES variable, as PROTOCOL.md's Python snippet does (issue 28 item 2).
const FOREIGN_DRIVER = `import json, os, sys

def load_messages(params=None):
    path = (params or {}).get("messagesPath") or os.environ.get("SKILL_KIT_MESSAGES")
    if not path:
        raise SystemExit("no messages.json: run me under skill-conformance (SKILL_KIT_MESSAGES is unset)")
    with open(path, encoding="utf-8") as f:
        return json.load(f)["messages"]

for line in sys.stdin:
    req = json.loads(line)
    if req["method"] == "initialize":
        messages = load_messages(req["params"])
        same = req["params"].get("messagesPath") == os.environ.get("SKILL_KIT_MESSAGES")
        header = messages["catalog.header"]["text"] if "catalog.header" in messages else sorted(messages)[0]
        sys.stderr.write("rendered from the kit's table: " + header[:40] + "\\n")
        info = {"name": "foreign-" + ("same" if same else "differ"), "version": req["params"]["kitVersion"] + "+" + os.environ.get("SKILL_KIT_VERSION", "?"), "language": "python-" + str(len(messages))}
        out = {"jsonrpc": "2.0", "id": req["id"], "result": {"implementation": info, "specVersion": "1", "capabilities": {}}}
    elif req["method"] == "shutdown":
        out = {"jsonrpc": "2.0", "id": req["id"], "result": {}}
    else:
        out = {"jsonrpc": "2.0", "id": req["id"], "error": {"code": -32601, "message": "not in this sketch"}}
    sys.stdout.write(json.dumps(out) + "\\n")
    sys.stdout.flush()
    if req["method"] == "shutdown":
        break
`;

/** The installed kit for a TypeScript implementer (flat implementationInfo) and for a driver in another language. */
function frontDoorChecks(sub: string): void {
  writeFileSync(join(sub, "flat-impl.js"), FLAT_IMPL);
  let r = npx(sub, "skill-conformance", "--driver", "./flat-impl.js", "--filter", "U01,U02");
  check(
    "a --driver module with flat implementationInfo {name, version, language} (as the README shows): tested and named, 2/2",
    r.code === 0 &&
      /implementation under test: my-flat-impl 0\.3\.0 \(typescript\)/.test(r.out) &&
      /2\/2 passed/.test(r.out),
    r.out,
  );
  const python = spawnSync("python3", ["--version"], { encoding: "utf8" });
  if (python.status !== 0) {
    check("python3 is there for the foreign driver's check", false, "python3 not found");
    return;
  }
  writeFileSync(join(sub, "foreign_driver.py"), FOREIGN_DRIVER);
  const messages = Object.keys(
    readJson(join(sub, "..", "..", "node_modules", PKG.name, "schemas", "messages.json"))?.messages ?? {},
  ).length;
  r = npx(sub, "skill-conformance", "--smoke", "--exec", "python3 ./foreign_driver.py");
  // Its initialize answer says what it found: the same path both ways, the kit's version both ways, the table's size.
  const want = new RegExp(
    `ok\\s+initialize\\s+foreign-same ${PKG.version.replace(/\./g, "\\.")}\\+${PKG.version.replace(/\./g, "\\.")} \\(python-${messages}\\)`,
  );
  check(
    `a foreign --exec driver (Python) reads the installed kit's messages.json from initialize's messagesPath and SKILL_KIT_MESSAGES (${messages} messages)`,
    messages > 0 && want.test(r.out),
    r.out,
  );
  // A driver that dies before initialize: the run ends at once, exit 2, with its stderr (issue 28 item 7).
  r = npx(sub, "skill-conformance", "--exec", "python3 ./missing.py");
  check(
    '--exec "python3 ./missing.py": exit 2 at once, with python\'s own complaint',
    r.code === 2 &&
      /cannot start --exec python3 \.\/missing\.py: implementation exited with code 2/.test(r.out) &&
      /can't open file/.test(r.out),
    r.out,
  );
  r = npx(sub, "skill-e2e", "--driver", "./nope.js", "--model", "scripted:good");
  check(
    "skill-e2e --driver ./nope.js: exit 2 and skill-conformance's words (was exit 3, Node's raw error)",
    r.code === 2 && /--driver \.\/nope\.js: no such file/.test(r.out),
    r.out,
  );
}

/**
 * The gate cannot go falsely green: a missing --driver file (here ./dist/index.js, which the installed kit has in its
 * own folder: the old fallback tested the reference and passed), no target, a garbage expected-failures file, and the
 * kit's reference under another name each exit 2 with one line before any case runs; --reference names it.
 */
function gateChecks(sub: string): void {
  writeFileSync(join(sub, "garbage.txt"), "\u0000\u0001PK garbage\nnot-a-case\n");
  writeFileSync(join(sub, "typo.txt"), "U01\nU1\n");
  const refusals: Array<[string, string[], RegExp]> = [
    [
      "a missing --driver file (the kit's own dist/index.js is not looked at)",
      ["--driver", "./dist/index.js"],
      /--driver \.\/dist\/index\.js: no such file/,
    ],
    ["no target", [], /no target/],
    [
      "a garbage expected-failures file",
      ["--driver", "./my-impl.js", "--expected-failures", "garbage.txt"],
      /--expected-failures garbage\.txt: not a text file/,
    ],
    [
      "an expected-failures id that is no case",
      ["--driver", "./my-impl.js", "--expected-failures", "typo.txt"],
      /line 2 "U1"/,
    ],
    [
      "the kit's reference without --reference",
      ["--exec", "skill-reference-driver"],
      /answers as the kit's own reference/,
    ],
    [
      "a report path that cannot be written",
      ["--driver", "./my-impl.js", "--junit", "garbage.txt/junit.xml"],
      /--junit garbage\.txt\/junit\.xml: cannot be written/,
    ],
    [
      "an unknown suite, without an internal path",
      ["--driver", "./my-impl.js", "--suite", "nope"],
      /^skill-conformance: unknown suite "nope"[^/]*$/,
    ],
  ];
  for (const [what, args, message] of refusals) {
    const r = npx(sub, "skill-conformance", ...args);
    const lines = r.out.trim().split("\n");
    check(
      `${what}: exit 2, one line, before any case runs`,
      r.code === 2 && lines.length === 1 && message.test(lines[0]!) && !/^(PASS|FAIL|ERROR) /m.test(r.out),
      r.out,
    );
  }
  let r = npx(sub, "skill-conformance", "--reference", "--filter", "U01");
  check(
    "--reference tests the kit's own reference, found in its installation, and says so",
    r.code === 0 &&
      /implementation under test: skill-tool-reference .* via the kit's reference/.test(r.out) &&
      /1\/1 passed/.test(r.out),
    r.out,
  );
  r = npx(sub, "skill-conformance", "--version");
  check(
    "skill-conformance --version",
    r.code === 0 && r.out.trim() === `skill-conformance ${PKG.version} (spec 1)`,
    r.out,
  );
  r = npx(sub, "skill-conformance", "--list");
  check(
    "skill-conformance --list names every suite and its cases",
    r.code === 0 && /^spec {2}\(30 cases/m.test(r.out) && /^security /m.test(r.out) && /^ {2}U30 /m.test(r.out),
    r.out,
  );
  r = npx(sub, "skill-reference-driver", "--help");
  check(
    "skill-reference-driver --help prints its usage (it used to crash)",
    r.code === 0 && /^usage: skill-reference-driver/.test(r.out),
    r.out,
  );
}

// ---- the public API: what `exports` lets in and keeps out ---------------------------------------------------------

const API_PROBE = `import * as api from "${PKG.name}";
const names = Object.keys(api).sort().join(",");
let deep = "allowed";
try { await import("${PKG.name}/dist/reference/session.js"); } catch (e) { deep = e.code; }
const s = await api.createSession({ skill_roots: [] });
console.log(JSON.stringify({ names, deep, catalog: await s.catalog() }));
`;
const TYPE_PROBE = `import type { CallOptions, ConformanceCase, ConformanceReport, Implementation, InProcessModule, SessionConfig, SessionHandle, SkillResult } from "${PKG.name}";
import { createSession, implementationInfo } from "${PKG.name}";
const mod: InProcessModule = { createSession, implementationInfo };
const config: SessionConfig = { skill_roots: ["/tmp"] };
export async function probe(impl: Implementation, c: ConformanceCase, r: ConformanceReport, o: CallOptions): Promise<SkillResult> {
  const s: SessionHandle = await mod.createSession(config, {});
  void impl; void c; void r;
  return s.call({ name: "x" }, o);
}
`;

function apiChecks(project: string): void {
  writeFileSync(join(project, "probe.mjs"), API_PROBE);
  const r = run(process.execPath, ["probe.mjs"], project);
  let probe: { names?: string; deep?: string; catalog?: unknown } = {};
  try {
    probe = JSON.parse(r.out.trim().split("\n").pop() ?? "{}");
  } catch {
    /* reported below */
  }
  check(
    "the package's runtime exports are createSession and implementationInfo, and they work",
    probe.names === "createSession,implementationInfo" && probe.catalog !== undefined,
    r.out,
  );
  check(
    "deep imports are refused (exports holds the public API only)",
    probe.deep === "ERR_PACKAGE_PATH_NOT_EXPORTED",
    r.out,
  );
  writeFileSync(join(project, "probe.ts"), TYPE_PROBE);
  const tsc = join(PACKAGE_ROOT, "node_modules", "typescript", "bin", "tsc");
  // --types '': no @types/node (or any other ambient types); skipLibCheck off, so every published .d.ts is checked.
  const t = run(
    process.execPath,
    [
      tsc,
      "--noEmit",
      "--strict",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--types",
      "",
      "--skipLibCheck",
      "false",
      "probe.ts",
    ],
    project,
  );
  check(
    "a TypeScript user without @types/node type-checks against the exported types (--types '')",
    t.code === 0,
    t.out,
  );
}

// ---- a repository without package.json (Rust), as the README tells it -------------------------------------------

/** A stand-in for a Rust driver binary: a script at the README's path serving a user's module over stdio. */
function fakeRustDriver(repo: string, kitIndex: string): string {
  const dir = join(repo, "target", "release");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "impl.mjs"), USER_IMPL.replaceAll(`"${PKG.name}"`, JSON.stringify(kitIndex)));
  const driver = join(dir, "my-skill-driver");
  const kitDriver = join(dirname(kitIndex), "scripts", "reference-driver.js");
  writeFileSync(driver, `#!/bin/sh\nexec "${process.execPath}" "${kitDriver}" "$(dirname "$0")/impl.mjs"\n`);
  chmodSync(driver, 0o755);
  return driver;
}

/** The README block marked `<!-- pack-test: rust -->`, as shell command lines (comments dropped). */
function readmeRustCommands(): string[] {
  const readme = readFileSync(join(PACKAGE_ROOT, "README.md"), "utf8");
  const block = /<!-- pack-test: rust -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** The README's commands for a Rust repository, run as written: a --prefix install into a HOME of its own, then the kit. */
function readmeRustCheck(tmp: string, tarball: string): void {
  const home = join(tmp, "home");
  const repo = join(tmp, "rust-readme-repo");
  mkdirSync(home, { recursive: true });
  mkdirSync(repo, { recursive: true });
  cpSync(tarball, join(repo, basename(tarball)));
  fakeRustDriver(repo, join(home, ".skill-kit", "node_modules", PKG.name, "dist", "index.js"));
  const commands = readmeRustCommands();
  check(
    `the README has its Rust commands (${commands.length}), the install first`,
    commands.length >= 3 && /^npm i --prefix ~\/\.skill-kit /.test(commands[0] ?? ""),
    commands.join("\n"),
  );
  const env = {
    ...ENV,
    HOME: home,
    npm_config_prefer_offline: "true",
    npm_config_cache: process.env["npm_config_cache"] ?? join(process.env["HOME"] ?? "", ".npm"),
  };
  for (const command of commands) {
    const r = spawnSync("bash", ["-c", command], {
      cwd: repo,
      env,
      encoding: "utf8",
      timeout: 180_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    check(`README (Rust): ${command.replace(home, "~")}`, r.status === 0, `${r.stdout}${r.stderr}`);
  }
}

// ---- the GitHub Action, its steps run locally against the same tarball ---------------------------------------------

function actionChecks(tmp: string, tarball: string): void {
  const repo = join(tmp, "rust-repo");
  mkdirSync(join(repo, "ci"), { recursive: true });
  writeFileSync(join(repo, "ci", "known-failures.txt"), "# nothing is expected to fail\n");
  const runnerTemp = join(tmp, "runner-temp");
  mkdirSync(runnerTemp, { recursive: true });
  const kitIndex = join(runnerTemp, "skill-tool-conformance", "node_modules", PKG.name, "dist", "index.js");
  fakeRustDriver(repo, kitIndex);
  const base = { actionDir: PACKAGE_ROOT, workspace: repo, runnerTemp, env: ENV };
  const inputs = {
    exec: "./target/release/my-skill-driver",
    "expected-failures": "ci/known-failures.txt",
    json: "out/conformance.json",
    junit: "out/junit.xml",
    markdown: "out/report.md",
    badge: "out/badge.json",
    kit: tarball,
  };
  const ok = runActionLocally({ ...base, inputs });
  const report = readJson(join(repo, "out", "conformance.json"))?.summary;
  const log = (r: LocalRun) => r.steps.map((s) => `[${s.name}: ${s.status}]\n${s.output ?? ""}`).join("\n");
  check(
    "the Action (installed from the tarball, in a repository without package.json): 30/30",
    ok.code === 0 && report?.passed === 30 && report?.total === 30,
    log(ok),
  );
  check(
    "the Action writes every report in the caller's repository and the job summary",
    ["junit.xml", "report.md", "badge.json"].every((f) => existsSync(join(repo, "out", f))) &&
      ok.summary.includes("| U30 |"),
    log(ok),
  );
  check(
    "the Action's outputs: counts and report paths",
    ok.outputs["total"] === "30" &&
      ok.outputs["passed"] === "30" &&
      ok.outputs["failed"] === "0" &&
      ok.outputs["errored"] === "0" &&
      ok.outputs["json"] === "out/conformance.json" &&
      ok.outputs["junit"] === "out/junit.xml",
    JSON.stringify(ok.outputs),
  );
  check(
    "the Action leaves no package.json or node_modules in the caller's repository",
    !existsSync(join(repo, "package.json")) && !existsSync(join(repo, "node_modules")),
  );
  const install = (r: LocalRun) => r.steps.find((s) => s.name === "Install the conformance kit");
  const cold = install(ok);
  check(
    "the Action groups the install's output",
    /^::group::Install the conformance kit/m.test(cold?.output ?? "") && /^::endgroup::/m.test(cold?.output ?? ""),
    cold?.output,
  );

  // A cache hit restores the kit's directory: the same runner.temp again is that, here.
  const warm = runActionLocally({ ...base, inputs: { ...inputs, json: "out/warm.json" } });
  const warmInstall = install(warm);
  check(
    `the Action with its install restored (a cache hit) skips npm: install step ${cold?.ms} ms cold, ${warmInstall?.ms} ms warm`,
    warm.code === 0 &&
      /The kit is installed already/.test(warmInstall?.output ?? "") &&
      (warmInstall?.ms ?? Infinity) < (cold?.ms ?? 0),
    log(warm),
  );
  console.log(
    `      figures: install step cold ${cold?.ms} ms (${(cold?.output ?? "").split("\n").length} log lines), warm ${warmInstall?.ms} ms (${(warmInstall?.output ?? "").split("\n").length} lines); run step ${ok.steps.at(-1)?.ms} ms`,
  );

  const wrongDriver = join(repo, "wrong-impl.js");
  writeFileSync(wrongDriver, WRONG_IMPL.replaceAll(`"${PKG.name}"`, JSON.stringify(kitIndex)));
  const bad = runActionLocally({ ...base, inputs: { driver: "./wrong-impl.js", suite: "spec", kit: tarball } });
  const annotations = (bad.steps.at(-1)?.output ?? "").split("\n").filter((l) => l.startsWith("::error title="));
  // The report has rules[]: one ::error per failing rule, each rule once (issue 19), and the failed count among the outputs.
  const ruleIds = annotations.map((a) => /breaks rule ([^:]+)::/.exec(a)?.[1]);
  const onePerRule = ruleIds.length > 0 && ruleIds.every(Boolean) && new Set(ruleIds).size === ruleIds.length;
  check(
    `the Action fails the job on a wrong implementation, one ::error per failing rule (${annotations.length}), summary and outputs anyway`,
    bad.code === 1 &&
      bad.steps.at(-1)?.status === "failed" &&
      onePerRule &&
      Number(bad.outputs["failed"]) > 0 &&
      bad.summary.includes("## Details"),
    log(bad),
  );

  const lead = bad.summary.indexOf("## Failing spec rules");
  check(
    "the Action's job summary leads with the failing spec rules, before the cases and their details",
    lead > 0 &&
      lead < bad.summary.indexOf("## Cases") &&
      /\| MUST \|/.test(bad.summary.slice(lead, bad.summary.indexOf("## Cases"))),
    bad.summary.slice(0, 1500),
  );

  const none = runActionLocally({ ...base, inputs: { kit: tarball, junit: "out/none.xml", json: "out/none.json" } });
  check(
    "the Action without exec or driver fails with skill-conformance's one line, exit 2, and says so in the summary",
    none.code === 2 &&
      /no target/.test(none.steps.at(-1)?.output ?? "") &&
      /no report/.test(none.summary) &&
      none.outputs["exit-code"] === "2",
    log(none),
  );
  check(
    "after a usage error the Action's report outputs are empty: no file was written",
    none.outputs["json"] === "" && none.outputs["junit"] === "" && !existsSync(join(repo, "out", "none.json")),
    JSON.stringify(none.outputs),
  );

  // args is never glob-expanded: U0* must reach the kit as U0*, though the repository has a file it would match.
  writeFileSync(join(repo, "U0-notes.txt"), "a file a shell glob U0* would expand to\n");
  const glob = runActionLocally({
    ...base,
    inputs: {
      exec: "./target/release/my-skill-driver",
      kit: tarball,
      args: "--filter U0*",
      json: "out/glob.json",
      profile: "decisions",
    },
  });
  const globbed = readJson(join(repo, "out", "glob.json"));
  check(
    `the Action passes args without globbing (--filter U0* with a U0-notes.txt beside it: ${globbed?.summary?.total} cases) and its profile input (${globbed?.profile})`,
    glob.code === 0 && globbed?.summary?.total === 9 && globbed?.profile === "decisions",
    log(glob),
  );
  const lines = runActionLocally({
    ...base,
    inputs: {
      exec: "./target/release/my-skill-driver",
      kit: tarball,
      args: "--filter\nU01,U02\n--timeout\n10000\n",
      json: "out/lines.json",
    },
  });
  check(
    "the Action's args as a block, one argument per line",
    lines.code === 0 && readJson(join(repo, "out", "lines.json"))?.summary?.total === 2,
    log(lines),
  );

  // npm run action-local: the same steps from the command line, against the same runner.temp (a warm install).
  const local = spawnSync(
    "npm",
    [
      "run",
      "-s",
      "action-local",
      "--",
      "--exec",
      "./target/release/my-skill-driver",
      "--kit",
      tarball,
      "--args",
      "--filter U0*",
      "--json",
      "out/local.json",
      "--workspace",
      repo,
      "--runner-temp",
      runnerTemp,
    ],
    { cwd: PACKAGE_ROOT, env: process.env, encoding: "utf8", timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
  );
  check(
    "npm run action-local -- --exec … --args '--filter U0*': the Action's steps run here, exit 0, outputs printed",
    local.status === 0 &&
      readJson(join(repo, "out", "local.json"))?.summary?.total === 9 &&
      /^total=9$/m.test(local.stdout),
    `${local.stdout}${local.stderr}`,
  );
}

/** The Action's default: no `kit` input, so it builds and packs its own checkout (a copy of this one's files). */
function actionFromSourceCheck(tmp: string): void {
  const src = join(tmp, "action-checkout");
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: PACKAGE_ROOT,
    encoding: "utf8",
  });
  for (const f of listed.stdout.split("\0").filter(Boolean)) {
    if (existsSync(join(PACKAGE_ROOT, f)))
      cpSync(join(PACKAGE_ROOT, f), join(src, f), { recursive: true, verbatimSymlinks: true });
  }
  const repo = join(tmp, "another-repo");
  const runnerTemp = join(tmp, "runner-temp-2");
  mkdirSync(repo, { recursive: true });
  mkdirSync(runnerTemp, { recursive: true });
  const r = runActionLocally({
    actionDir: src,
    workspace: repo,
    runnerTemp,
    env: { ...ENV, npm_config_prefer_offline: "true" },
    // A few cases are enough here (the whole suites ran above); the filter also exercises the args input.
    inputs: { args: "--reference --filter U01,U02,U03", json: "some.json" },
  });
  const some = readJson(join(repo, "some.json"))?.summary;
  const step = r.steps.find((s) => s.name === "Install the conformance kit");
  check(
    `the Action with no kit input builds its own checkout and runs it, args passed through (${some?.passed}/${some?.total}; install ${step?.ms} ms cold)`,
    r.code === 0 && some?.total === 3 && some?.passed === 3,
    r.steps.map((s) => `[${s.name}: ${s.status}]\n${s.output ?? ""}`).join("\n"),
  );
}

const started = performance.now();
const tmp = mkdtempSync(join(tmpdir(), "skill-pack-test-"));
try {
  const tarball = pack(tmp);
  const { project, sub } = install(tmp, tarball);
  startupCheck(project);
  conformanceChecks(sub);
  apiChecks(project);
  readmeRustCheck(tmp, tarball);
  actionChecks(tmp, tarball);
  actionFromSourceCheck(tmp);
} finally {
  if (keep) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
console.log(
  `\n${failures === 0 ? "pack-test: every check holds" : `pack-test: ${failures} check(s) FAILED`} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
process.exitCode = failures === 0 ? 0 : 1;
