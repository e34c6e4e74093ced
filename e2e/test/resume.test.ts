// Resumable runs, end to end through the CLI against a loopback Ollama (the real `ollama` client): a run of -n 4
// interrupted halfway by Ctrl-C (SIGINT) writes a report marked interrupted with what finished; rerun with --resume
// it makes only the missing model calls (counted at the fake, per trial) and ends with the same report as an
// uninterrupted run. Also: a partial transcript is never scored, and --resume refuses transcripts of other versions.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import {
  fromOllamaWire,
  ollamaReply,
  ollamaShow,
  playPolicy,
  scenarioOf,
  startFakeOllama,
  type FakeServer,
} from "./fake-servers.ts";

const dir = mkdtempSync(join(tmpdir(), "e2e-resume-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

/** A fake Ollama playing every scenario's good policy, counting model calls per trial (scenario + seed). */
async function fake(
  onChat?: (count: number) => void,
): Promise<FakeServer & { calls: Map<string, number>; total(): number; reset(): void }> {
  const calls = new Map<string, number>();
  let count = 0;
  const server = await startFakeOllama((path, body) => {
    if (path === "GET /api/tags") return { status: 200, body: { models: [{ name: "fake:1b" }] } };
    if (path === "POST /api/show") return ollamaShow(["completion", "tools"]);
    const decoded = fromOllamaWire(body);
    const key = `${scenarioOf(decoded.messages, SCENARIOS).id} seed ${body.options.seed}`;
    calls.set(key, (calls.get(key) ?? 0) + 1);
    onChat?.(++count);
    const step = playPolicy(decoded, (s) => s.good, SCENARIOS);
    return ollamaReply(step.text ?? "", step.calls ?? []);
  });
  return Object.assign(server, {
    calls,
    total: () => [...calls.values()].reduce((a, b) => a + b, 0),
    reset: () => calls.clear(),
  });
}

const args = (url: string, transcripts: string, json: string) => [
  "--model",
  "ollama:fake:1b",
  "--ollama-host",
  url,
  "-n",
  "4",
  "--scenario",
  "SK1,SK3",
  "--transcripts",
  transcripts,
  "--json",
  json,
];

/** The parts of a report that must not depend on how the run was split (timings and paths do). */
function comparable(report: any) {
  return {
    cells: report.cells.map((c: any) => ({
      ...c,
      usage: { ...c.usage, latencyMs: { calls: c.usage.latencyMs.calls } },
    })),
    trials: report.trials.map((t: any) => ({
      scenario: t.scenario,
      model: t.model,
      trial: t.trial,
      outcome: t.outcome,
      reason: t.reason,
      usage: { ...t.usage, latenciesMs: t.usage.latenciesMs.length },
      versions: t.versions,
    })),
    versions: report.versions,
    settings: report.settings,
    n: report.n,
  };
}

describe("never lose a run", () => {
  const scripted = (transcripts: string, ...more: string[]) => [
    "--model",
    "scripted:good",
    "-n",
    "1",
    "--scenario",
    "SK1",
    "--transcripts",
    transcripts,
    ...more,
  ];
  it("a second run into a finished transcripts directory is refused in one line, exit 2, before anything runs", async () => {
    const transcripts = join(dir, "finished");
    expect((await run(scripted(transcripts))).code).toBe(0);
    const before = readFileSync(join(transcripts, "scripted_good", "SK1-001.jsonl"), "utf8");
    const same = await run(scripted(transcripts));
    expect(same.code).toBe(2);
    expect(same.err).toMatch(
      /^e2e: --transcripts \S+ already holds 1 transcript\(s\) \(made with the same settings\); add --resume to finish that run, --overwrite to replace it, or choose another directory\n$/,
    );
    expect(same.out).toBe("");
    const other = await run(scripted(transcripts, "--temperature", "0.2", "--max-steps", "9"));
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/made with temperature 0\.7 \(this run: 0\.2\), maxSteps unset \(this run: 9\)\)/);
    expect(readFileSync(join(transcripts, "scripted_good", "SK1-001.jsonl"), "utf8")).toBe(before);
  });
  it("--resume refuses changed settings and says which; --overwrite replaces the run", async () => {
    const transcripts = join(dir, "settings");
    expect((await run(scripted(transcripts))).code).toBe(0);
    const resumed = await run(scripted(transcripts, "--resume", "--seed", "7"));
    expect(resumed.code).toBe(2);
    expect(resumed.err).toMatch(
      /^e2e: --resume: the transcripts in \S+ were made with seed 1 \(this run: 7\); run with the same settings/,
    );
    expect((await run(scripted(transcripts, "--resume"))).code).toBe(0);
    const over = await run(scripted(transcripts, "--temperature", "0.2", "--overwrite"));
    expect(over.code).toBe(0);
    expect(over.err).toMatch(/--overwrite: removed 1 transcript\(s\) of the earlier run/);
    expect(
      JSON.parse(readFileSync(join(transcripts, "scripted_good", "SK1-001.jsonl"), "utf8").split("\n")[0]!).temperature,
    ).toBe(0.2);
  });
});

describe("a run is of one implementation", () => {
  it("--resume against another implementation is refused, naming both; its trials are never reused", async () => {
    const transcripts = join(dir, "implementation");
    const base = ["--model", "scripted:good", "-n", "1", "--scenario", "SK1", "--transcripts", transcripts];
    expect((await run(base)).code).toBe(0);
    const other = await run([...base, "--resume", "--driver", join(import.meta.dirname, "drivers", "broken.ts")]);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(
      /^e2e: --resume: the transcripts in \S+ were made with implementation skill-tool-reference \S+ \(typescript\) \(this run: broken-driver 0\.0\.0 \(typescript\)\)/,
    );
  });
});

describe("--resume after Ctrl-C", () => {
  it("makes only the missing model calls and ends with the same report as an uninterrupted run", async () => {
    // 1. The reference: one uninterrupted run.
    const whole = await fake();
    const full = await run(args(whole.url, join(dir, "whole"), join(dir, "whole.json")));
    await whole.close();
    expect(full.code).toBe(0);
    const perTrial = whole.calls;
    expect(perTrial.size).toBe(8);

    // 2. The same run, Ctrl-C'd when half of its model calls have been made.
    const half = Math.floor(whole.total() / 2);
    let sent = false;
    const split = await fake((n) => {
      if (n === half && !sent) {
        sent = true;
        process.emit("SIGINT");
      }
    });
    const transcripts = join(dir, "split");
    const first = await run(args(split.url, transcripts, join(dir, "first.json")));
    expect(first.code).toBe(1);
    expect(first.err).toMatch(/interrupted/);
    const interrupted = JSON.parse(readFileSync(join(dir, "first.json"), "utf8"));
    expect(interrupted.interrupted.unfinished.length).toBeGreaterThan(0);
    expect(interrupted.interrupted.unfinished.filter((u: any) => u.started)).toHaveLength(1);
    expect(interrupted.trials.length + interrupted.interrupted.unfinished.length).toBe(8);
    expect(first.out).toMatch(/INTERRUPTED: \d+ trial\(s\) did not finish/);
    // The trial cut off mid-way was never scored.
    const finishedKeys = new Set(interrupted.trials.map((t: any) => `${t.scenario} seed ${t.trial}`));
    const firstCalls = new Map(split.calls);
    split.reset();

    // 3. --resume: only the trials that did not finish reach the model, each with all of its calls.
    const second = await run([...args(split.url, transcripts, join(dir, "second.json")), "--resume"]);
    await split.close();
    expect(second.code).toBe(0);
    const missing = [...perTrial.keys()].filter((k) => !finishedKeys.has(k));
    expect([...split.calls.keys()].sort()).toEqual(missing.sort());
    for (const k of missing) expect(split.calls.get(k), k).toBe(perTrial.get(k));
    expect(split.total()).toBe(missing.reduce((a, k) => a + perTrial.get(k)!, 0));
    // Finished trials were not asked again; in all, the model saw no more than the wasted part of the cut-off trial.
    expect(split.total()).toBeLessThan(whole.total());
    expect([...firstCalls.values()].reduce((a, b) => a + b, 0) + split.total()).toBeLessThanOrEqual(
      whole.total() + Math.max(...perTrial.values()),
    );

    const resumed = JSON.parse(readFileSync(join(dir, "second.json"), "utf8"));
    expect(resumed.interrupted).toBeUndefined();
    expect(resumed.resumed).toBe(finishedKeys.size);
    expect(comparable(resumed)).toEqual(comparable(JSON.parse(readFileSync(join(dir, "whole.json"), "utf8"))));
  });

  it("--resume reruns a transcript made under another checker/fixture version, and one that was cut off", async () => {
    const f = await fake();
    const transcripts = join(dir, "versions");
    expect(
      (
        await run([
          "--model",
          "ollama:fake:1b",
          "--ollama-host",
          f.url,
          "-n",
          "2",
          "--scenario",
          "SK1",
          "--transcripts",
          transcripts,
        ])
      ).code,
    ).toBe(0);
    const perTrial = new Map(f.calls);
    f.reset();
    // Trial 1: pretend its checker changed since. Trial 2: cut off before its end line.
    const t1 = join(transcripts, "ollama_fake_1b", "SK1-001.jsonl");
    const lines = readFileSync(t1, "utf8").split("\n");
    const meta = JSON.parse(lines[0]!);
    meta.versions.checker = "000000000000";
    writeFileSync(t1, [JSON.stringify(meta), ...lines.slice(1)].join("\n"));
    const t2 = join(transcripts, "ollama_fake_1b", "SK1-002.jsonl");
    writeFileSync(
      t2,
      readFileSync(t2, "utf8")
        .split("\n")
        .filter((l) => !l.includes('"type":"end"'))
        .join("\n"),
    );
    // A changed checker would replace trial 1's transcript: refused, in one line naming the change, until --overwrite.
    const refused = await run([
      "--model",
      "ollama:fake:1b",
      "--ollama-host",
      f.url,
      "-n",
      "2",
      "--scenario",
      "SK1",
      "--transcripts",
      transcripts,
      "--resume",
    ]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /^e2e: --resume: the transcripts in \S+ were made with SK1 checker 000000000000 → [0-9a-f]{12}; run with the same settings, or add --overwrite to run those trials again\n$/,
    );
    expect(f.total()).toBe(0);
    expect(
      (
        await run([
          "--model",
          "ollama:fake:1b",
          "--ollama-host",
          f.url,
          "-n",
          "2",
          "--scenario",
          "SK1",
          "--transcripts",
          transcripts,
          "--resume",
          "--overwrite",
        ])
      ).code,
    ).toBe(0);
    expect(f.calls).toEqual(perTrial);
    // With nothing left to do, a second resume calls the model not at all.
    f.reset();
    const again = await run([
      "--model",
      "ollama:fake:1b",
      "--ollama-host",
      f.url,
      "-n",
      "2",
      "--scenario",
      "SK1",
      "--transcripts",
      transcripts,
      "--resume",
    ]);
    expect(again.code).toBe(0);
    expect(f.total()).toBe(0);
    expect(again.out).toMatch(/resumed: 2 trial/);
    await f.close();
  });
});
