// The subprocess driver and the stdio server: the reference over stdio passes the whole matrix; every
// protocol-breaking driver under faulty/ turns into errored cases with a reason, the run finishes, and no child is
// left running; the generic server answers protocol errors with the documented codes.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DriverError } from "../driver/errors.ts";
import { LineSplitter } from "../driver/jsonrpc.ts";
import { serveStdio } from "../driver/stdio-server.ts";
import { spawnImplementation, type SubprocessImplementation } from "../driver/subprocess.ts";
import type { InProcessModule } from "../../schemas/implementation.ts";
import { loadCases, runSuite } from "../runner/index.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const NODE = `"${process.execPath}"`;
const REFERENCE = `${NODE} --import tsx "${join(REPO, "scripts/reference-driver.ts")}"`;
const faulty = (name: string) => `${NODE} "${join(HERE, "faulty", `${name}.mjs`)}"`;

/** Running (a zombie waiting for a non-reaping init does not count). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

async function eventuallyDead(pid: number, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** An opener that remembers every implementation it spawned, to check they were all reaped. */
function recording(command: string, requestTimeoutMs = 400) {
  const spawned: SubprocessImplementation[] = [];
  return {
    spawned,
    open: async () => {
      // The handshake gets its own, roomy deadline: a node start on a loaded machine can take longer than requestTimeoutMs.
      const impl = await spawnImplementation(command, { requestTimeoutMs, startupTimeoutMs: 20_000, cwd: REPO });
      spawned.push(impl);
      return impl;
    },
  };
}

describe("reference over stdio", () => {
  it("passes the whole matrix, and the child exits cleanly", async () => {
    const cases = loadCases("spec");
    expect(cases.length).toBeGreaterThanOrEqual(30);
    const r = recording(REFERENCE, 5000);
    const report = await runSuite(r.open, cases, { driverLabel: "reference-driver", suite: "spec" });
    const notPassed = report.cases
      .filter((c) => c.status !== "passed")
      .map((c) => `${c.id}: ${c.reason ?? JSON.stringify(c.mismatches)}`);
    expect(notPassed).toEqual([]);
    expect(report.summary.passed).toBe(cases.length);
    expect(report.implementation.name).toBe("skill-tool-reference");
    expect(r.spawned).toHaveLength(1);
    const exit = await r.spawned[0]!.exited;
    expect(exit).toEqual({ code: 0, signal: null, killed: false });
    expect(alive(r.spawned[0]!.pid)).toBe(false);
  });
});

describe("faulty drivers", () => {
  const cases = loadCases("spec", "U01,U16");
  const table: Array<[string, RegExp, string?]> = [
    ["never-answers", /within \d+ ms/, "never-answers: ignoring skill/call"],
    ["exits-mid-run", /exited with code 3/, "exits-mid-run: crashing now"],
    ["garbage", /non-JSON on stdout: Loading skill/],
    ["wrong-id", /id 424242, which matches no pending request/],
    // A schema-invalid answer is no protocol break: it fails its rule (transport-verdicts.test.ts). An ask on a
    // session without a hook is one.
    ["bad-ask", /permission\/ask on session s\d+, whose config has no hook/],
  ];

  it.each(table)("%s → errored cases with a reason, the run finishes, no child left", async (name, reason, stderr) => {
    const r = recording(faulty(name));
    const report = await runSuite(r.open, cases, { driverLabel: name, suite: "spec", timeoutMs: 1500 });
    expect(report.cases).toHaveLength(cases.length);
    const errored = report.cases.filter((c) => c.status === "errored");
    expect(errored.length).toBeGreaterThan(0);
    for (const c of errored) {
      expect(c.blame).toBe("implementation");
      expect(c.reason).toMatch(reason);
    }
    // Every errored case shows the tail of what the driver wrote, a hang (the kit's deadline) included (R39).
    if (stderr)
      expect(errored.filter((c) => !c.stderr?.includes(stderr)).map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    // an errored case disposes the implementation and the next case gets a fresh one
    expect(r.spawned.length).toBeGreaterThanOrEqual(2);
    for (const impl of r.spawned) {
      await impl.exited;
      expect(alive(impl.pid), `${name} pid ${impl.pid}`).toBe(false);
    }
  });

  it("a hang caught by the runner's own deadline (before the driver's) still shows the driver's stderr tail", async () => {
    const r = recording(faulty("never-answers"), 10_000);
    const report = await runSuite(r.open, loadCases("spec", "U16"), {
      driverLabel: "never-answers",
      suite: "spec",
      timeoutMs: 300,
    });
    const c = report.cases[0]!;
    expect(c.status).toBe("errored");
    expect(c.reason).toMatch(/did not answer within 300 ms/);
    expect(c.stderr).toContain("never-answers: ignoring skill/call");
    for (const impl of r.spawned) await impl.exited;
  });

  it("a driver that hangs is SIGKILLed on dispose; a clean one exits by itself", async () => {
    const hung = await spawnImplementation(faulty("never-answers"), {
      requestTimeoutMs: 300,
      startupTimeoutMs: 20_000,
    });
    const s = await hung.createSession({ skill_roots: ["/nonexistent"] }, {});
    await expect(s.call({ name: "x" }, { invocation: "model" })).rejects.toThrow(
      /no response to skill\/call within 300 ms/,
    );
    await hung.dispose();
    expect((await hung.exited).killed).toBe(true);

    const stubborn = await spawnImplementation(faulty("stubborn"), { requestTimeoutMs: 300, startupTimeoutMs: 20_000 });
    await stubborn.dispose();
    expect((await stubborn.exited).killed).toBe(true);
    expect(alive(stubborn.pid)).toBe(false);

    const clean = await spawnImplementation(faulty("wrong"));
    await clean.dispose();
    await clean.dispose(); // idempotent
    expect(await clean.exited).toEqual({ code: 0, signal: null, killed: false });
  });

  it("a command that does not exist fails the handshake with the shell's complaint", async () => {
    const err = await spawnImplementation("definitely-not-a-skill-driver-xyz").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverError);
    expect((err as DriverError).message).toMatch(/exited with code 127/);
    expect((err as DriverError).stderr).toMatch(/not found/);
  });

  it("a kit-side bug (invalid session config) is blamed on the kit", async () => {
    const impl = await spawnImplementation(faulty("wrong"));
    try {
      const err = await impl.createSession({ skill_roots: "nope" } as never, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DriverError);
      expect((err as DriverError).blame).toBe("kit");
    } finally {
      await impl.dispose();
    }
  });

  it("children are killed when the kit process exits without disposing them", async () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", join(HERE, "faulty", "leaves-child.ts")], {
      cwd: REPO,
      encoding: "utf8",
    });
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    expect(await eventuallyDead(pid)).toBe(true);
  });
});

describe("serveStdio", () => {
  const toy: InProcessModule = {
    implementationInfo: {
      implementation: { name: "toy", version: "1", language: "typescript" },
      specVersion: "1",
      capabilities: {},
    },
    createSession(_config, { hook }) {
      return {
        catalog: async () => ({ tool_description: "Activate an installed skill by name.", entries: [], warnings: [] }),
        call: async (params) => {
          const name = (params as { name?: string }).name ?? "";
          const decision = hook
            ? await hook({
                tool: "skill",
                action: "activate",
                path: `/x/${name}`,
                always_patterns: [`Skill(name:${name})`],
                metadata: { name, root_index: 0, frontmatter: { allowed_tools: [] }, reason: "normal" },
              })
            : "allow";
          return { kind: "not_found", name: `${name}:${decision}`, siblings: [], output: decision };
        },
        close: async () => {},
      };
    },
  };

  it("answers requests, asks permission/ask for a hooked session, and maps protocol errors to codes", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const logs: string[] = [];
    const done = serveStdio(toy, { input, output, log: (l) => logs.push(l) });
    const received: Array<Record<string, unknown>> = [];
    let buffer = "";
    const waiters: Array<() => void> = [];
    output.setEncoding("utf8");
    output.on("data", (chunk: string) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const m = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
        buffer = buffer.slice(nl + 1);
        received.push(m);
        if (m.method === "permission/ask")
          input.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { decision: "allow_once" } }) + "\n");
        waiters.splice(0).forEach((w) => w());
      }
    });
    const response = async (id: unknown) => {
      for (;;) {
        const m = received.find((x) => x.id === id && !("method" in x));
        if (m) return m;
        await new Promise<void>((r) => waiters.push(r));
      }
    };
    const send = (m: unknown) => input.write((typeof m === "string" ? m : JSON.stringify(m)) + "\n");

    send({ jsonrpc: "2.0", id: 1, method: "session/catalog", params: { sessionId: "s1" } });
    expect(((await response(1)).error as { code: number }).code).toBe(-32002);
    send({ jsonrpc: "2.0", id: 2, method: "initialize", params: { kitVersion: "0", specVersion: "1" } });
    expect(((await response(2)).result as { implementation: { name: string } }).implementation.name).toBe("toy");
    send("this is not json");
    expect(((await response(null)).error as { code: number }).code).toBe(-32700);
    send({ jsonrpc: "2.0", id: 3, method: "nope", params: {} });
    expect(((await response(3)).error as { code: number }).code).toBe(-32601);
    send({ jsonrpc: "2.0", id: 4, method: "session/catalog", params: { sessionId: "s9" } });
    expect(((await response(4)).error as { code: number }).code).toBe(-32001);
    send({ jsonrpc: "2.0", id: 5, method: "skill/call", params: { sessionId: "s1" } });
    expect(((await response(5)).error as { code: number }).code).toBe(-32602);
    send({
      jsonrpc: "2.0",
      id: 6,
      method: "session/create",
      params: { config: { skill_roots: ["/x"], permission: { hook: true } } },
    });
    const { sessionId } = (await response(6)).result as { sessionId: string };
    send({
      jsonrpc: "2.0",
      id: 7,
      method: "skill/call",
      params: { sessionId, params: { name: "a" }, invocation: "model" },
    });
    expect(((await response(7)).result as { name: string }).name).toBe("a:allow_once");
    expect(received.some((m) => m.method === "permission/ask")).toBe(true);
    send({ jsonrpc: "2.0", id: 8, method: "shutdown", params: {} });
    expect((await response(8)).result).toEqual({});
    await done;
  });
});

describe("LineSplitter", () => {
  it("splits lines across chunks, tolerates CRLF, skips blank lines, and reports an overlong line once", () => {
    const lines: string[] = [];
    const over: string[] = [];
    const s = new LineSplitter(
      (l) => lines.push(l),
      10,
      (h) => over.push(h),
    );
    for (const chunk of ['{"a"', ":1}\r\n\n", '{"b":2}\n{"c', '":3}\n', "0123456789ABC", "DEF\n", "ok\n"])
      s.push(chunk);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', "ok"]);
    expect(over).toEqual(["0123456789ABC"]);
  });
});
