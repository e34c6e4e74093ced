// Discovery and activation over stdio, the Rust implementation beside the reference: both drivers spawned once,
// both driven by the same bare JSON-RPC client (no schema validation, so the kit's own checking is not in the
// figure), on the same generated tree. Discovery is a fresh session's create + catalog, timed until the whole
// answer line has arrived; activation is ACTIVATIONS first activations of distinct skills in one session, timed
// per call (p50/p99 in the note). The reference's entry is the Rust entry's baseline: a peer, measured in the same
// run. Memory is the Rust driver's resident set after its catalog minus before its session, per skill.
// Without a built Rust driver the Rust entries fail with the command that builds it: they are never left out.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { median, REFERENCE_DRIVER_COMMAND, RUST_DRIVER, type Benchmark } from "./matrix.ts";
import { sharedSkillTree, type SkillTree } from "./generate.ts";

const ACTIVATIONS = 200;

/** A bare newline-delimited JSON-RPC client: one request at a time, answers returned as raw lines. */
class BareClient {
  private nextId = 0;
  private waiting: { resolve(line: string): void; reject(err: Error): void } | null = null;
  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on("line", (line) => this.waiting?.resolve(line));
    child.on("exit", (code) => this.waiting?.reject(new Error(`driver exited (${code})`)));
  }

  static async start(command: string[]): Promise<BareClient> {
    const [bin, ...args] = command;
    const client = new BareClient(spawn(bin!, args, { stdio: ["pipe", "pipe", "pipe"] }));
    await client.request("initialize", { kitVersion: "bench", specVersion: "1" });
    return client;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Send one request and wait for the next line: the answer (no hook is configured, so the peers never ask). */
  request(method: string, params: unknown): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: ++this.nextId, method, params }) + "\n");
    });
  }

  async stop(): Promise<void> {
    await this.request("shutdown", {}).catch(() => undefined);
    this.child.stdin.end();
    this.child.kill();
  }
}

function rss(pid: number): number {
  const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kib ? Number(kib) * 1024 : NaN;
}

interface Peer {
  label: "reference" | "rust";
  command(): string[];
}

const PEERS: Peer[] = [
  { label: "reference", command: () => ["sh", "-c", `exec ${REFERENCE_DRIVER_COMMAND}`] },
  {
    label: "rust",
    command() {
      if (!existsSync(RUST_DRIVER))
        throw new Error(`no Rust driver at ${RUST_DRIVER}: build it first (bash implementations/rust/build.sh)`);
      return [RUST_DRIVER];
    },
  },
];

async function newSession(client: BareClient, root: string): Promise<{ sessionId: string; catalogLine: string }> {
  const created = JSON.parse(
    await client.request("session/create", { config: { skill_roots: [root], skill_trust: { trusted_roots: [root] } } }),
  );
  const sessionId = created.result.sessionId as string;
  return { sessionId, catalogLine: await client.request("session/catalog", { sessionId }) };
}

function entriesIn(catalogLine: string): number {
  return (JSON.parse(catalogLine).result?.entries ?? []).length;
}

function discoveryEntry(peer: Peer, n: number, label: string): Benchmark {
  let tree: SkillTree | null = null;
  let client: BareClient | null = null;
  return {
    id: `stdio.discovery.${peer.label}.${label}`,
    title: `${peer.label} driver over stdio: a fresh session's create + catalog over ${n} generated skills (answer line received)`,
    baseline: peer.label === "rust" ? `stdio.discovery.reference.${label}` : undefined,
    reps: 5,
    async setup() {
      tree = await sharedSkillTree(n);
      client = await BareClient.start(peer.command());
      await newSession(client, tree.root); // warm-up: JIT, page cache, allocator
    },
    async run() {
      const t0 = performance.now();
      const { sessionId, catalogLine } = await newSession(client!, tree!.root);
      const ms = performance.now() - t0;
      await client!.request("session/close", { sessionId });
      const entries = entriesIn(catalogLine);
      if (entries !== n) throw new Error(`${peer.label}: catalog has ${entries} skills, expected ${n}`);
      return `${entries} skills, ${(catalogLine.length / 1048576).toFixed(1)} MiB answer, ${ms.toFixed(0)} ms`;
    },
    async teardown() {
      await client?.stop();
    },
  };
}

function activationEntry(peer: Peer, n: number, label: string): Benchmark {
  let tree: SkillTree | null = null;
  let client: BareClient | null = null;
  let sessionId = "";
  let memory = "";
  let next = 0;
  return {
    id: `stdio.activation.${peer.label}.${label}`,
    title: `${peer.label} driver over stdio: ${ACTIVATIONS} first activations of distinct skills among ${n}, one session (p50/p99 per call in the note)`,
    baseline: peer.label === "rust" ? `stdio.activation.reference.${label}` : undefined,
    reps: 3,
    async setup() {
      tree = await sharedSkillTree(n);
      client = await BareClient.start(peer.command());
      const before = rss(client.pid);
      sessionId = (await newSession(client, tree.root)).sessionId;
      const after = rss(client.pid);
      memory = `; resident set +${((after - before) / 1048576).toFixed(1)} MiB for the catalog = ${Math.round((after - before) / n)} B/skill`;
      next = 0;
    },
    async run() {
      const times: number[] = [];
      for (let i = 0; i < ACTIVATIONS; i++) {
        // Stepping by 37 (prime to the tree's size) visits distinct skills: every call is a first activation.
        const name = tree!.names[(next++ * 37) % tree!.names.length]!;
        const t0 = performance.now();
        const line = await client!.request("skill/call", { sessionId, params: { name }, invocation: "model" });
        times.push(performance.now() - t0);
        if (!line.includes('"kind":"ok"'))
          throw new Error(`${peer.label}: activating ${name} did not answer ok: ${line.slice(0, 200)}`);
      }
      const sorted = [...times].sort((a, b) => a - b);
      const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
      return `p50 ${us(median(times))}, p99 ${us(sorted[Math.floor(sorted.length * 0.99)]!)} per call, round trip included${memory}`;
    },
    async teardown() {
      await client?.stop();
    },
  };
}

export function benchmarks(opts: { skills?: number } = {}): Benchmark[] {
  const n = opts.skills ?? 10_000;
  const label = n % 1000 === 0 ? `${n / 1000}k` : String(n);
  // Each reference entry comes before the Rust entry it is the baseline of.
  return PEERS.flatMap((p) => [discoveryEntry(p, n, label), activationEntry(p, n, label)]);
}
