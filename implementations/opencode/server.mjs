// Starts the shipped OpenCode binary (`opencode serve`, from the pinned platform package opencode-linux-x64,
// the one package of opencode-ai's platform binaries this project's registry serves) once per driver process, isolated from the machine it runs on: a throwaway HOME (no user
// config, no ~/.claude or ~/.agents skills), external skill scans, plugins, model-list fetches and updates
// off, and a global config naming only the scripted loopback model. Each kit session is an OpenCode
// project directory of its own, addressed per request with the x-opencode-directory header.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startFakeModel } from "./fake-model.mjs";

const require = createRequire(import.meta.url);

export const harnessVersion = require("opencode-linux-x64/package.json").version;

/** The platform binary: the pinned opencode-linux-x64 (what opencode-ai's launcher itself runs on Linux x64). */
export function opencodeBinary() {
  if (process.env.OPENCODE_BIN) return process.env.OPENCODE_BIN;
  const os = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform] ?? process.platform;
  const exe = process.platform === "win32" ? "opencode.exe" : "opencode";
  const candidates = [
    `opencode-${os}-${process.arch}`,
    `opencode-${os}-${process.arch}-baseline`,
    `opencode-${os}-${process.arch}-musl`,
  ];
  for (const name of candidates) {
    try {
      const bin = join(dirname(require.resolve(`${name}/package.json`)), "bin", exe);
      if (existsSync(bin)) return bin;
    } catch {}
  }
  throw new Error(`no OpenCode binary for ${os}-${process.arch}: run npm ci in implementations/opencode`);
}

export const PROVIDER = "kitfake";
export const MODEL = "scripted";

let started = null;

/** One OpenCode server for the whole driver process (starting it takes seconds). */
export function server() {
  started ??= start();
  return started;
}

/** OpenCode's skill tool samples a skill's files with ripgrep and downloads it when `rg` is not on PATH: offline,
 *  that download fails inside the tool and every activation would fail as if OpenCode had refused it. */
function requireRipgrep() {
  const dirs = (process.env.PATH ?? "").split(":").filter(Boolean);
  if (!dirs.some((d) => existsSync(join(d, "rg"))))
    throw new Error(
      "OpenCode needs ripgrep on PATH (its skill tool lists a skill's files with `rg`, and would try to download it): " +
        "install it (Debian: apt-get install ripgrep)",
    );
}

async function start() {
  requireRipgrep();
  const shared = { calls: new Map(), lastSystem: "" };
  const model = await startFakeModel(shared);
  const home = mkdtempSync(join(tmpdir(), "opencode-driver-home-"));
  mkdirSync(join(home, ".config", "opencode"), { recursive: true });
  const globalConfig = {
    $schema: "https://opencode.ai/config.json",
    model: `${PROVIDER}/${MODEL}`,
    small_model: `${PROVIDER}/${MODEL}`,
    autoupdate: false,
    share: "disabled",
    snapshot: false,
    lsp: false,
    formatter: false,
    provider: {
      [PROVIDER]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Kit scripted model",
        options: { baseURL: model.url, apiKey: "unused" },
        models: { [MODEL]: { name: MODEL, tool_call: true, limit: { context: 200000, output: 8192 } } },
      },
    },
  };
  writeFileSync(join(home, ".config", "opencode", "opencode.json"), JSON.stringify(globalConfig, null, 2));
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_PURE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER: "1",
    OPENCODE_SERVER_PASSWORD: "",
  };
  const child = spawn(
    opencodeBinary(),
    [
      "serve",
      "--port",
      "0",
      "--hostname",
      "127.0.0.1",
      ...(process.env.OPENCODE_DRIVER_LOGS ? ["--print-logs", "--log-level", process.env.OPENCODE_DRIVER_LOGS] : []),
    ],
    {
      cwd: home,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  const keep = (d) => {
    log = (log + d).slice(-4000);
  };
  child.stderr.on("data", keep);
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`opencode serve did not start within 60 s: ${log}`)), 60_000);
    child.stdout.on("data", (d) => {
      out += d;
      keep(d);
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`opencode serve exited with ${code}: ${log}`));
    });
  });
  // The kit may exit without a dispose hook (in-process); never keep it alive or leave the server behind.
  child.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();
  const stop = () => {
    try {
      child.kill("SIGKILL");
    } catch {}
    try {
      rmSync(home, { recursive: true, force: true });
    } catch {}
  };
  process.once("exit", stop);
  // Killed by a signal, the driver would leave the server orphaned: stop it, then die of the same signal.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(signal, () => {
      stop();
      process.kill(process.pid, signal);
    });
  }
  return Object.assign(shared, { url, home, stop, stderrTail: () => log });
}

/** One HTTP request to the server, scoped to a project directory; JSON in, JSON out. */
export async function request(srv, method, path, directory, body) {
  const res = await fetch(srv.url + path, {
    method,
    headers: {
      "content-type": "application/json",
      ...(directory ? { "x-opencode-directory": encodeURIComponent(directory) } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status}: ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A project directory for one kit session: its opencode.json lists the kit's roots as skills.paths. */
export function projectDir(paths, extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), "opencode-driver-project-"));
  writeFileSync(join(dir, "opencode.json"), JSON.stringify({ skills: { paths }, ...extra }, null, 2));
  return dir;
}
