// --shard and --merge: the shards of a run hold each planned trial exactly once, and merging their transcript
// directories gives the report of the unsharded run (same trials in the same order, same cells and numbers; only
// timings and transcript paths differ). A merge that is missing a shard or a trial, or mixes runs, says so and fails.
// Scripted policies through the real CLI, in-process, no network.
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.ts";
import { findTranscripts } from "../run.ts";
import { checkShards, parseShard, pickShard, type ShardManifest } from "../shard.ts";

const dir = mkdtempSync(join(tmpdir(), "e2e-shard-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

describe("shards", () => {
  it("--shard i/n parses; anything else is refused with the form it wants", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShard("1/1")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/2", "3/2", "1/0", "2", "a/b", "1/2/3", "-1/2"])
      expect(() => parseShard(bad), bad).toThrow(/i\/n/);
  });

  it("the shards of a plan hold every job exactly once, in plan order, and differ in size by at most one", () => {
    for (let jobs = 0; jobs <= 23; jobs++) {
      const plan = Array.from({ length: jobs }, (_, i) => `job${i}`);
      for (let count = 1; count <= 6; count++) {
        const shards = Array.from({ length: count }, (_, i) => pickShard(plan, { index: i + 1, count }));
        const all = shards
          .flat()
          .map((x) => x.index)
          .sort((a, b) => a - b);
        expect(all, `${jobs} jobs / ${count}`).toEqual(plan.map((_, i) => i));
        for (const s of shards) expect(s.map((x) => x.job)).toEqual(s.map((x) => plan[x.index]));
        const sizes = shards.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
    expect(pickShard(["a", "b"], undefined).map((x) => x.job)).toEqual(["a", "b"]);
  });

  it("checkShards names what is missing, doubled or different", () => {
    const m = (
      index: number,
      count: number,
      extra: Partial<ShardManifest> = {},
    ): { file: string; manifest: ShardManifest } => ({
      file: `/d${index}/shard-${index}-of-${count}.json`,
      manifest: {
        kind: "skill-tool-e2e-shard",
        version: 1,
        shard: { index, count },
        implementation: "ref",
        n: 2,
        scenarios: ["SK1"],
        models: [{ id: "scripted:good", kind: "scripted" }],
        temperature: 0.7,
        kit: "0.1.0",
        total: 2,
        trials: [{ index: index - 1, model: "scripted:good", scenario: "SK1", trial: index }],
        ...extra,
      },
    });
    expect(checkShards([m(2, 2), m(1, 2)]).trials.map((t) => t.index)).toEqual([0, 1]);
    expect(() => checkShards([])).toThrow(/no shard manifest/);
    expect(() => checkShards([m(1, 2)])).toThrow(/shard\(s\) 2\/2 missing/);
    expect(() => checkShards([m(1, 2), m(1, 2), m(2, 2)])).toThrow(/shard 1\/2 is given twice/);
    expect(() => checkShards([m(1, 2), m(2, 2, { n: 3 })])).toThrow(/not shards of the same run: they differ in n/);
    expect(() => checkShards([m(1, 2), m(2, 2, { temperature: 0 })])).toThrow(/differ in temperature/);
    // What served a model is each shard's own probe: machines differ (server version, host), so it does not block the
    // merge; every distinct record is kept for the merge to report.
    const served = (digest: string, serverVersion: string) => ({
      models: [
        {
          id: "ollama:qwen3:8b",
          kind: "real" as const,
          served: { provider: "ollama", model: "qwen3:8b", digest, serverVersion },
        },
      ],
    });
    const ok = checkShards([m(1, 2, served("aaa", "0.12.3")), m(2, 2, served("aaa", "0.12.4"))]);
    expect(ok.served.get("ollama:qwen3:8b")?.map((s) => s.serverVersion)).toEqual(["0.12.3", "0.12.4"]);
    expect(
      checkShards([m(1, 2, served("aaa", "1")), m(2, 2, served("aaa", "1"))]).served.get("ollama:qwen3:8b"),
    ).toHaveLength(1);
  });
});

const TIMING_AND_PATHS = ["createdAt", "durationMs", "latenciesMs", "transcript", "transcripts", "merged"];
/**
 * Scripted runs are not reproducible to the token: each trial's values (versions, TODO lines, tokens the skill body
 * carries) come from a secret derived from its fresh workspace path, so the reason lines and token counts of two runs
 * of the same trials differ. What must not differ is every trial's identity and verdict and every cell's numbers.
 */
const PER_TRIAL_VALUES = ["reason", "reasons", "inputTokens", "outputTokens"];

/** The report without the keys given (at any depth); of latencyMs only the count of calls stays. */
function without(report: any, keys: string[]): unknown {
  const strip = (v: any): any => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !keys.includes(k))
          .map(([k, x]) => [k, k === "latencyMs" ? { calls: (x as any).calls } : strip(x)]),
      );
    }
    return v;
  };
  return strip(report);
}
const comparable = (report: any) => without(report, TIMING_AND_PATHS);

describe("--merge", () => {
  // Two models (one passing, one failing every cell) × three scenarios × 3 trials: 18 trials, 9 per shard.
  const base = [
    "--model",
    "scripted:good",
    "--model",
    "scripted:bad",
    "-n",
    "3",
    "-k",
    "1,2",
    "--scenario",
    "SK1,SK5,SK7",
  ];
  const whole = join(dir, "whole");
  const s1 = join(dir, "shards", "s1");
  const s2 = join(dir, "shards", "s2");
  let unsharded: any;
  let wholeOut = "";

  beforeAll(async () => {
    const a = await run([...base, "--transcripts", whole, "--json", join(dir, "whole.json")]);
    const b = await run([...base, "--shard", "1/2", "--transcripts", s1, "--json", join(dir, "s1.json")]);
    const c = await run([...base, "--shard", "2/2", "--transcripts", s2, "--json", join(dir, "s2.json")]);
    expect([a.code, b.code, c.code]).toEqual([0, 0, 0]);
    expect(b.out).toContain("SHARD 1/2: 9 of the run's 18 trials");
    unsharded = JSON.parse(readFileSync(join(dir, "whole.json"), "utf8"));
    wholeOut = a.out;
  });

  it("a shard runs only its share and says so in its report", () => {
    const shard = JSON.parse(readFileSync(join(dir, "s1.json"), "utf8"));
    expect(shard.shard).toEqual({ index: 1, count: 2, trials: 9, total: 18 });
    expect(shard.trials).toHaveLength(9);
    const manifest = JSON.parse(readFileSync(join(s1, "shard-1-of-2.json"), "utf8"));
    expect(manifest.trials.map((t: any) => t.index)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16]);
  });

  it("two shards merged: the unsharded run's trials, verdicts and numbers; each trial exactly as its shard judged it", async () => {
    const json = join(dir, "merged.json");
    const r = await run(["--merge", s1, s2, "-k", "1,2", "--json", json]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("merged 18 trial(s) from 2 shard(s)");
    const merged = JSON.parse(readFileSync(json, "utf8"));
    expect(merged.merged).toEqual({ shards: 2, from: [s1, s2] });
    expect(unsharded.trials).toHaveLength(18);
    // Not vacuous: the run has passes and failures in different cells.
    expect(unsharded.cells.map((c: any) => c.passed)).toEqual([3, 3, 3, 0, 0, 0]);
    expect(without(merged, [...TIMING_AND_PATHS, ...PER_TRIAL_VALUES])).toEqual(
      without(unsharded, [...TIMING_AND_PATHS, ...PER_TRIAL_VALUES]),
    );
    // Re-judged at the merge exactly as each shard judged it when it ran (reason lines and tokens included).
    const shardTrials = [
      ...JSON.parse(readFileSync(join(dir, "s1.json"), "utf8")).trials,
      ...JSON.parse(readFileSync(join(dir, "s2.json"), "utf8")).trials,
    ];
    const key = (t: any) => `${t.model} ${t.scenario} ${t.trial}`;
    expect(comparable(merged.trials)).toEqual(
      comparable(merged.trials.map((t: any) => shardTrials.find((x) => key(x) === key(t)))),
    );
  });

  it("the unsharded run's own transcripts, split as the shards split them, merge into its report exactly", async () => {
    // Same trials, same per-trial values: only timings and paths may differ, and the terminal matrix is the same.
    const split = join(dir, "split");
    for (const [i, shardDir] of [
      [1, s1],
      [2, s2],
    ] as const) {
      const manifest = JSON.parse(readFileSync(join(shardDir, `shard-${i}-of-2.json`), "utf8"));
      cpSync(join(shardDir, `shard-${i}-of-2.json`), join(split, `p${i}`, `shard-${i}-of-2.json`));
      for (const t of manifest.trials) {
        const rel = join(
          t.model.replace(/[^A-Za-z0-9._-]+/g, "_"),
          `${t.scenario}-${String(t.trial).padStart(3, "0")}.jsonl`,
        );
        cpSync(join(whole, rel), join(split, `p${i}`, rel));
      }
    }
    const json = join(dir, "split.json");
    const r = await run(["--merge", join(split, "p1"), join(split, "p2"), "-k", "1,2", "--json", json]);
    expect(r.code, r.err).toBe(0);
    expect(comparable(JSON.parse(readFileSync(json, "utf8")))).toEqual(comparable(unsharded));
    // Up to the trailing transcripts line; without the merged note and the latency columns.
    const text = (s: string) =>
      s
        .split(/\ntranscripts: /)[0]!
        .trimEnd()
        .split("\n")
        .filter((l) => !/^merged:|^ {2}\/|\d+(ms|\.\ds)\b/.test(l));
    expect(text(r.out).join("\n")).toEqual(text(wholeOut).join("\n"));
    expect(text(r.out).join("\n")).toMatch(
      /SK7 argument-passing\n {2}scripted:good \[self-test\] +3\/3 +1\.00 +0\.44–1\.00/,
    );
  });

  it("shards downloaded into one directory (an Actions artifact merge) merge the same; given twice, counted once", async () => {
    const root = join(dir, "artifacts");
    cpSync(join(dir, "shards"), root, { recursive: true });
    const json = join(dir, "merged-root.json");
    const r = await run(["--merge", root, join(root, "s1"), "-k", "1,2", "--json", json]);
    expect(r.code, r.err).toBe(0);
    expect(comparable(JSON.parse(readFileSync(json, "utf8")))).toEqual(
      comparable(JSON.parse(readFileSync(join(dir, "merged.json"), "utf8"))),
    );
  });

  it("a missing shard is a usage error naming it; shards of different commands are refused", async () => {
    const r = await run(["--merge", s1, "-k", "1,2"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/shard\(s\) 2\/2 missing/);
    const other = join(dir, "other");
    expect(
      (await run([...base.slice(0, 4), "-n", "2", ...base.slice(6), "--shard", "2/2", "--transcripts", other])).code,
    ).toBe(0);
    const mixed = await run(["--merge", s1, other]);
    expect(mixed.code).toBe(2);
    expect(mixed.err).toMatch(/not shards of the same run: they differ in n, total/);
  });

  it("a planned trial without a finished transcript is listed unfinished and fails the merge; a stray transcript is left out", async () => {
    const root = join(dir, "damaged");
    cpSync(join(dir, "shards"), root, { recursive: true });
    // Plan order: good SK1 1-3, SK5 1-3, SK7 1-3, then bad; shard 1 holds the even indexes.
    unlinkSync(join(root, "s1", "scripted_good", "SK5-002.jsonl"));
    // A trial cut off mid-way (no end event) counts as started but unfinished.
    const cut = join(root, "s2", "scripted_bad", "SK7-003.jsonl");
    writeFileSync(
      cut,
      readFileSync(cut, "utf8")
        .split("\n")
        .filter((l) => !l.includes('"type":"end"'))
        .join("\n"),
    );
    cpSync(join(whole, "scripted_good", "SK1-001.jsonl"), join(root, "stray", "scripted_good", "SK1-009.jsonl"), {
      recursive: true,
    });
    const stray = join(root, "stray", "scripted_good", "SK1-009.jsonl");
    writeFileSync(stray, readFileSync(stray, "utf8").replace('"trial":1,', '"trial":9,'));
    const json = join(dir, "damaged.json");
    const r = await run(["--merge", root, "-k", "1", "--json", json]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/2 planned trial\(s\) have no finished transcript/);
    expect(r.err).toMatch(/left out .*SK1-009\.jsonl: not a trial of the shards' plan/);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.interrupted.unfinished).toEqual([
      { scenario: "SK5", model: "scripted:good", trial: 2, started: false },
      { scenario: "SK7", model: "scripted:bad", trial: 3, started: true },
    ]);
    expect(report.trials).toHaveLength(16);
    expect(r.out.replace(/\n {2}/g, " ")).toMatch(
      /INTERRUPTED: 2 trial\(s\) did not finish \(1 cut off, 1 not started\) .*rerun the shard that holds them with --resume/,
    );
  });

  it("shards whose transcripts were served by different weights merge, and the report says their numbers mix two models", async () => {
    const root = join(dir, "weights");
    cpSync(join(dir, "shards"), root, { recursive: true });
    // As if shard 2's machine had pulled other weights under the same tag: its transcripts' meta and manifest say so.
    const digest = (d: string) => ({ provider: "scripted", model: "good", digest: d });
    for (const [sub, d] of [
      ["s1", "1111aaaa"],
      ["s2", "2222bbbb"],
    ] as const) {
      for (const f of findTranscripts(join(root, sub)).filter((x) => x.includes("scripted_good"))) {
        const lines = readFileSync(f, "utf8").split("\n");
        writeFileSync(
          f,
          [JSON.stringify({ ...JSON.parse(lines[0]!), served: digest(d) }), ...lines.slice(1)].join("\n"),
        );
      }
      const mf = join(root, sub, `shard-${sub === "s1" ? 1 : 2}-of-2.json`);
      const manifest = JSON.parse(readFileSync(mf, "utf8"));
      manifest.models[0].served = digest(d);
      writeFileSync(mf, JSON.stringify(manifest));
    }
    const json = join(dir, "weights.json");
    const r = await run(["--merge", root, "-k", "1", "--json", json]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /scripted:good was served differently by the shards' machines: digest 1111aaaa \| digest 2222bbbb/,
    );
    expect(r.out).toMatch(
      /SERVED BY DIFFERENT WEIGHTS: scripted:good's transcripts were made by 1111aaaa and 2222bbbb/,
    );
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.rescore.served).toEqual([{ model: "scripted:good", values: ["1111aaaa", "2222bbbb"] }]);
    expect(report.models[0].served).toEqual(digest("1111aaaa"));
  });

  it("--merge takes no --model or --transcripts; --shard takes no --rescore", async () => {
    expect((await run(["--merge", s1, "--model", "scripted:good"])).code).toBe(2);
    expect((await run(["--merge", s1, s2, "--transcripts", s1])).err).toMatch(
      /takes no --model, --rescore, --shard, --transcripts/,
    );
    expect((await run(["--rescore", s1, "--shard", "1/2"])).code).toBe(2);
    expect((await run(["--model", "scripted:good", "--shard", "3/2"])).code).toBe(2);
  });
});
