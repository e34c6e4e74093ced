// Provenance of the model (issue 21 item 4): what served each model, in words for the reports, and whether the
// transcripts of one model were made by different weights (an Ollama tag moves; its digest does not). Pure functions.
// Owns: servedText, servedDrift.
import type { ServedModel } from "./providers/registry.ts";

/** One line: `ollama qwen3:8b digest 500a1f067a9f… Q4_K_M 8.2B qwen3 (server 0.12.3, http://…)`. */
export function servedText(s: ServedModel): string {
  const parts = [
    s.digest ? `digest ${s.digest.slice(0, 12)}` : undefined,
    s.quantization,
    s.parameterSize,
    s.family,
    s.modelArn ? `ARN ${s.modelArn}` : undefined,
    s.region ? `region ${s.region}` : undefined,
    s.root && s.root !== s.model ? `root ${s.root}` : undefined,
    s.maxModelLen ? `max_model_len ${s.maxModelLen}` : undefined,
    s.serverVersion ? `server ${s.serverVersion}` : undefined,
    s.endpoint,
  ].filter((x): x is string => x !== undefined && x !== "");
  return parts.length ? parts.join(", ") : "nothing known beyond its name";
}

/** The identity that must not change between trials of one model: the digest where known, else the ARN / root. */
function identity(s: ServedModel | undefined): string | undefined {
  return s?.digest ?? s?.modelArn ?? s?.root;
}

/** Models whose trials were served by more than one set of weights (digest, ARN or root), with each value seen. */
export function servedDrift(
  trials: readonly { model: string; served?: ServedModel }[],
): { model: string; values: string[] }[] {
  const seen = new Map<string, Set<string>>();
  for (const t of trials) {
    const id = identity(t.served);
    if (id === undefined) continue;
    seen.set(t.model, (seen.get(t.model) ?? new Set()).add(id));
  }
  return [...seen.entries()].filter(([, v]) => v.size > 1).map(([model, v]) => ({ model, values: [...v].sort() }));
}
