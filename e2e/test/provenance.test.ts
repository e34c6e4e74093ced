// Provenance through the CLI (issue 21 item 4), against loopback servers that answer as the real ones do: the JSON
// report and every transcript pin what served each model (Ollama: digest, quantisation, parameter size, family,
// server version, host; Bedrock: model id or ARN, region, endpoint; OpenAI-compatible: base URL and what /models says)
// and the sampling settings its requests carried; --rescore says when one model's transcripts came from different
// weights. Each provider is reached through the registry by its flags (--ollama-host, --bedrock-*, --openai-base-url).
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.ts";
import { servedBedrock } from "../providers/bedrock.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import {
  QWEN3_8B,
  chatCompletionReply,
  converseReply,
  fromConverseWire,
  fromOllamaWire,
  fromOpenAIWire,
  ollamaReply,
  ollamaServer,
  playPolicy,
  startFakeBedrock,
  startFakeOllama,
  startFakeOpenAI,
} from "./fake-servers.ts";

const dir = mkdtempSync(join(tmpdir(), "e2e-provenance-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;
const firstLine = (file: string) => JSON.parse(readFileSync(file, "utf8").split("\n")[0]!);

/** A fake Ollama serving qwen3:8b with the given digest, playing every scenario's good policy. */
function goodOllama(digest: string) {
  return startFakeOllama(
    ollamaServer([{ ...QWEN3_8B, digest }], (_path, body) => {
      const step = playPolicy(fromOllamaWire(body), (s) => s.good, SCENARIOS);
      return ollamaReply(step.text ?? "", step.calls ?? []);
    }),
  );
}

describe("provenance of the model", () => {
  it("Ollama: the report and each transcript pin digest, quantisation, size, server version; --rescore flags a moved tag", async () => {
    const a = await goodOllama(QWEN3_8B.digest);
    const json = join(dir, "ollama.json");
    const first = await run([
      "--model",
      "ollama:qwen3:8b",
      "--ollama-host",
      a.url,
      "-n",
      "1",
      "--scenario",
      "SK1",
      "--transcripts",
      join(dir, "a"),
      "--json",
      json,
    ]);
    await a.close();
    expect(first.code).toBe(0);
    const served = {
      provider: "ollama",
      model: "qwen3:8b",
      endpoint: a.url,
      digest: QWEN3_8B.digest,
      quantization: "Q4_K_M",
      parameterSize: "8.2B",
      family: "qwen3",
      format: "gguf",
      serverVersion: "0.12.3",
    };
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.models[0]).toMatchObject({ id: "ollama:qwen3:8b", served, sent: { temperature: 0.7, seed: 1 } });
    expect(report.trials[0].served).toEqual(served);
    expect(firstLine(join(dir, "a", "ollama_qwen3_8b", "SK1-001.jsonl")).served).toEqual(served);
    expect(first.out).toContain(
      `served: ollama:qwen3:8b: digest 500a1f067a9f, Q4_K_M, 8.2B, qwen3, server 0.12.3, ${a.url}`,
    );

    // The tag moved: the same name now serves other weights. Mixed into one directory, --rescore says so.
    const b = await goodOllama("9f1e" + QWEN3_8B.digest.slice(4));
    expect(
      (
        await run([
          "--model",
          "ollama:qwen3:8b",
          "--ollama-host",
          b.url,
          "-n",
          "2",
          "--scenario",
          "SK1",
          "--transcripts",
          join(dir, "b"),
        ])
      ).code,
    ).toBe(0);
    await b.close();
    cpSync(join(dir, "b", "ollama_qwen3_8b", "SK1-002.jsonl"), join(dir, "a", "ollama_qwen3_8b", "SK1-002.jsonl"));
    const rescored = await run(["--rescore", join(dir, "a"), "--json", join(dir, "rescored.json")]);
    expect(rescored.code).toBe(0);
    expect(rescored.err).toMatch(
      /ollama:qwen3:8b: the transcripts were made by different weights \(500a1f067a9f.* and 9f1e1f067a9f.*\)/,
    );
    expect(rescored.out).toMatch(/SERVED BY DIFFERENT WEIGHTS: ollama:qwen3:8b/);
    expect(JSON.parse(readFileSync(join(dir, "rescored.json"), "utf8")).rescore.served).toEqual([
      { model: "ollama:qwen3:8b", values: [QWEN3_8B.digest, "9f1e" + QWEN3_8B.digest.slice(4)] },
    ]);
    // One model's own transcripts, all from one digest: nothing to say.
    expect((await run(["--rescore", join(dir, "b")])).err).not.toMatch(/different weights/);
  });

  it("Bedrock: the model id or ARN, the region and the endpoint; the sampling sent (Converse has no seed)", async () => {
    const env = {
      AWS_ACCESS_KEY_ID: process.env["AWS_ACCESS_KEY_ID"],
      AWS_SECRET_ACCESS_KEY: process.env["AWS_SECRET_ACCESS_KEY"],
    };
    process.env["AWS_ACCESS_KEY_ID"] = "AKIAFAKEFAKEFAKE";
    process.env["AWS_SECRET_ACCESS_KEY"] = "fake";
    const s = await startFakeBedrock((_path, body) => {
      if (!body.toolConfig) return converseReply("pong");
      const step = playPolicy(fromConverseWire(body), (x) => x.good, SCENARIOS);
      return converseReply(step.text ?? "", step.calls ?? []);
    });
    try {
      const json = join(dir, "bedrock.json");
      const r = await run([
        "--model",
        "bedrock:us.anthropic.claude-opus-4-7",
        "--bedrock-endpoint",
        s.url,
        "--bedrock-region",
        "eu-west-1",
        "-n",
        "1",
        "--scenario",
        "SK5",
        "--max-tokens",
        "900",
        "--transcripts",
        join(dir, "bedrock"),
        "--json",
        json,
      ]);
      expect(r.code).toBe(0);
      const report = JSON.parse(readFileSync(json, "utf8"));
      expect(report.models[0]).toMatchObject({
        served: {
          provider: "bedrock",
          model: "us.anthropic.claude-opus-4-7",
          modelId: "us.anthropic.claude-opus-4-7",
          region: "eu-west-1",
          endpoint: s.url,
        },
        sent: { temperature: 0.7, maxTokens: 900 },
        sampling: { temperature: true, seed: false },
      });
      const arn = "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-opus-4-7";
      expect(await servedBedrock({ modelId: arn, region: "eu-west-1" })).toEqual({
        provider: "bedrock",
        model: arn,
        modelArn: arn,
        region: "eu-west-1",
      });
    } finally {
      await s.close();
      for (const [k, v] of Object.entries(env)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    }
  });

  it("OpenAI-compatible: reached by --openai-base-url through the registry; the base URL and /models facts are pinned", async () => {
    const s = await startFakeOpenAI((path, body) => {
      if (path === "GET /v1/models")
        return {
          status: 200,
          body: {
            object: "list",
            data: [
              { id: "qwen3-8b", object: "model", owned_by: "vllm", root: "Qwen/Qwen3-8B-AWQ", max_model_len: 32768 },
            ],
          },
        };
      const step = playPolicy(fromOpenAIWire(body), (x) => x.good, SCENARIOS);
      return chatCompletionReply(step.text ?? "", step.calls ?? []);
    });
    try {
      const json = join(dir, "openai.json");
      const r = await run([
        "--model",
        "openai:qwen3-8b",
        "--openai-base-url",
        `${s.url}/v1`,
        "-n",
        "1",
        "--scenario",
        "SK1,SK2",
        "--transcripts",
        join(dir, "openai"),
        "--json",
        json,
      ]);
      expect(r.code).toBe(0);
      const report = JSON.parse(readFileSync(json, "utf8"));
      expect(report.cells.map((c: any) => [c.scenario, c.passed, c.n])).toEqual([
        ["SK1", 1, 1],
        ["SK2", 1, 1],
      ]);
      expect(report.models[0]).toMatchObject({
        served: {
          provider: "openai",
          model: "qwen3-8b",
          endpoint: `${s.url}/v1`,
          ownedBy: "vllm",
          root: "Qwen/Qwen3-8B-AWQ",
          maxModelLen: 32768,
        },
        sent: { temperature: 0.7, seed: 1 },
      });
    } finally {
      await s.close();
    }
  });
});
