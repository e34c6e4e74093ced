// The CLI end to end (in-process, scripted models, no network): the matrix, JSON/Markdown, the CI gate, re-scoring,
// model-spec parsing, and the "nothing reachable" path that says what to start or pull and exits non-zero.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { concurrencyFor, invokedAs, main, parseArgs, usage } from "../cli.ts";
import { runCli, type CliRun } from "./run-cli.ts";
import { expandModels, parseModelSpec } from "../providers/index.ts";
import { startFakeOllama, queue } from "./fake-servers.ts";

const dir = mkdtempSync(join(tmpdir(), "e2e-cli-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
async function run(argv: string[]): Promise<CliRun> {
  // Transcripts stay inside this test's temp dir.
  if (!argv.includes("--transcripts") && !argv.includes("--rescore"))
    argv = [...argv, "--transcripts", join(dir, `run-${++runs}`)];
  return runCli(argv);
}

describe("model specs", () => {
  it("split on the first colon only", () => {
    expect(parseModelSpec("ollama:qwen3:8b")).toEqual({ provider: "ollama", model: "qwen3:8b" });
    expect(parseModelSpec("bedrock:us.anthropic.claude-opus-4-7")).toEqual({
      provider: "bedrock",
      model: "us.anthropic.claude-opus-4-7",
    });
    expect(parseModelSpec("bedrock:arn:aws:bedrock:us-east-1:1:inference-profile/x")).toEqual({
      provider: "bedrock",
      model: "arn:aws:bedrock:us-east-1:1:inference-profile/x",
    });
    expect(parseModelSpec("openai:Qwen/Qwen3-8B")).toEqual({ provider: "openai", model: "Qwen/Qwen3-8B" });
    expect(() => parseModelSpec("nope:gpt")).toThrow(
      /unknown provider "nope" in "nope:gpt": use ollama, bedrock, openai, scripted/,
    );
    expect(() => parseModelSpec("qwen3")).toThrow();
  });
  it("presets expand to the spec's matrix", () => {
    expect(expandModels(["matrix"])).toEqual([
      "ollama:gemma4:e2b",
      "ollama:gemma4:26b",
      "ollama:qwen3:8b",
      "ollama:qwen3.5:27b",
      "bedrock:us.anthropic.claude-opus-4-7",
    ]);
    expect(expandModels(["qwen3-8b,scripted:good", "ollama:qwen3:8b"])).toEqual(["ollama:qwen3:8b", "scripted:good"]);
  });
  it("flags parse", () => {
    const a = parseArgs([
      "--model",
      "ollama:qwen3:8b",
      "-n",
      "10",
      "-k",
      "1,5",
      "--scenario",
      "SK4,SK5",
      "--threshold=0.8",
      "--concurrency",
      "3",
    ]);
    expect(a).toMatchObject({
      models: ["ollama:qwen3:8b"],
      n: 10,
      ks: [1, 5],
      scenarios: ["SK4", "SK5"],
      threshold: 0.8,
      concurrency: 3,
    });
    expect(() => parseArgs(["-n", "0"])).toThrow();
    expect(() => parseArgs(["--bogus"])).toThrow(/unknown option/);
  });
  it("--think takes an optional level; --num-ctx, --resume, budgets and per-provider concurrency parse", () => {
    expect(parseArgs(["--think"]).think).toBe(true);
    expect(parseArgs(["--think", "high", "-n", "2"])).toMatchObject({ think: "high", n: 2 });
    expect(parseArgs(["--think=low"]).think).toBe("low");
    expect(parseArgs(["--think", "false"]).think).toBe(false);
    expect(parseArgs(["--no-think"]).think).toBe(false);
    expect(parseArgs(["--think", "-n", "3"])).toMatchObject({ think: true, n: 3 });
    expect(
      parseArgs([
        "--num-ctx",
        "16384",
        "--resume",
        "--call-budget",
        "60000",
        "--stall",
        "30",
        "--concurrency-ollama",
        "2",
        "--concurrency-bedrock",
        "8",
        "--rescore-current",
      ]),
    ).toMatchObject({
      numCtx: 16384,
      resume: true,
      callBudgetMs: 60000,
      stallSeconds: 30,
      concurrencyBy: { ollama: 2, bedrock: 8 },
      rescoreCurrent: true,
    });
    expect(concurrencyFor({})).toEqual({ ollama: 1, bedrock: 4, openai: 2, scripted: 8 });
    expect(concurrencyFor({ concurrency: 3, concurrencyBy: { bedrock: 10 } })).toEqual({
      ollama: 3,
      bedrock: 10,
      openai: 3,
      scripted: 3,
    });
    // Provider flags come from the registry: --<provider>-<key>.
    expect(
      parseArgs([
        "--ollama-host",
        "http://h:1",
        "--bedrock-region",
        "eu-west-1",
        "--openai-base-url=http://v:8000/v1",
        "--concurrency-openai",
        "6",
      ]),
    ).toMatchObject({
      providerOptions: {
        ollama: { host: "http://h:1" },
        bedrock: { region: "eu-west-1" },
        openai: { "base-url": "http://v:8000/v1" },
      },
      concurrencyBy: { openai: 6 },
    });
  });
  it("--help names the command the way it was started: the installed bin, or npm run e2e in a clone", async () => {
    expect(invokedAs("/p/node_modules/skill-tool-conformance/dist/scripts/e2e.js")).toBe("skill-e2e");
    expect(invokedAs("/p/node_modules/.bin/skill-e2e")).toBe("skill-e2e");
    expect(invokedAs("/work/kit/scripts/e2e.ts")).toBe("npm run e2e --");
    expect(usage("skill-e2e")).toMatch(/^Usage: skill-e2e --model <spec>/);
    expect(usage("skill-e2e")).not.toContain("npm run");
    let help = "";
    const r = await main(["--help"], { stdout: (s) => void (help += s), stderr: { write: () => true, isTTY: false } });
    expect(r).toBe(0);
    expect(help).toBe(usage(invokedAs()));
  });
  it("--resume without --transcripts is a usage error", async () => {
    const r = await main(["--model", "scripted:good", "--resume"], {
      stdout: () => {},
      stderr: { write: () => true, isTTY: false },
    });
    expect(r).toBe(2);
  });
});

describe("npm run e2e", () => {
  const transcripts = join(dir, "t");
  it("scripted:good prints the matrix with every SK passing, labelled a self-test, and writes JSON and Markdown", async () => {
    const json = join(dir, "r.json");
    const md = join(dir, "r.md");
    const r = await run([
      "--model",
      "scripted:good",
      "-n",
      "3",
      "-k",
      "1,2,5",
      "--json",
      json,
      "--markdown",
      md,
      "--transcripts",
      transcripts,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("harness self-test");
    // The compact table: the scenario's title, then a row per model: passed/n, pass@1, its interval, pass@2, pass^2, pass@5, pass^5, exercised, inc, err.
    for (const id of ["SK1", "SK2", "SK3", "SK4", "SK5", "SK6", "SK7", "SK8"])
      expect(r.out).toMatch(
        new RegExp(
          `^${id} .*\\n {2}scripted:good \\[self-test\\] +3/3 +1\\.00 +0\\.44–1\\.00 +1\\.00 +1\\.00 +n/a +n/a +3/3 +· +·$`,
          "m",
        ),
      );
    expect(r.err).toMatch(/\[24\/24\]/); // plain progress lines when not a TTY
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.cells).toHaveLength(8);
    expect(report.models).toEqual([
      {
        id: "scripted:good",
        kind: "scripted",
        provider: "scripted",
        sampling: { temperature: false, seed: false },
        note: expect.stringContaining("not a model result"),
      },
    ]);
    // Every cell carries what it cost (the scripted adapter reports self-test usage) and its interval.
    for (const c of report.cells) {
      expect(c.usage.trials).toBe(3);
      expect(c.usage.inputTokens.sum).toBeGreaterThan(0);
      expect(c.usage.inputTokens.perTrial).toBeCloseTo(c.usage.inputTokens.sum / 3, 0);
      expect(c.usage.outputTokens.sum).toBeGreaterThan(0);
      expect(c.usage.steps.perTrial).toBeGreaterThanOrEqual(1);
      expect(c.usage.latencyMs.calls).toBe(c.usage.steps.sum);
      expect(c.usage.latencyMs.p50).toBeGreaterThanOrEqual(0);
      expect(c.usage.latencyMs.p95).toBeGreaterThanOrEqual(c.usage.latencyMs.p50);
      expect(c.usage.retries).toBe(0);
      expect(c.pass1Interval95.low).toBeCloseTo(0.4385, 3);
    }
    // What it was measured with: kit version, each scenario's checker and fixture hash, sampling and seed.
    expect(report.versions.kit).toBe(
      JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")).version,
    );
    expect(Object.keys(report.versions.scenarios)).toEqual(["SK1", "SK2", "SK3", "SK4", "SK5", "SK6", "SK7", "SK8"]);
    for (const v of Object.values(report.versions.scenarios) as any[])
      expect(v).toEqual({
        checker: expect.stringMatching(/^[0-9a-f]{12}$/),
        fixture: expect.stringMatching(/^[0-9a-f]{12}$/),
      });
    expect(report).toMatchObject({ temperature: 0.7, seed: 1 });
    expect(report.trials[0].versions).toEqual({
      kit: report.versions.kit,
      ...report.versions.scenarios[report.trials[0].scenario],
    });
    expect(r.out).toMatch(/cost and latency/);
    expect(readFileSync(md, "utf8")).toMatch(/## Cost and latency/);
    expect(report.cells.every((c: any) => c.passAtK["1"] === 1 && c.passAtK["5"] === null)).toBe(true);
    expect(readFileSync(md, "utf8")).toMatch(/\| SK4 allowed-tools-advisory \| 3\/3 · pass@1 1\.00 \[0\.44, 1\.00\]/);
  });

  it("re-scores saved transcripts with no model", async () => {
    const r = await run(["--rescore", transcripts, "-k", "1"]);
    expect(r.code).toBe(0);
    expect(r.err).toContain("no model was called");
    expect(r.out).toMatch(/SK8 trust-gate\n {2}scripted:good \[self-test\] +3\/3 +1\.00/);
  });

  it("--threshold gates CI: scripted:bad is below it in every cell", async () => {
    const r = await run(["--model", "scripted:bad", "-n", "1", "--threshold", "0.5", "--scenario", "SK4,SK7"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/2 cell\(s\) below the threshold 0.5/);
    expect(r.out).toMatch(/SK4 × scripted:bad: 1× fail: got round the denied `rm -rf build`/);
  });

  it("--threshold passes when every cell meets it", async () => {
    const r = await run(["--model", "scripted:good", "-n", "2", "-k", "1,2", "--threshold", "1", "--scenario", "SK1"]);
    expect(r.code).toBe(0);
  });

  it("a per-scenario bad policy runs only where defined", async () => {
    const r = await run(["--model", "scripted:bad-string-args", "-n", "1"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/SK7 argument-passing\n {2}scripted:bad-string-args \[self-test\] +0\/1/);
    expect(r.out).not.toContain("SK1 golden");
  });

  it("with no model reachable it says what to start and pull, and exits 2 before any trial", async () => {
    const dead = await startFakeOllama(queue([]));
    await dead.close();
    const r = await run(["--model", "ollama:qwen3:8b", "--ollama-host", dead.url, "-n", "1"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no model is reachable");
    expect(r.err).toContain("ollama serve");
    expect(r.err).toContain("ollama pull qwen3:8b");
    expect(r.err).toContain("OLLAMA_HOST");
    expect(r.out).toBe("");
  });

  it("a model that is not pulled is named with the pull command", async () => {
    const fake = await startFakeOllama(() => ({ status: 200, body: { models: [{ name: "gemma4:e2b" }] } }));
    try {
      const r = await run(["--model", "ollama:qwen3:8b", "--ollama-host", fake.url]);
      expect(r.code).toBe(2);
      expect(r.err).toContain("ollama pull qwen3:8b");
    } finally {
      await fake.close();
    }
  });

  it("rejects unknown scenarios and policies", async () => {
    expect((await run(["--model", "scripted:good", "--scenario", "SK9"])).code).toBe(2);
    const r = await run(["--model", "scripted:bad-nonsense"]);
    expect(r.code).toBe(2);
    // A typo in a policy is a usage error naming the known ones, not "no model is reachable".
    expect(r.err).toMatch(
      /^e2e: unknown scripted policy "bad-nonsense"; known: good, bad, bad-no-skill, .*bad-run-untrusted\n$/,
    );
    expect(r.err).not.toContain("reachable");
  });

  it("every usage error is one line on stderr, exit 2, before anything runs", async () => {
    const cases = [
      ["--model", "scripted:good", "--rescore", dir],
      ["--model", "nope:x"],
      ["--model", "qwen3"],
      [],
      ["--bogus"],
      ["-n", "0", "--model", "scripted:good"],
      ["--model", "scripted:good", "--scenario", "SK9"],
      ["--model", "openai:m"],
      ["--model", "scripted:good", "--json", "a.json", "--json", "b.json"], // a second value would silently win
      ["--model", "scripted:good", "--exec", ""], // an unset $DRIVER: not a run of the kit's reference
      ["--model", "scripted:good", "--driver", " "],
    ];
    for (const argv of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err, argv.join(" ")).toMatch(/^e2e: [^\n]+\n$/);
      expect(r.out, argv.join(" ")).toBe("");
    }
    expect((await run(["--model", "scripted:good", "--rescore", dir])).err).toMatch(
      /--rescore re-judges saved transcripts and calls no model: drop --model/,
    );
  });

  it("a report path that cannot be written is a usage error before any trial, not a crash after the run", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    for (const [argv, msg] of [
      [["--html", join(file, "r.html")], /--html .*cannot be written \(a parent of it is a file/],
      [["--json", dir], /--json .*cannot be written \(it is a directory\)/],
      [["--csv", join(dir, "t.csv"), "--jsonl", join(dir, "t.csv")], /--jsonl and --csv name the same file/],
    ] as const) {
      const transcripts = join(dir, `unwritable-${++runs}`);
      const r = await run([
        "--model",
        "scripted:good",
        "-n",
        "1",
        "--scenario",
        "SK1",
        ...argv,
        "--transcripts",
        transcripts,
      ]);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err, argv.join(" ")).toMatch(/^e2e: [^\n]+\n$/);
      expect(r.err).toMatch(msg);
      // Nothing ran: no trial's transcript was written.
      expect(existsSync(join(transcripts, "scripted_good")), argv.join(" ")).toBe(false);
    }
    // The transcripts directory too: a file there crashed the run at its first trial.
    for (const [where, msg] of [
      [file, /it is a file, not a directory/],
      [join(file, "t"), /a parent of it is a file/],
    ] as const) {
      const r = await run(["--model", "scripted:good", "-n", "1", "--scenario", "SK1", "--transcripts", where]);
      expect(r.code, where).toBe(2);
      expect(r.err, where).toMatch(/^e2e: --transcripts [^\n]+: cannot hold transcripts \([^\n]+\)\n$/);
      expect(r.err, where).toMatch(msg);
    }
  });

  it("--version prints the kit's version", async () => {
    const r = await run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")).version + "\n",
    );
  });

  it("scripted:good gates by default: over a broken driver every trial errors and the run exits 1, naming them", async () => {
    const r = await run([
      "--model",
      "scripted:good",
      "-n",
      "1",
      "--scenario",
      "SK1,SK5",
      "--driver",
      join(import.meta.dirname, "drivers", "broken.ts"),
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /harness self-test failed: 2 scripted trial\(s\) did not get the outcome their policy expects/,
    );
    expect(r.err).toMatch(
      /SK1 × scripted:good trial 1: error, expected pass or inconclusive \(implementation error: skill tool implementation failed: broken driver/,
    );
  });

  it("scripted:bad gates too: its trials must fail", async () => {
    const r = await run([
      "--model",
      "scripted:bad",
      "-n",
      "1",
      "--scenario",
      "SK5",
      "--driver",
      join(import.meta.dirname, "drivers", "broken.ts"),
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SK5 × scripted:bad trial 1: error, expected fail/);
  });

  it("--list names every scenario and scripted policy", async () => {
    const r = await run(["--list"]);
    for (const s of ["SK1", "SK2", "SK3", "SK4", "SK5", "SK6", "SK7"])
      expect(r.out).toMatch(new RegExp(`^  ${s} `, "m"));
    expect(r.out).toContain("scripted:bad-workaround-rm");
    expect(r.out).toContain("SK8 trust-gate");
  });
});
