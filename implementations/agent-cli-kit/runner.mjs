// One CLI run, from inside its network namespace: starts the fake model (and, when isolated, the tripwire), writes
// the run's config files with the fake's address filled in, starts the harness's CLI, and relays over stdio (one JSON
// object per line) to the driver outside: every conversation turn the CLI sends (held until the driver says what the
// model answers), every other model request, every network attempt, and the CLI's exit with its output. It decides
// nothing: the driver says what the model plays, and the CLI does what it does.
//   driver -> runner: {op:"start", spec} | {op:"reply", seq, turn} | {op:"stop"}
//   runner -> driver: {ev:"ready", url} | {ev:"turn", seq, body} | {ev:"other", seq, method, path, body} |
//                     {ev:"net", what, to} | {ev:"exit", code, signal, stdout, stderr}
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { startFake } from "./fake-server.mjs";
import { PROVIDERS } from "./fake-server.mjs";
import { startTripwire } from "./tripwire.mjs";

const TAIL = 16 * 1024;
const emit = (msg, done) => process.stdout.write(JSON.stringify(msg) + "\n", done);
const waiting = new Map();
let child;
// A stop that came before the CLI was started (the driver gave up while the fake was still starting) ends it at once.
let stopped = false;

function fill(value, url) {
  return typeof value === "string" ? value.replaceAll("{{BASE_URL}}", url) : value;
}

/**
 * What the model answers to a request outside the conversation under test: the first of the driver's rules whose
 * text occurs in the request's system prompt (e.g. a harness's permission classifier), else "ok".
 */
function otherReply(rules = [], api, body) {
  const system = api.systemText(body);
  return rules.find((r) => system.includes(r.systemIncludes))?.text ?? "ok";
}

function stop() {
  stopped = true;
  if (!child || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
  setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }, 2000).unref();
}

async function start(spec) {
  const closeWire = spec.isolated ? await startTripwire((a) => emit({ ev: "net", ...a })) : () => {};
  const api = PROVIDERS[spec.provider].api;
  const fake = await startFake({
    provider: spec.provider,
    isMain: (body) => api.toolNames(body).some((n) => spec.mainTools.includes(n)),
    onMain: (record) =>
      new Promise(
        (resolve) => (waiting.set(record.seq, resolve), emit({ ev: "turn", seq: record.seq, body: record.body })),
      ),
    otherReply: (body) => otherReply(spec.otherReplies, api, body),
    onOther: (record) =>
      emit({ ev: "other", seq: record.seq, method: record.method, path: record.path, body: record.body }),
  });
  for (const [path, text] of Object.entries(spec.files ?? {})) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, fill(text, fake.url));
  }
  const env = Object.fromEntries(Object.entries(spec.env).map(([k, v]) => [k, fill(v, fake.url)]));
  emit({ ev: "ready", url: fake.url });
  let stdout = "",
    stderr = "";
  child = spawn(
    spec.command,
    spec.args.map((a) => fill(a, fake.url)),
    { cwd: spec.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  child.stdout.on("data", (d) => (stdout = (stdout + d).slice(-TAIL)));
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-TAIL)));
  child.on("error", (e) => (stderr += `\nspawn failed: ${e.message}`));
  if (stopped) stop();
  child.on("close", async (code, signal) => {
    await fake.close();
    closeWire();
    // Exit only once the last line is written: a pipe write is asynchronous, and a cut line would be lost.
    emit({ ev: "exit", code, signal, stdout, stderr }, () => process.exit(0));
  });
}

const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.op === "start")
    start(msg.spec).catch(
      (e) => (
        emit({ ev: "exit", code: null, signal: null, stdout: "", stderr: `runner: ${e.stack ?? e}` }),
        process.exit(0)
      ),
    );
  else if (msg.op === "reply") (waiting.get(msg.seq)?.(msg.turn), waiting.delete(msg.seq));
  else if (msg.op === "stop") stop();
});
rl.on("close", stop);
// The CLI runs in a process group of its own (detached): if the runner is ended, the CLI must not outlive it.
const killGroup = () => {
  try {
    if (child && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  } catch {}
};
process.on("exit", killGroup);
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(sig, () => (killGroup(), process.exit(1)));
