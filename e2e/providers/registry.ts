// What a provider is to the rest of the kit (issue 21 item 5): one entry per provider — its name, help lines, flags,
// default concurrency, how to validate a model name, probe it (saying what is missing and what served it) and create
// it — so adding a provider is one file plus one line in providers/index.ts, and nothing else names a provider.
// Owns: ProviderEntry, ProviderContext, ProviderFlag, ProbeResult, ServedModel, CommonSettings.
import type { Scenario } from "../scenario.ts";
import type { ModelProvider } from "./types.ts";

/** Request settings every provider is given; each uses what its wire has and ignores the rest (README, "Models"). */
export interface CommonSettings {
  timeoutMs?: number;
  retries?: number;
  budgetMs?: number;
  maxTokens?: number;
  think?: boolean | "low" | "medium" | "high";
  numCtx?: number;
}

/** The request settings some providers send and others cannot: maxSteps is the harness's own and reaches every one. */
export type WireSetting = "maxTokens" | "think" | "numCtx";
export const WIRE_SETTINGS: readonly WireSetting[] = ["maxTokens", "think", "numCtx"];

export interface ProviderContext {
  common: CommonSettings;
  /** This provider's own flag values, by flag key (e.g. { host: "http://…" } for --ollama-host). */
  options: Readonly<Record<string, string>>;
  scenarios: readonly Scenario[];
}

/** A flag only this provider reads: `--<provider>-<key> <value>`, optionally defaulted from an environment variable. */
export interface ProviderFlag {
  key: string;
  value: string;
  help: string;
  env?: string;
}

/**
 * What served the model (issue 21 item 4), recorded in every transcript's meta and the report: enough to tell whether
 * two numbers came from the same weights. Fields a provider cannot know are absent.
 */
export interface ServedModel {
  provider: string;
  /** The model as asked for (an Ollama tag, a Bedrock model id or ARN, an OpenAI-compatible model name). */
  model: string;
  /** Ollama: the weights' digest (sha256), quantisation, parameter size, family, format; the server's version. */
  digest?: string;
  quantization?: string;
  parameterSize?: string;
  family?: string;
  format?: string;
  serverVersion?: string;
  /** Where the server was reached (Ollama host, OpenAI-compatible base URL, a Bedrock endpoint override). */
  endpoint?: string;
  /** Bedrock: the model id or the inference profile / model ARN, and the region. */
  modelId?: string;
  modelArn?: string;
  region?: string;
  /** OpenAI-compatible: what /models says of it (owner, the weights' path or name the server loaded, context length). */
  ownedBy?: string;
  root?: string;
  maxModelLen?: number;
}

export type ProbeResult = { ok: true; served?: ServedModel } | { ok: false; advice: string };

export interface ProviderEntry {
  /** The spec prefix: `<name>:<model>`. */
  name: string;
  /** Help lines for the models section of --help (each `<name>:<…>  what it is`). */
  help: string[];
  /** "scripted" providers are harness self-tests. */
  kind: "real" | "scripted";
  /** Trials in flight at once by default (--concurrency-<name> overrides). */
  concurrency: number;
  flags: ProviderFlag[];
  /**
   * Which of the run's request settings this provider puts on its wire (issue 28 item 11): only these are recorded in
   * its trials' transcripts and compared on --resume; the others never reach its model.
   */
  reaches: readonly WireSetting[];
  /** A one-line usage problem when the model part can never work (an unknown scripted policy), else nothing. */
  validate?(model: string, ctx: ProviderContext): string | undefined;
  /** Can the model be used, and what serves it? Says exactly what to start, pull or set when not. */
  probe(model: string, ctx: ProviderContext): Promise<ProbeResult>;
  create(model: string, ctx: ProviderContext): ModelProvider;
}

/** A flag's full name: --<provider>-<key>. */
export const flagName = (provider: string, key: string): string => `--${provider}-${key}`;

/** A provider flag's value: given on the command line, else its environment variable, else undefined. */
export function optionOf(
  entry: Pick<ProviderEntry, "flags">,
  ctx: Pick<ProviderContext, "options">,
  key: string,
): string | undefined {
  const given = ctx.options[key];
  if (given !== undefined) return given;
  const env = entry.flags.find((f) => f.key === key)?.env;
  return env ? process.env[env] || undefined : undefined;
}
