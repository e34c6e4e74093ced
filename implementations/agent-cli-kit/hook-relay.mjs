#!/usr/bin/env node
// The command a harness runs as its permission hook (Claude Code's PreToolUse hook): it passes the harness's hook
// input (JSON on stdin) to the driver over a Unix socket (a file, so it crosses the run's network namespace) and
// prints the driver's answer on stdout, in the harness's own hook output format. It decides nothing: with no answer
// (the driver gone, a broken socket) it prints nothing and exits 0, leaving the harness's own default in force.
//   node hook-relay.mjs <socket path>
import { connect } from "node:net";

const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const sock = connect(process.argv[2]);
  let answer = "";
  sock.on("connect", () => sock.end(Buffer.concat(chunks)));
  sock.on("data", (d) => (answer += d));
  sock.on("end", () => (process.stdout.write(answer), process.exit(0)));
  sock.on("error", (e) => (process.stderr.write(`hook-relay: ${e.message}\n`), process.exit(0)));
});
