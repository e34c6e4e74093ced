// Model specs → providers, through the registry (registry.ts): a spec is `<provider>:<model>`, split on the FIRST colon
// only (`ollama:qwen3:8b` is provider ollama, model qwen3:8b); a spec without a colon is a preset name (the spec's
// §13.2 matrix). Every provider is one entry in PROVIDERS; nothing here or in the CLI names one.
// Owns: PROVIDERS, providerEntry, parseModelSpec, PRESETS, expandModels, createProvider, probeProvider.
import { BEDROCK } from "./bedrock.ts";
import { OLLAMA } from "./ollama.ts";
import { OPENAI } from "./openai.ts";
import type { RunSettings } from "../transcript.ts";
import {
  WIRE_SETTINGS,
  type ProbeResult,
  type ProviderContext,
  type ProviderEntry,
  type ServedModel,
} from "./registry.ts";
import { SCRIPTED } from "./scripted.ts";
import type { ModelProvider } from "./types.ts";

/** Every provider the kit knows. Adding one: its file exporting a ProviderEntry, and a line here. */
export const PROVIDERS: readonly ProviderEntry[] = [OLLAMA, BEDROCK, OPENAI, SCRIPTED];

export function providerEntry(name: string): ProviderEntry | undefined {
  return PROVIDERS.find((p) => p.name === name);
}

/**
 * The run's request settings as they reach one model (issue 28 item 11): a wire setting its provider does not send
 * (--think, --num-ctx to Bedrock or OpenAI) is left out, so a transcript records only what its model was given.
 */
export function settingsReaching(modelId: string, settings: RunSettings): RunSettings {
  const entry = providerEntry(modelId.slice(0, modelId.indexOf(":")));
  const out: RunSettings = { ...settings };
  for (const k of WIRE_SETTINGS) if (!entry?.reaches.includes(k)) delete out[k];
  return out;
}

export function parseModelSpec(spec: string): { provider: string; model: string } {
  const i = spec.indexOf(":");
  if (i <= 0 || i === spec.length - 1)
    throw new Error(
      `model spec "${spec}" must be <provider>:<model> (${PROVIDERS.map((p) => `${p.name}:…`).join(", ")}) or a preset (${Object.keys(PRESETS).join(", ")})`,
    );
  const provider = spec.slice(0, i);
  if (!providerEntry(provider))
    throw new Error(`unknown provider "${provider}" in "${spec}": use ${PROVIDERS.map((p) => p.name).join(", ")}`);
  return { provider, model: spec.slice(i + 1) };
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
  matrix: [
    "ollama:gemma4:e2b",
    "ollama:gemma4:26b",
    "ollama:qwen3:8b",
    "ollama:qwen3.5:27b",
    "bedrock:us.anthropic.claude-opus-4-7",
  ],
};

/** Specs and presets (comma-separated allowed) → specs, de-duplicated, in order. */
export function expandModels(args: string[]): string[] {
  const out: string[] = [];
  for (const a of args
    .flatMap((x) => x.split(","))
    .map((x) => x.trim())
    .filter(Boolean)) {
    const specs = a.includes(":") ? [a] : PRESETS[a];
    if (!specs)
      throw new Error(`"${a}" is neither <provider>:<model> nor a preset (${Object.keys(PRESETS).join(", ")})`);
    for (const s of specs) if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** What every provider is given: the common settings, each provider's own flag values, the scenarios. */
export interface ProviderSettings {
  common: ProviderContext["common"];
  /** Flag values by provider name, then flag key. */
  options: Readonly<Record<string, Readonly<Record<string, string>>>>;
  scenarios: ProviderContext["scenarios"];
}

function contextFor(provider: string, settings: ProviderSettings): ProviderContext {
  return { common: settings.common, options: settings.options[provider] ?? {}, scenarios: settings.scenarios };
}

/** A one-line usage problem with the spec's model part (an unknown scripted policy), else undefined. */
export function validateSpec(spec: string, settings: ProviderSettings): string | undefined {
  const { provider, model } = parseModelSpec(spec);
  return providerEntry(provider)!.validate?.(model, contextFor(provider, settings));
}

/** The provider for a spec; `served` (from its probe) is recorded in every transcript it makes. */
export function createProvider(spec: string, settings: ProviderSettings, served?: ServedModel): ModelProvider {
  const { provider, model } = parseModelSpec(spec);
  const p = providerEntry(provider)!.create(model, contextFor(provider, settings));
  if (served) Object.defineProperty(p, "served", { value: served, enumerable: true });
  return p;
}

/** Can this model be reached and does it have what the run needs? Says what to start, pull or set, and what serves it. */
export function probeProvider(spec: string, settings: ProviderSettings): Promise<ProbeResult> {
  const { provider, model } = parseModelSpec(spec);
  return providerEntry(provider)!.probe(model, contextFor(provider, settings));
}
