// Model specs → providers. A spec is `<provider>:<model>`, split on the FIRST colon only (`ollama:qwen3:8b` is
// provider ollama, model qwen3:8b). A spec without a colon is a preset name (the spec's §13.2 matrix).
// Owns: parseModelSpec, PRESETS, expandModels, createProvider, probeProvider.
import type { Scenario } from "../scenario.ts";
import { bedrockProvider, probeBedrock, type BedrockOptions } from "./bedrock.ts";
import { ollamaProvider, probeOllama, type OllamaOptions, type OllamaThink } from "./ollama.ts";
import { scriptedProvider } from "./scripted.ts";
import type { ModelProvider } from "./types.ts";

export type ProviderName = "ollama" | "bedrock" | "scripted";

export function parseModelSpec(spec: string): { provider: ProviderName; model: string } {
  const i = spec.indexOf(":");
  if (i <= 0 || i === spec.length - 1) throw new Error(`model spec "${spec}" must be <provider>:<model> (ollama:qwen3:8b, bedrock:<modelId>, scripted:good) or a preset (${Object.keys(PRESETS).join(", ")})`);
  const provider = spec.slice(0, i);
  const model = spec.slice(i + 1);
  if (provider !== "ollama" && provider !== "bedrock" && provider !== "scripted") throw new Error(`unknown provider "${provider}" in "${spec}": use ollama, bedrock or scripted`);
  return { provider, model };
}

/**
 * The spec's multi-model matrix (§13.2). The Bedrock id of Opus 4.7 is the US cross-region inference profile; it is
 * NOT verified against a live account (AWS lists Opus 4.7 without an ARN-versioned id) — override with
 * `--model bedrock:<id>` (e.g. global.anthropic.claude-opus-4-7) if your region differs.
 */
export const PRESETS: Record<string, string[]> = {
  "gemma4-e2b": ["ollama:gemma4:e2b"],
  "gemma4-26b": ["ollama:gemma4:26b"],
  "qwen3-8b": ["ollama:qwen3:8b"],
  "qwen3.5-27b": ["ollama:qwen3.5:27b"],
  "opus-4.7": ["bedrock:us.anthropic.claude-opus-4-7"],
  ollama: ["ollama:gemma4:e2b", "ollama:gemma4:26b", "ollama:qwen3:8b", "ollama:qwen3.5:27b"],
  matrix: ["ollama:gemma4:e2b", "ollama:gemma4:26b", "ollama:qwen3:8b", "ollama:qwen3.5:27b", "bedrock:us.anthropic.claude-opus-4-7"],
};

/** Specs and presets (comma-separated allowed) → specs, de-duplicated, in order. */
export function expandModels(args: string[]): string[] {
  const out: string[] = [];
  for (const a of args.flatMap((x) => x.split(",")).map((x) => x.trim()).filter(Boolean)) {
    const specs = a.includes(":") ? [a] : PRESETS[a];
    if (!specs) throw new Error(`"${a}" is neither <provider>:<model> nor a preset (${Object.keys(PRESETS).join(", ")})`);
    for (const s of specs) if (!out.includes(s)) out.push(s);
  }
  return out;
}

export interface ProviderSettings {
  ollama?: Omit<OllamaOptions, "model">;
  bedrock?: Omit<BedrockOptions, "modelId">;
  scenarios: readonly Scenario[];
}

export function createProvider(spec: string, settings: ProviderSettings): ModelProvider {
  const { provider, model } = parseModelSpec(spec);
  if (provider === "ollama") return ollamaProvider({ ...settings.ollama, model });
  if (provider === "bedrock") return bedrockProvider({ ...settings.bedrock, modelId: model });
  return scriptedProvider(model, settings.scenarios);
}

/**
 * Can this model be reached and does it have what the run needs (Ollama: the tools capability, and thinking when a
 * think level is asked for)? Says exactly what is missing and what to start, pull or set. Scripted models always can.
 */
export async function probeProvider(spec: string, settings: ProviderSettings, needs: { think?: OllamaThink } = {}): Promise<{ ok: true } | { ok: false; advice: string }> {
  const { provider, model } = parseModelSpec(spec);
  if (provider === "ollama") return probeOllama(model, settings.ollama?.host, 5000, needs);
  if (provider === "bedrock") return probeBedrock({ ...settings.bedrock, modelId: model, timeoutMs: Math.min(settings.bedrock?.timeoutMs ?? 30_000, 30_000) });
  return { ok: true };
}
