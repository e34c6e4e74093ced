// The scripted adapter: plays a fixed policy per scenario instead of asking a model, so the harness can test
// itself (loop, tools, checkers, scoring) deterministically and offline. `scripted:good` plays each scenario's good
// policy; `scripted:bad` each scenario's characteristic mistake; `scripted:bad-<name>` one named mistake (only in the
// scenarios that define it). Results are harness self-tests, never model results (kind "scripted"). It reports a
// plausible usage (characters of the conversation ÷ 4 as input tokens, of its reply as output tokens) so the cost
// columns of a self-test report are exercised; those numbers describe no model.
import { PolicyView, type Policy, type Scenario } from "../scenario.ts";
import type { ProviderEntry } from "./registry.ts";
import type { ChatRequest, ChatResponse, ModelProvider } from "./types.ts";

export interface PolicyChoice {
  /** Policy for a scenario, or undefined when this choice has nothing to play there. */
  for(scenario: Scenario): Policy | undefined;
}

export function choosePolicy(name: string): PolicyChoice {
  if (name === "good") return { for: (s) => s.good };
  if (name === "bad") return { for: (s) => Object.values(s.bad)[0]?.play };
  if (name.startsWith("bad-")) {
    const key = name.slice(4);
    return { for: (s) => s.bad[key]?.play };
  }
  throw new Error(`unknown scripted policy "${name}": use good, bad, or bad-<name> (see e2e/README.md)`);
}

/** Every policy name with what it does, for --help and the README. */
export function policyNames(scenarios: readonly Scenario[]): { name: string; scenario: string; mistake: string }[] {
  const out = [
    { name: "good", scenario: "all", mistake: "the right behaviour" },
    { name: "bad", scenario: "all", mistake: "each scenario's first (characteristic) mistake" },
  ];
  for (const s of scenarios)
    for (const [k, b] of Object.entries(s.bad)) out.push({ name: `bad-${k}`, scenario: s.id, mistake: b.mistake });
  return out;
}

export function scriptedProvider(name: string, scenarios: readonly Scenario[]): ModelProvider {
  const choice = choosePolicy(name);
  const known = new Set(policyNames(scenarios).map((p) => p.name));
  if (!known.has(name)) throw new Error(`unknown scripted policy "${name}"; known: ${[...known].join(", ")}`);
  return policyProvider(`scripted:${name}`, (s) => choice.for(s), scenarios);
}

/** A scripted provider for any policy per scenario (the judge self-test plays its own policies through it). */
export function policyProvider(
  id: string,
  pick: (s: Scenario) => Policy | undefined,
  scenarios: readonly Scenario[],
): ModelProvider {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  return {
    id,
    kind: "scripted",
    sampling: { temperature: false, seed: false },
    appliesTo: (sid) => {
      const s = byId.get(sid);
      return s !== undefined && pick(s) !== undefined;
    },
    async chat(req: ChatRequest): Promise<ChatResponse> {
      const sid = req.context?.scenario;
      const scenario = sid ? byId.get(sid) : undefined;
      if (!scenario) throw new Error(`${id}: the request names no known scenario (${sid ?? "none"})`);
      const policy = pick(scenario);
      if (!policy) throw new Error(`${id} has no policy for ${scenario.id}`);
      const step = policy(new PolicyView(req));
      const turnNo = req.messages.filter((m) => m.role === "assistant").length;
      const toolCalls = (step.calls ?? []).map((c, i) => ({
        id: `scripted_${turnNo}_${i}`,
        name: c.name,
        arguments: c.arguments,
      }));
      const text = step.text ?? "";
      return {
        text,
        toolCalls,
        stopReason: toolCalls.length ? "tool_use" : "end",
        attempts: 1,
        usage: selfTestUsage(req, text, toolCalls),
      };
    },
  };
}

/** Roughly 4 characters a token, as a tokenizer would see the request and the reply: self-test numbers only. */
function selfTestUsage(
  req: ChatRequest,
  text: string,
  calls: unknown[],
): { inputTokens: number; outputTokens: number } {
  const chars = (v: unknown) => JSON.stringify(v).length;
  // The structured result beside a tool message is never sent to a model: not counted.
  const sent = req.messages.map((m) => (m.role === "tool" ? { ...m, result: undefined } : m));
  return {
    inputTokens: Math.ceil((chars(sent) + chars(req.tools)) / 4),
    outputTokens: Math.max(1, Math.ceil((text.length + chars(calls) - 2) / 4)),
  };
}

/** The scripted entry of the provider registry (registry.ts): harness self-tests, no server. */
export const SCRIPTED: ProviderEntry = {
  name: "scripted",
  help: [
    "scripted:good         the deterministic good policy of every scenario (harness self-test)",
    "scripted:bad          every scenario's characteristic mistake (each cell should fail)",
    "scripted:bad-<name>   one named mistake, run only where defined (--list shows them)",
  ],
  kind: "scripted",
  concurrency: 8,
  reaches: [],
  flags: [],
  validate(model, ctx) {
    const known = policyNames(ctx.scenarios).map((p) => p.name);
    return known.includes(model) ? undefined : `unknown scripted policy "${model}"; known: ${known.join(", ")}`;
  },
  // Nothing serves a scripted policy: no provenance to record.
  probe: async () => ({ ok: true }),
  create: (model, ctx) => scriptedProvider(model, ctx.scenarios),
};
