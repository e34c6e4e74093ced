// Temporary runner for the discovery, activation and memory entries (until scripts/bench.ts wires them):
//   npx tsx bench/run-extra.ts [--reps 3] [--only <id glob>]
import { parseArgs } from "node:util";
import { minimatch } from "minimatch";
import { formatBenchTable, runBenchmarks, type Benchmark } from "./matrix.ts";
import { benchmarks as discovery } from "./discovery.ts";
import { benchmarks as activation } from "./activation.ts";
import { benchmarks as memory } from "./memory.ts";
import { disposeSharedTreesAsync, sharedSkillTree } from "./generate.ts";

const { values } = parseArgs({ options: { reps: { type: "string", default: "3" }, only: { type: "string" } } });
const reps = Number(values.reps);
const t0 = performance.now();
let t = performance.now();
await sharedSkillTree(1000);
await sharedSkillTree(10_000);
console.error(`  generated 11,000 skills in ${(performance.now() - t).toFixed(0)} ms`);
let entries: Benchmark[] = [...discovery(), ...activation(), ...memory()];
if (values.only) entries = entries.filter((b) => values.only!.split(",").some((g) => minimatch(b.id, g)));
const results = await runBenchmarks(entries, {
  reps,
  onResult: (r) => {
    console.error(`  ${r.id}: median ${r.median_ms.toFixed(1)} ms (${((performance.now() - t) / 1000).toFixed(1)} s)`);
    t = performance.now();
  },
});
console.log(formatBenchTable(results));
t = performance.now();
await disposeSharedTreesAsync();
console.log(`\ntotal ${((performance.now() - t0) / 1000).toFixed(1)} s (removing the temp trees: ${((performance.now() - t) / 1000).toFixed(1)} s)`);
