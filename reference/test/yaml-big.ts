// Frontmatter documents near yaml_max_nodes (R16) for the fuzz and the property tests: the only inputs on
// which the fast path (yaml-subset.ts) refuses instead of declining (R21). Entries of every form the subset
// reads (plain, quoted and escaped, flow lists, block scalars, nested mappings and lists, comments, blank
// lines) with unique keys, until the value count is near the bound on either side; then, often, one
// mutation placed anywhere or in the tail, where a later error may or may not take precedence over the
// count (the authority reads only the prefix its lexer guard stops at).
import { LIMITS } from "../../schemas/index.ts";

import { int, type Rng } from "../../conformance/fuzz/seeded-random.ts";

/** One entry with key k<n>, and the values R16 counts in it (key included). */
function entry(rng: Rng, n: number): [string, number] {
  const k = `k${n}`;
  const items = (m: number, f: (j: number) => string): string[] => Array.from({ length: m }, (_, j) => f(j));
  switch (int(rng, 8)) {
    case 0: {
      const m = int(rng, 40);
      return [`${k}: [${items(m, (j) => `i${j}`).join(", ")}]`, 2 + m];
    }
    case 1: {
      const m = 1 + int(rng, 30);
      return [`${k}:\n${items(m, (j) => `  - ${j % 3 === 0 ? `"q${j}"` : `v${j}`}`).join("\n")}`, 2 + m];
    }
    case 2: {
      const m = 1 + int(rng, 6);
      const deep = rng() < 0.5;
      const body = items(m, (j) => `  a${j}: [x, y]`).join("\n");
      return [`${k}:\n${deep ? "\n  d:\n    e: f\n    g:\n      - h\n" : ""}${body}`, 2 + 4 * m + (deep ? 7 : 0)];
    }
    case 3:
      return [`${k}: ${rng() < 0.5 ? "|" : ">-"}\n  line one\n  line two`, 2];
    case 4:
      return [`${k}: "tab\\there \\"q\\" \\\\ ${n}"`, 2];
    case 5:
      return [rng() < 0.5 ? "# a comment" : "", 0];
    default:
      return [`${k}: value ${n}`, 2];
  }
}

const TAIL_NOISE = [
  "!!str x",
  "*nope",
  "&a",
  "\t",
  "{",
  "[",
  "]",
  "'",
  '"',
  "%YAML 1.2",
  "--- x",
  "? ",
  "- - -",
  ": x",
  "\n  bad indent: 1",
  "k1: dup",
  "\u0085",
  "@x",
  "\\x41",
];

/** A document whose value count lands within a few hundred of yaml_max_nodes, perhaps with noise in it. */
export function bigDocument(rng: Rng): string {
  const target = LIMITS.yaml_max_nodes + int(rng, 600) - 150;
  const out: string[] = [];
  let nodes = 1;
  for (let n = 0; nodes < target; n++) {
    const [text, count] = entry(rng, n);
    out.push(text);
    nodes += count;
  }
  let doc = `${out.join("\n")}\n`;
  const r = rng();
  if (r < 0.6) {
    // Noise in the last quarter (between the node past the bound and the lexer guard's stop, or beyond it), or anywhere.
    const from = r < 0.45 ? Math.floor(doc.length * 0.75) : 0;
    const pos = from + int(rng, doc.length - from);
    doc = doc.slice(0, pos) + TAIL_NOISE[int(rng, TAIL_NOISE.length)] + doc.slice(pos);
  }
  return doc;
}
