// The driver's side of one CLI run: starts runner.mjs, inside a fresh network namespace of its own when the kit runs
// as root (`unshare -n`; `lo` brought up and every address routed to it, so the fake on 127.0.0.1 is reachable and
// nothing else is), or plainly otherwise (then the run says so on stderr: not isolated). Turns the runner's events
// into awaitable steps: the next conversation turn, the CLI's exit, the network attempts seen.
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const RUNNER = fileURLToPath(new URL("./runner.mjs", import.meta.url));
const NETNS_SETUP =
  "ip link set lo up && ip route add local default dev lo && (ip -6 route add local default dev lo 2>/dev/null || true)";

let netnsWorks;
/** Whether this process may put a run in its own network namespace (root, and unshare works here). */
export function canIsolate() {
  if (netnsWorks === undefined) {
    netnsWorks =
      process.getuid?.() === 0 &&
      spawnSync("unshare", ["-n", "sh", "-c", NETNS_SETUP], { stdio: "ignore", timeout: 10_000 }).status === 0;
  }
  return netnsWorks;
}

/**
 * Start a run. spec: {provider, mainTools, command, args, env, cwd, files}. Returns {turns, exit, attempts,
 * others, reply(seq, turn), stop(), isolated, ready}: `turns.next()` resolves to the next held turn ({seq, body}) or
 * to null once the CLI has exited; `exit` resolves to {code, signal, stdout, stderr}.
 */
export function startRun(spec) {
  const isolated = canIsolate();
  if (!isolated && !process.env.AGENT_CLI_KIT_QUIET)
    process.stderr.write(
      "agent-cli-kit: not root or no unshare: the CLI runs without a network namespace of its own\n",
    );
  const child = isolated
    ? spawn("unshare", ["-n", "sh", "-c", `${NETNS_SETUP} && exec "$0" "$1"`, process.execPath, RUNNER], {
        stdio: ["pipe", "pipe", "pipe"],
      })
    : spawn(process.execPath, [RUNNER], { stdio: ["pipe", "pipe", "pipe"] });
  const send = (msg) => child.stdin.writable && child.stdin.write(JSON.stringify(msg) + "\n");
  const attempts = [],
    others = [],
    queue = [],
    takers = [];
  let runnerErr = "";
  let resolveExit, resolveReady;
  const exit = new Promise((r) => (resolveExit = r));
  const ready = new Promise((r) => (resolveReady = r));
  const deliver = (item) => (takers.length ? takers.shift()(item) : queue.push(item));
  child.stderr.on("data", (d) => (runnerErr = (runnerErr + d).slice(-8192)));
  createInterface({ input: child.stdout }).on("line", (line) => {
    let ev;
    try {
      ev = JSON.parse(line);
    } catch {
      runnerErr = (runnerErr + `\nunreadable line from the runner: ${line.slice(0, 200)}`).slice(-8192);
      return;
    }
    if (ev.ev === "turn") deliver({ seq: ev.seq, body: ev.body });
    else if (ev.ev === "other") others.push(ev);
    else if (ev.ev === "net") attempts.push({ what: ev.what, to: ev.to });
    else if (ev.ev === "ready") resolveReady(ev.url);
    else if (ev.ev === "exit") resolveExit(ev);
  });
  child.on("close", (code) => {
    resolveExit({
      code: null,
      signal: null,
      stdout: "",
      stderr: `runner ended (${code}) before the CLI did: ${runnerErr}`,
    });
    resolveReady(undefined);
  });
  exit.then(() => {
    while (takers.length) takers.shift()(null);
  });
  let exited = false;
  exit.then(() => (exited = true));
  send({ op: "start", spec: { ...spec, isolated } });
  return {
    isolated,
    ready,
    exit,
    attempts,
    others,
    turns: {
      next: () =>
        queue.length
          ? Promise.resolve(queue.shift())
          : exited
            ? Promise.resolve(null)
            : new Promise((r) => takers.push(r)),
    },
    reply: (seq, turn) => send({ op: "reply", seq, turn }),
    stop: () => send({ op: "stop" }),
  };
}
