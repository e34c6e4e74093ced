// `npm run fuzz [-- --count N --seed S]`: the differential fuzz of the YAML fast path and the emitter
// against the contract parser (reference/test/yaml-fuzz.ts). Prints the counts; exits 1 on any
// disagreement or round-trip failure. Default 100,000 inputs.
import { runFuzz } from "../reference/test/yaml-fuzz.ts";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
if (process.argv.includes("--help")) {
  console.log("usage: npm run fuzz -- [--count N] [--seed S]   (default 100000 inputs, a random seed)");
  process.exit(0);
}
const count = Number(flag("count") ?? 100_000);
const seed = Number(flag("seed") ?? Math.floor(Math.random() * 2 ** 31));
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
  console.error("fuzz: --count and --seed take integers (count ≥ 1)");
  process.exit(2);
}
const started = performance.now();
const r = runFuzz(count, seed);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
for (const e of r.examples) console.log(`${e.kind}: ${JSON.stringify(e.input)}\n  ${e.detail}`);
console.log(
  `fuzz seed ${seed}: ${r.inputs} inputs in ${seconds} s; fast path answered ${r.fastAnswered} (refused ${r.fastRefused}), the authority accepted ${r.accepted}`,
);
console.log(`disagreements: ${r.disagreements}  round-trip failures: ${r.roundTripFailures}`);
process.exit(r.disagreements === 0 && r.roundTripFailures === 0 ? 0 : 1);
