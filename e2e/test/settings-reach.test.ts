// Issue 28 item 11: a request setting is recorded in a trial's transcript only when it reaches that trial's model:
// --think and --num-ctx are Ollama's; Bedrock, OpenAI-compatible servers and scripted policies never get them, so
// their transcripts do not claim them. --resume compares what was recorded with what would reach the same model.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../cli.ts";
import { settingsReaching } from "../providers/index.ts";

const dir = mkdtempSync(join(tmpdir(), "skill-e2e-reach-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const all = { maxTokens: 512, think: true as const, numCtx: 8192, maxSteps: 9 };

describe("settings that reach the model", () => {
  it("each provider's transcripts keep only the wire settings it sends (maxSteps, the harness's own, always)", () => {
    expect(settingsReaching("ollama:qwen3:8b", all)).toEqual(all);
    expect(settingsReaching("bedrock:us.anthropic.claude-opus-4-7", all)).toEqual({ maxTokens: 512, maxSteps: 9 });
    expect(settingsReaching("openai:gpt-5", all)).toEqual({ maxTokens: 512, maxSteps: 9 });
    expect(settingsReaching("scripted:good", all)).toEqual({ maxSteps: 9 });
  });

  it("a run with --think and --num-ctx records neither for a model that never gets them, and --resume still takes its transcripts", async () => {
    const transcripts = join(dir, "t");
    const argv = [
      "--model",
      "scripted:good",
      "-n",
      "1",
      "--scenario",
      "SK1",
      "--think",
      "--num-ctx",
      "8192",
      "--max-steps",
      "9",
      "--transcripts",
      transcripts,
    ];
    const io = { stdout: () => {}, stderr: { write: () => true, isTTY: false } };
    expect(await main(argv, io)).toBe(0);
    const files = readdirSync(transcripts, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".jsonl"));
    expect(files).toHaveLength(1);
    const meta = JSON.parse(readFileSync(join(transcripts, files[0]!), "utf8").split("\n")[0]!);
    expect(meta.settings).toEqual({ maxSteps: 9 });
    let err = "";
    expect(
      await main([...argv, "--resume"], {
        stdout: () => {},
        stderr: { write: (s: string) => ((err += s), true), isTTY: false },
      }),
    ).toBe(0);
    expect(err).not.toMatch(/other settings/);
  }, 60_000);
});
