// The judge self-test: every policy of judge-policies.ts and every scenario's own good/bad policy is played through the
// real loop against the reference implementation, and each trial's outcome must be the one a careful human gives.
// Most run in-process (the provider is not what is tested there); every scenario's good policy and a sample of the
// cheats also run over the three loopback fakes (through the real `ollama` and Bedrock clients, and the OpenAI-compatible
// adapter's own fetch); every fault the model did
// not produce (transport, a reply that is not a model turn, a provider refusal, the context window) must come out as an
// error, and every reply that is the model's own output (an empty answer, an answer cut at the token limit, a
// malformed tool call, Bedrock's malformed_* stop reasons) must be judged: pass or fail, never excluded.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModule } from "../../conformance/driver/in-process.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { bedrockProvider } from "../providers/bedrock.ts";
import { ollamaProvider } from "../providers/ollama.ts";
import { openaiProvider } from "../providers/openai.ts";
import { policyProvider } from "../providers/scripted.ts";
import type { ModelProvider } from "../providers/types.ts";
import { runTrials } from "../run.ts";
import type { Policy, Scenario } from "../scenario.ts";
import { SCENARIOS, scenarioById } from "../scenarios/index.ts";
import type { Outcome, TrialResult } from "../score.ts";
import {
  BEDROCK_FAULTS,
  BEDROCK_MODEL_OUTPUT,
  OLLAMA_FAULTS,
  OLLAMA_MODEL_OUTPUT,
  OPENAI_FAULTS,
  OPENAI_MODEL_OUTPUT,
  chatCompletionReply,
  fromOpenAIWire,
  startFakeOpenAI,
  assistantTurnsIn,
  converseReply,
  fromConverseWire,
  fromOllamaWire,
  ollamaReply,
  playPolicy,
  startFakeBedrock,
  startFakeOllama,
  withoutFailedExchange,
  type FakeServer,
  type Reply,
} from "./fake-servers.ts";
import { JUDGE_CASES } from "./judge-policies.ts";
import { REVIEW_BEDROCK_FAULTS, REVIEW_CASES, REVIEW_OLLAMA_FAULTS } from "./judge-policies-review.ts";

type Wire = "ollama" | "bedrock" | "openai";

interface Expectation {
  label: string;
  scenario: Scenario;
  play: Policy;
  expect: Outcome;
  /** Over a fake: which wire, and optionally a fault reply given instead of the model's turn `faultAt`. */
  wire?: Wire;
  fault?: { reply: Reply; at: number };
  /** A model-output fault the model then recovers from: the policy no longer sees the failed exchange. */
  recovers?: boolean;
}

const ALL: Expectation[] = [
  ...SCENARIOS.map((s) => ({ label: `${s.id} good`, scenario: s, play: s.good, expect: "pass" as Outcome })),
  ...SCENARIOS.flatMap((s) =>
    Object.entries(s.bad).map(([k, b]) => ({
      label: `${s.id} bad-${k}`,
      scenario: s,
      play: b.play,
      expect: "fail" as Outcome,
    })),
  ),
  ...JUDGE_CASES.map((c) => ({
    label: `${c.scenario} ${c.name}`,
    scenario: scenarioById(c.scenario)!,
    play: c.play,
    expect: c.expect,
  })),
];
/** The review's policies: once each, to keep the self-test's run time in check. */
const REVIEW: Expectation[] = REVIEW_CASES.map((c) => ({
  label: `${c.scenario} ${c.name}`,
  scenario: scenarioById(c.scenario)!,
  play: c.play,
  expect: c.expect,
}));

/** Over the wire: every good policy, a sample of the cheats, and every fault (at the final-answer position of SK5 and mid-trial of SK1). */
function wireCases(): Expectation[] {
  const out: Expectation[] = [];
  const sample = [
    ...JUDGE_CASES.filter((c) =>
      /if\/then|hallucinated tool|fig leaf in turn 1|cd into the scripts|does nothing useful/.test(c.name),
    ),
    // Text and several tool calls in one message, an answer split around a call, thinking in the content: through the real clients.
    ...REVIEW_CASES.filter((c) =>
      /^parallel calls: skill|answer split over two|<think> in content|false success mentioning review/.test(c.name),
    ),
  ];
  for (const wire of ["ollama", "bedrock", "openai"] as const) {
    for (const s of SCENARIOS) out.push({ label: `${s.id} good`, scenario: s, play: s.good, expect: "pass", wire });
    for (const c of sample)
      out.push({
        label: `${c.scenario} ${c.name}`,
        scenario: scenarioById(c.scenario)!,
        play: c.play,
        expect: c.expect,
        wire,
      });
    const faults = {
      ollama: { ...OLLAMA_FAULTS, ...REVIEW_OLLAMA_FAULTS },
      bedrock: { ...BEDROCK_FAULTS, ...REVIEW_BEDROCK_FAULTS },
      openai: OPENAI_FAULTS,
    }[wire];
    for (const [name, reply] of Object.entries(faults)) {
      out.push({
        label: `SK5 fault ${name}`,
        scenario: scenarioById("SK5")!,
        play: scenarioById("SK5")!.good,
        expect: "error",
        wire,
        fault: { reply, at: 1 },
      });
      out.push({
        label: `SK1 fault ${name}`,
        scenario: scenarioById("SK1")!,
        play: scenarioById("SK1")!.good,
        expect: "error",
        wire,
        fault: { reply, at: 2 },
      });
    }
    for (const m of { ollama: OLLAMA_MODEL_OUTPUT, bedrock: BEDROCK_MODEL_OUTPUT, openai: OPENAI_MODEL_OUTPUT }[wire]) {
      const s = scenarioById(m.scenario)!;
      out.push({
        label: `${m.scenario} model output: ${m.name}`,
        scenario: s,
        play: s.good,
        expect: m.expect,
        wire,
        fault: { reply: m.reply, at: m.at },
        ...(m.recovers ? { recovers: true } : {}),
      });
    }
  }
  return out;
}

let impl: Implementation;
const results: { e: Expectation; r: TrialResult }[] = [];

async function inProcess(cases: Expectation[], n: number, tag = "judge"): Promise<void> {
  const providers = cases.map((e, i) =>
    policyProvider(`${tag}:${i}`, (s) => (s.id === e.scenario.id ? e.play : undefined), SCENARIOS),
  );
  const rs = await runTrials({
    scenarios: SCENARIOS,
    providers,
    implementation: impl,
    n,
    concurrency: 4,
    temperature: 0,
  });
  for (const r of rs) results.push({ e: cases[Number(r.model.slice(tag.length + 1))]!, r });
}

async function overWire(e: Expectation): Promise<void> {
  // Given once: an empty Bedrock turn is left out of the history, so the count of assistant turns may not move on.
  let given = false;
  const respond = (_path: string, body: any): Reply => {
    if (e.fault && !given && assistantTurnsIn(body) === e.fault.at) return ((given = true), e.fault.reply);
    const wire = { ollama: fromOllamaWire, bedrock: fromConverseWire, openai: fromOpenAIWire }[e.wire!](body);
    const decoded = e.recovers ? withoutFailedExchange(wire) : wire;
    const step = playPolicy(decoded, () => e.play, [e.scenario]);
    return { ollama: ollamaReply, bedrock: converseReply, openai: chatCompletionReply }[e.wire!](
      step.text ?? "",
      step.calls ?? [],
    );
  };
  const fake: FakeServer = await { ollama: startFakeOllama, bedrock: startFakeBedrock, openai: startFakeOpenAI }[
    e.wire!
  ](respond);
  const fast = { retries: 0, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 10_000 };
  const provider: ModelProvider = {
    ollama: () => ollamaProvider({ model: "fake:1b", host: fake.url, ...fast }),
    bedrock: () =>
      bedrockProvider({
        modelId: "fake.model",
        region: "us-east-1",
        endpoint: fake.url,
        credentials: { accessKeyId: "AKIAFAKE", secretAccessKey: "fake" },
        ...fast,
      }),
    openai: () => openaiProvider({ model: "fake-model", baseUrl: `${fake.url}/v1`, ...fast }),
  }[e.wire!]();
  try {
    const [r] = await runTrials({
      scenarios: [e.scenario],
      providers: [provider],
      implementation: impl,
      n: 1,
      concurrency: 1,
      temperature: 0,
    });
    results.push({ e, r: r! });
  } finally {
    provider.close?.();
    await fake.close();
  }
}

beforeAll(async () => {
  impl = await loadModule(join(import.meta.dirname, "..", "..", "reference", "index.ts"));
  await inProcess(ALL, 2);
  await inProcess(REVIEW, 1, "review");
  const wire = wireCases();
  for (let i = 0; i < wire.length; i += 6) await Promise.all(wire.slice(i, i + 6).map(overWire));
  // ~410 trials, ~160 of them over loopback servers: 2 min alone, over 3 min on the shared machine's load.
}, 600_000);

afterAll(async () => {
  await impl?.dispose();
});

describe("judge self-test", () => {
  it("every trial gets the outcome a careful human gives", () => {
    const wrong = results.filter(({ e, r }) => r.outcome !== e.expect);
    console.log(`judge self-test: ${results.length - wrong.length}/${results.length} trials as expected`);
    const lines = wrong.map(
      ({ e, r }) => `${e.wire ?? "in-process"} ${e.label}: expected ${e.expect}, got ${r.outcome} (${r.reason})`,
    );
    expect(lines).toEqual([]);
    expect(results.length).toBeGreaterThan(200);
  });
  it("faults are errors of the right kind, never the model's answer", () => {
    const faults = results.filter(({ e }) => e.fault && e.expect === "error");
    expect(faults.length).toBeGreaterThan(30);
    for (const { e, r } of faults)
      expect(
        ["transport", "malformed_response", "refused", "context_window"],
        `${e.wire} ${e.label}: ${r.reason}`,
      ).toContain(r.errorKind);
    const kindOf = (label: string) =>
      faults.filter(({ e }) => e.wire === "bedrock" && e.label.endsWith(` ${label}`)).map(({ r }) => r.errorKind);
    expect(kindOf("content_filtered")).toEqual(["refused", "refused"]);
    expect(kindOf("guardrail_intervened")).toEqual(["refused", "refused"]);
    expect(kindOf("model_context_window_exceeded")).toEqual(["context_window", "context_window"]);
    const openai = (label: string) =>
      faults.filter(({ e }) => e.wire === "openai" && e.label.endsWith(` ${label}`)).map(({ r }) => r.errorKind);
    expect(openai("content_filter")).toEqual(["refused", "refused"]);
    expect(openai("context length exceeded (HTTP 400)")).toEqual(["context_window", "context_window"]);
  });
  it("the model's own output is judged on both wires, never excluded", () => {
    const own = results.filter(({ e }) => e.label.includes(" model output: "));
    expect(own.length).toBe(OLLAMA_MODEL_OUTPUT.length + BEDROCK_MODEL_OUTPUT.length + OPENAI_MODEL_OUTPUT.length);
    for (const { e, r } of own) expect(r.outcome, `${e.wire} ${e.label}: ${r.reason}`).not.toBe("error");
  });
  it("cells count inconclusive trials apart and say how often the situation arose", () => {
    const inconclusive = results.filter(({ r }) => r.outcome === "inconclusive");
    expect(inconclusive.length).toBeGreaterThan(0);
    for (const { r } of inconclusive) expect(r.exercised).toBe(false);
    for (const { r } of results.filter(({ r }) => r.outcome === "pass")) expect(r.exercised).toBe(true);
  });
});
