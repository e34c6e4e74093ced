// A search for slow frontmatter (issue 26 item 6, X5): shapes made of one line unit repeated to a size, the unit
// drawn from YAML's indicators and short words, timed per KiB against ordinary frontmatter of the same size in the
// same process, the slowest kept and mutated (a piece added, dropped or doubled, an indent) for a few generations.
// It printed the units bench/hostile.ts now measures in every run (top-level-flow-ends, document-ends, anchors-only,
// tags-only, …). Run it after a parser change: `npm run bench:hostile-search -- [--kib 64] [--generations 6] [--seed 1]`.
import { parseArgs } from "node:util";
import { ordinary, parseShape } from "./hostile.ts";

const PIECES = [
  "]",
  "}",
  "[",
  "{",
  "...",
  "--- x",
  "-",
  "- x",
  "? a",
  ": v",
  "a: b",
  "a: 1",
  "&a",
  "*a",
  "!t",
  "%",
  "@x",
  "`x",
  "'a",
  '"a',
  "|",
  ">",
  "#c",
  "\t",
  " ",
  "  ",
  ",",
  "k:",
  "a: b: c",
];
const HEAD = "---\nname: hostile\ndescription: A shape found by the search.\n";
const TAIL = "---\nBody.\n";

const { values } = parseArgs({
  options: {
    kib: { type: "string", default: "64" },
    generations: { type: "string", default: "6" },
    seed: { type: "string", default: "1" },
    keep: { type: "string", default: "8" },
  },
});
const bytes = Number(values.kib) * 1024;
let state = Number(values.seed) >>> 0 || 1;
const rand = (n: number): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) % n;
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;

const build = (unit: string): string =>
  HEAD + unit.repeat(Math.max(1, Math.floor((bytes - HEAD.length - TAIL.length) / unit.length))) + TAIL;
function msPerKiB(text: string): number {
  const start = performance.now();
  try {
    parseShape(text);
  } catch {
    // a refusal without a line is hostile.ts's to report; here only time counts
  }
  return (performance.now() - start) / (text.length / 1024);
}
const mutate = (unit: string): string => {
  const lines = unit.split("\n").filter((l) => l.length > 0);
  switch (rand(4)) {
    case 0:
      lines.push(pick(PIECES));
      break;
    case 1:
      if (lines.length > 1) lines.splice(rand(lines.length), 1);
      break;
    case 2:
      lines.push(lines[rand(lines.length)]!);
      break;
    default:
      lines[rand(lines.length)] = ` ${lines[rand(lines.length)]!}`;
  }
  return `${lines.join("\n")}\n`;
};

msPerKiB(build("a: b\n")); // warm the engine and the lazy modules
// The baseline is the fastest of several warm readings (one cold reading of the fast path is slow, and would make
// every shape look cheaper than it is); each unit is timed twice, the faster kept, for the same reason.
const ordinaryText = ordinary(bytes);
const base = Math.min(...Array.from({ length: 8 }, () => msPerKiB(ordinaryText)));
const timed = (unit: string): number => {
  const text = build(unit);
  return Math.min(msPerKiB(text), msPerKiB(text));
};
let pool = PIECES.map((p) => `${p}\n`);
const seen = new Map<string, number>();
for (let g = 0; g < Number(values.generations); g++) {
  for (const unit of pool) if (!seen.has(unit)) seen.set(unit, timed(unit) / base);
  const best = [...seen]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(values.keep))
    .map(([u]) => u);
  pool = [...best, ...best.map(mutate), ...best.map(mutate)];
}
console.log(`ordinary frontmatter: ${base.toFixed(3)} ms/KiB at ${values.kib} KiB`);
for (const [unit, ratio] of [...seen].sort((a, b) => b[1] - a[1]).slice(0, Number(values.keep)))
  console.log(`${ratio.toFixed(1).padStart(7)}×  ${JSON.stringify(unit)}`);
