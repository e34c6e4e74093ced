// Differential fuzz of the YAML fast path (yaml-subset.ts) against the contract parser (yaml-contract.ts),
// and of the emitter (emit-yaml.ts) against the same parser: realistic SKILL.md frontmatter, mutated with
// the characters that make YAML subtle (Unicode and ASCII whitespace, control characters, every indicator),
// plus documents from a small grammar, and every 1,000th a document near the value bound (yaml-big.ts). A
// disagreement is the fast path answering where the authority refuses, or answering a different value or
// key line, or refusing with another reason or line; a round-trip failure is accepted frontmatter whose
// emitted YAML does not read back as the same JSON value. Deterministic for a seed (mulberry32).
// Run by `npm run fuzz` (scripts/fuzz.ts) and, with a small count, by yaml-fuzz.test.ts.
import { emitYaml } from "../emit-yaml.ts";
import { parseYamlContract, type YamlOutcome } from "../yaml-contract.ts";
import { parseSubset, type SubsetRefusal, type SubsetResult } from "../yaml-subset.ts";
import { bigDocument } from "./yaml-big.ts";
import { int, mulberry32, pick } from "../../conformance/fuzz/seeded-random.ts";
import { SEEDS, fixtureSeeds, generated, mutate } from "../../conformance/fuzz/yaml-inputs.ts";

export interface FuzzReport {
  inputs: number;
  /** Inputs the fast path answered (checked against the authority). */
  fastAnswered: number;
  /** Of those, the ones it refused (R16's value count, certified as the authority's; R21). */
  fastRefused: number;
  /** Inputs the authority accepted (each also round-tripped through the emitter). */
  accepted: number;
  disagreements: number;
  roundTripFailures: number;
  /** Up to 10 examples of each kind of failure, for the report. */
  examples: { kind: "disagreement" | "round-trip"; input: string; detail: string }[];
}

const canonical = (v: unknown): string => JSON.stringify(v);

/** Every BIG_EVERY-th input is a document near yaml_max_nodes (yaml-big.ts), where the fast path may refuse. */
const BIG_EVERY = 1000;

/** How the fast path's answer differs from the authority's (R18), or null when it is the same. */
export function fastDiffers(fast: SubsetResult | SubsetRefusal, auth: YamlOutcome): string | null {
  if (!fast.ok) {
    if (!auth.ok && auth.reason === fast.reason && auth.line === fast.line) return null;
    return `fast refuses (line ${fast.line}): ${fast.reason}; the authority ${auth.ok ? "accepts" : `refuses (line ${auth.line}): ${auth.reason}`}`;
  }
  if (!auth.ok) return `the authority refuses (line ${auth.line}): ${auth.reason}`;
  if (
    canonical(fast.data) !== canonical(auth.data) ||
    canonical([...fast.keyLines]) !== canonical([...auth.keyLines])
  ) {
    return `fast ${canonical(fast.data)} ${canonical([...fast.keyLines])} vs authority ${canonical(auth.data)} ${canonical([...auth.keyLines])}`;
  }
  return null;
}

export function runFuzz(count: number, seed: number): FuzzReport {
  const rng = mulberry32(seed);
  const seeds = [...SEEDS, ...fixtureSeeds()];
  const report: FuzzReport = {
    inputs: 0,
    fastAnswered: 0,
    fastRefused: 0,
    accepted: 0,
    disagreements: 0,
    roundTripFailures: 0,
    examples: [],
  };
  const note = (kind: "disagreement" | "round-trip", input: string, detail: string): void => {
    if (report.examples.filter((e) => e.kind === kind).length < 10) report.examples.push({ kind, input, detail });
  };
  for (let i = 0; i < count; i++) {
    let text: string;
    if (i % BIG_EVERY === BIG_EVERY - 1) text = bigDocument(rng);
    else if (rng() < 0.75) {
      text = pick(rng, seeds);
      for (let m = 1 + int(rng, 3); m > 0; m--) text = mutate(rng, text);
    } else text = generated(rng);
    report.inputs++;
    const auth = parseYamlContract(text);
    const fast = parseSubset(text);
    if (fast) {
      report.fastAnswered++;
      if (!fast.ok) report.fastRefused++;
      const differs = fastDiffers(fast, auth);
      if (differs) {
        report.disagreements++;
        note("disagreement", text, differs);
      }
    }
    if (auth.ok && auth.data !== null && typeof auth.data === "object" && !Array.isArray(auth.data)) {
      report.accepted++;
      const emitted = emitYaml(auth.data as Record<string, unknown>);
      const back = parseYamlContract(emitted);
      if (!back.ok || canonical(back.data) !== canonical(auth.data)) {
        report.roundTripFailures++;
        note(
          "round-trip",
          text,
          `emitted ${JSON.stringify(emitted)} reads back as ${back.ok ? canonical(back.data) : `a refusal: ${back.reason}`}`,
        );
      }
    }
  }
  return report;
}
