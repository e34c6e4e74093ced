// The pieces a long run leans on, each against an independent reference: the Wilson interval (textbook values and
// coverage by exact binomial sums), usage sums and nearest-rank percentiles, the call budget that caps retries, the
// progress display's stalled calls and ETA, and --rescore saying when a checker or fixture changed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../cli.ts";
import { wilson } from "../interval.ts";
import { Progress } from "../progress.ts";
import { BudgetExhaustedError, withRetry } from "../providers/retry.ts";
import { ollamaProvider } from "../providers/ollama.ts";
import type { Job } from "../run.ts";
import type { TranscriptEvent } from "../transcript.ts";
import { cellUsage, percentile, trialUsage } from "../usage.ts";
import { loadModule } from "../../conformance/driver/in-process.ts";
import { bedrockProvider } from "../providers/bedrock.ts";
import { runAll } from "../run.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import {
  converseReply,
  fromConverseWire,
  fromOllamaWire,
  ollamaReply,
  playPolicy,
  startFakeBedrock,
  startFakeOllama,
} from "./fake-servers.ts";

const dir = mkdtempSync(join(tmpdir(), "e2e-runs-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Wilson 95% interval", () => {
  it("matches published values", () => {
    // Wilson (1927) / Newcombe (1998) table: 81/263 → [0.2553, 0.3662]; 0/10 → [0, 0.2775]; 10/10 → [0.7225, 1].
    const a = wilson(81, 263)!;
    expect(a.low).toBeCloseTo(0.2553, 4);
    expect(a.high).toBeCloseTo(0.3662, 4);
    expect(wilson(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.2775, 4) });
    expect(wilson(10, 10)).toEqual({ low: expect.closeTo(0.7225, 4), high: 1 });
    expect(wilson(0, 0)).toBeNull();
    expect(() => wilson(3, 2)).toThrow(RangeError);
  });

  it("covers the true rate about 95% of the time (exact binomial sums, n = 10…40)", () => {
    for (const n of [10, 20, 40]) {
      for (const p of [0.2, 0.5, 0.8]) {
        let coverage = 0;
        let pmf = (1 - p) ** n;
        for (let c = 0; c <= n; c++) {
          if (c > 0) pmf *= ((n - c + 1) / c) * (p / (1 - p));
          const i = wilson(c, n)!;
          if (i.low <= p && p <= i.high) coverage += pmf;
        }
        expect(coverage, `n=${n} p=${p}`).toBeGreaterThan(0.9);
        expect(coverage, `n=${n} p=${p}`).toBeLessThan(0.99);
      }
    }
  });
});

describe("usage", () => {
  const assistant = (
    usage: { inputTokens?: number; outputTokens?: number } | undefined,
    attempts: number,
    latencyMs: number,
  ): TranscriptEvent => ({
    type: "assistant",
    step: 1,
    turn: 1,
    text: "",
    toolCalls: [],
    stopReason: "end",
    attempts,
    latencyMs,
    ...(usage ? { usage } : {}),
  });

  it("sums a trial's tokens, steps, retries and latencies; counts calls without usage", () => {
    const u = trialUsage([
      assistant({ inputTokens: 100, outputTokens: 10 }, 1, 200),
      assistant({ inputTokens: 150, outputTokens: 5 }, 3, 900),
      assistant(undefined, 2, 50),
    ]);
    expect(u).toEqual({
      inputTokens: 250,
      outputTokens: 15,
      steps: 3,
      retries: 3,
      latenciesMs: [200, 900, 50],
      callsWithoutUsage: 1,
    });
  });

  it("a cell sums trials, means per trial, and takes nearest-rank p50/p95 over all calls", () => {
    const t = (lat: number[], tokens: number) => ({
      inputTokens: tokens,
      outputTokens: 1,
      steps: lat.length,
      retries: 0,
      latenciesMs: lat,
      callsWithoutUsage: 0,
    });
    const c = cellUsage([t([10, 20, 30], 300), t([40], 100)]);
    expect(c).toMatchObject({
      trials: 2,
      inputTokens: { sum: 400, perTrial: 200 },
      steps: { sum: 4, perTrial: 2 },
      latencyMs: { p50: 20, p95: 40, calls: 4 },
    });
    expect(percentile([], 50)).toBeNull();
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 50)).toBe(50);
  });
});

describe("a call's total budget", () => {
  it("stops retrying when the next wait would overrun the budget, whatever the retry count", async () => {
    let clock = 0;
    let attempts = 0;
    const err = await withRetry(
      async (_attempt, left) => {
        attempts++;
        clock += Math.min(40, left); // each attempt times out after 40 ms, or at what is left of the budget
        throw Object.assign(new Error("timeout"), { status_code: 503 });
      },
      {
        retries: 100,
        baseMs: 10,
        maxMs: 10,
        isTransient: () => true,
        budgetMs: 100,
        now: () => clock,
        random: () => 0,
      },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(BudgetExhaustedError);
    // 40 + 40 + the 20 left = the budget; a fourth attempt would start with nothing left. 100 retries change nothing.
    expect(attempts).toBe(3);
    expect(clock).toBeLessThanOrEqual(100);
  });

  it("through the adapter: a slow server gets one attempt per budget share, and the error says to raise --call-budget", async () => {
    const s = await startFakeOllama(() => new Promise(() => {}));
    try {
      const err = await ollamaProvider({
        model: "m",
        host: s.url,
        timeoutMs: 10_000,
        retries: 50,
        baseDelayMs: 5,
        maxDelayMs: 5,
        budgetMs: 300,
      })
        .chat({ messages: [{ role: "user", content: "x" }], tools: [], temperature: 0 })
        .catch((e) => e);
      expect(err.message).toMatch(/--call-budget/);
      // Each attempt is cut to what is left of the budget, so 50 retries cannot stretch it.
      expect(s.requests.length).toBeLessThanOrEqual(2);
    } finally {
      await s.close();
    }
  });
});

describe("progress", () => {
  const job = (scenario: string, model: string, trial: number) =>
    ({ scenario: { id: scenario }, provider: { id: model }, trial }) as unknown as Job;

  it("shows a call that waits past the stall threshold while it waits, with its retry, and an ETA per model", () => {
    let now = 0;
    let out = "";
    const p = new Progress(
      { write: (s: string) => ((out += s), true), isTTY: false },
      { stallMs: 60_000, now: () => now, tickMs: 0, concurrencyOf: () => 2 },
    );
    p.start(4, [
      job("SK1", "ollama:a", 1),
      job("SK1", "ollama:a", 2),
      job("SK1", "ollama:a", 3),
      job("SK2", "bedrock:b", 1),
    ]);
    const w = p.watch(job("SK1", "ollama:a", 1));
    w.callStarted(3);
    now = 30_000;
    p.tick();
    expect(out).not.toMatch(/stalled/);
    now = 61_000;
    p.tick();
    expect(out).toMatch(/stalled: SK1 × ollama:a #1 step 3: waiting 61s for the model/);
    w.callRetrying({ attempt: 1, delayMs: 2000, error: "HTTP 503: loading" });
    expect(out).toMatch(/retrying SK1 × ollama:a #1 step 3 \(attempt 2 in 2s\): HTTP 503/);
    p.tick();
    expect(out.match(/stalled:/g)).toHaveLength(1); // once per threshold crossed, not every tick
    now = 125_000;
    p.tick();
    expect(out.match(/stalled:/g)).toHaveLength(2);
    expect(p.stalled()).toEqual([expect.stringMatching(/waiting 125s .*attempt 2; last: HTTP 503/)]);
    w.callEnded();
    expect(p.stalled()).toEqual([]);
    p.result(
      {
        scenario: "SK1",
        model: "ollama:a",
        modelKind: "real",
        trial: 1,
        outcome: "pass",
        reason: "ok",
        durationMs: 120_000,
      },
      1,
    );
    // 2 trials left × 120 s ÷ 2 in flight = 2 min.
    expect(p.eta("ollama:a")).toBe(120_000);
    expect(out).toMatch(/ollama:a: 1\/3, ETA 2m00s/);
    p.result(
      {
        scenario: "SK1",
        model: "ollama:a",
        modelKind: "real",
        trial: 2,
        outcome: "inconclusive" as never,
        reason: "?",
        durationMs: 1,
      },
      2,
    );
    expect(out).toMatch(/\[2\/4\] SK1 × ollama:a #2: inconclusive/);
    p.finish();
  });
});

describe("--rescore and versions", () => {
  it("says when a checker changed since a transcript was made, leaves it out, and scores it only with --rescore-current", async () => {
    const io = () => {
      const o = { out: "", err: "" };
      return {
        o,
        io: {
          stdout: (s: string) => void (o.out += s),
          stderr: { write: (s: string) => ((o.err += s), true), isTTY: false },
        },
      };
    };
    const transcripts = join(dir, "t");
    const a = io();
    expect(
      await main(["--model", "scripted:good", "-n", "2", "--scenario", "SK1,SK2", "--transcripts", transcripts], a.io),
    ).toBe(0);
    const file = join(transcripts, "scripted_good", "SK1-001.jsonl");
    const lines = readFileSync(file, "utf8").split("\n");
    const meta = JSON.parse(lines[0]!);
    expect(meta.versions).toEqual({
      kit: expect.any(String),
      checker: expect.stringMatching(/^[0-9a-f]{12}$/),
      fixture: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(meta).toMatchObject({ provider: "scripted", temperature: 0.7, seed: 1, model: "scripted:good" });
    meta.versions.checker = "0123456789ab";
    writeFileSync(file, [JSON.stringify(meta), ...lines.slice(1)].join("\n"));

    const b = io();
    const json = join(dir, "rescore.json");
    expect(await main(["--rescore", transcripts, "--json", json], b.io)).toBe(0);
    expect(b.o.out).toMatch(/CHANGED: 1 transcript\(s\) were made under another checker\/fixture and are left out/);
    expect(b.o.out).toMatch(/SK1 × scripted:good #1: checker 0123456789ab → [0-9a-f]{12}/);
    expect(b.o.out).toMatch(/SK1 golden\n {2}scripted:good \[self-test\] +1\/1 /);
    expect(JSON.parse(readFileSync(json, "utf8")).rescore).toMatchObject({
      scoredUnderCurrent: false,
      changed: [{ scenario: "SK1", trial: 1 }],
    });

    const c = io();
    expect(await main(["--rescore", transcripts, "--rescore-current"], c.io)).toBe(0);
    expect(c.o.out).toMatch(/are scored under the current one/);
    expect(c.o.out).toMatch(/SK1 golden\n {2}scripted:good \[self-test\] +2\/2 /);
  });

  it("never scores a partial transcript", async () => {
    const transcripts = join(dir, "partial");
    const sink = { stdout: () => {}, stderr: { write: () => true, isTTY: false } };
    expect(
      await main(["--model", "scripted:good", "-n", "2", "--scenario", "SK1", "--transcripts", transcripts], sink),
    ).toBe(0);
    const file = join(transcripts, "scripted_good", "SK1-002.jsonl");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        /\{"type":"end","outcome":"completed"/,
        '{"type":"end","outcome":"interrupted"',
      ),
    );
    let out = "";
    expect(
      await main(["--rescore", transcripts], {
        stdout: (s) => void (out += s),
        stderr: { write: () => true, isTTY: false },
      }),
    ).toBe(0);
    expect(out).toMatch(/SK1 golden\n {2}scripted:good \[self-test\] +1\/1 /);
    expect(out).toMatch(/not scored: 1 partial transcript/);
  });
});

describe("per-provider concurrency", () => {
  it("a local Ollama gets one trial at a time while Bedrock runs several, in the same run", async () => {
    const inFlight = { ollama: 0, bedrock: 0 };
    const peak = { ollama: 0, bedrock: 0 };
    const slow = async <T>(who: "ollama" | "bedrock", reply: () => T): Promise<T> => {
      peak[who] = Math.max(peak[who], ++inFlight[who]);
      await new Promise((r) => setTimeout(r, 100));
      inFlight[who]--;
      return reply();
    };
    const sk1 = SCENARIOS.filter((s) => s.id === "SK1");
    const o = await startFakeOllama((_p, body) =>
      slow("ollama", () => {
        const step = playPolicy(fromOllamaWire(body), (s) => s.good, sk1);
        return ollamaReply(step.text ?? "", step.calls ?? []);
      }),
    );
    const b = await startFakeBedrock((_p, body) =>
      slow("bedrock", () => {
        const step = playPolicy(fromConverseWire(body), (s) => s.good, sk1);
        return converseReply(step.text ?? "", step.calls ?? []);
      }),
    );
    const impl = await loadModule(join(import.meta.dirname, "..", "..", "reference", "index.ts"));
    const bp = bedrockProvider({
      modelId: "us.anthropic.claude-opus-4-7",
      region: "us-east-1",
      endpoint: b.url,
      credentials: { accessKeyId: "AKIAFAKE", secretAccessKey: "x" },
    });
    try {
      const summary = await runAll({
        scenarios: sk1,
        providers: [ollamaProvider({ model: "a", host: o.url }), ollamaProvider({ model: "b", host: o.url }), bp],
        implementation: impl,
        n: 3,
        concurrency: 1,
        concurrencyByProvider: { ollama: 1, bedrock: 3 },
        temperature: 0,
      });
      expect(summary.results.map((r) => r.outcome)).toEqual(Array(9).fill("pass"));
      expect(peak.ollama).toBe(1);
      expect(peak.bedrock).toBeGreaterThan(1);
      expect(peak.bedrock).toBeLessThanOrEqual(3);
    } finally {
      bp.close();
      await impl.dispose();
      await o.close();
      await b.close();
    }
  });
});
