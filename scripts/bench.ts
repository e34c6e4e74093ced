// `npm run bench`: runs every benchmark entry list (the conformance matrix, discovery, activation, hostile
// frontmatter shapes, memory),
// prints a table (median/min of N repetitions, ratio vs the baseline measured in the same run, target)
// and writes the figures to out/bench.json. Add another list by concatenating it into `entries`.
//   npm run bench -- [--reps 5] [--only <id glob>] [--out out/bench.json] [--check]
import { mkdirSync, writeFileSync } from "node:fs";
import { arch, cpus, platform } from "node:os";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { minimatch } from "minimatch";
import { formatBenchTable, matrixBenchmarks, runBenchmarks, type Benchmark } from "../bench/matrix.ts";
import { benchmarks as activation } from "../bench/activation.ts";
import { benchmarks as discovery } from "../bench/discovery.ts";
import { benchmarks as hostile } from "../bench/hostile.ts";
import { benchmarks as memory } from "../bench/memory.ts";
import { benchmarks as startup } from "../bench/startup.ts";
import { benchmarks as stdioPeers } from "../bench/stdio-peers.ts";

const USAGE = `npm run bench -- [options]
  --reps <n>      repetitions of entries that do not set their own (default 5)
  --only <globs>  comma-separated id globs, e.g. 'activation.*,discovery.*' (a baseline left out means no ratio)
  --out <file>    JSON figures (default out/bench.json)
  --check         exit 1 when a figure is over its target
  --help          this text`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      reps: { type: "string", default: "5" },
      only: { type: "string" },
      out: { type: "string", default: "out/bench.json" },
      check: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const reps = Number(values.reps);
if (!Number.isInteger(reps) || reps < 1) {
  console.error(`--reps wants a positive integer, not ${values.reps}`);
  process.exit(2);
}

let entries: Benchmark[] = [
  ...matrixBenchmarks(),
  ...discovery(),
  ...activation(),
  ...hostile(),
  ...memory(),
  ...startup(),
  ...stdioPeers(),
];
if (values.only) {
  const globs = values.only.split(",");
  entries = entries.filter((b) => globs.some((g) => minimatch(b.id, g)));
  if (entries.length === 0) {
    console.error(`no benchmark matches --only ${values.only}`);
    process.exit(2);
  }
}

const started = new Date().toISOString();
const results = await runBenchmarks(entries, {
  reps,
  onResult: (r) => console.error(`  ${r.id}: median ${r.median_ms.toFixed(1)} ms`),
});
console.log(formatBenchTable(results));
const out = resolve(process.env["INIT_CWD"] ?? process.cwd(), values.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      started_at: started,
      node: process.version,
      platform: `${platform()} ${arch()}`,
      cpu: cpus()[0]?.model ?? "",
      reps,
      results,
    },
    null,
    2,
  ) + "\n",
);
console.log(`\nwrote ${values.out}`);
const over = results.filter((r) => r.within_target === false);
if (over.length) console.log(`over target: ${over.map((r) => r.id).join(", ")}`);
if (values.check && over.length) process.exitCode = 1;
