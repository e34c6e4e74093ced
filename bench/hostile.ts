// Hostile frontmatter shapes (R21, X5): every SKILL.md up to the size limit is parsed or refused in time
// proportional to its size, at the per-KiB cost of ordinary frontmatter. Each shape is built at 64 KiB and at 1 MiB;
// the 64 KiB entry parses 16 copies per repetition and the 1 MiB entry one, so both handle the same number of bytes,
// and each is compared with ordinary frontmatter of the same size measured in the same run (hostile.ordinary.*: an
// accepted frontmatter of nested metadata entries with lists and block text): the ratio column is directly the
// per-KiB cost against ordinary frontmatter (target ≤ 3, issue 26), and the two sizes side by side show linearity.
// The shapes after dense-flow-accepted are the slow ones bench/hostile-search.ts found (issue 26: 10–50 s each
// at 1 MiB before X5). The note says what the parser answered: ok, or INVALID_FRONTMATTER with its line (a refusal
// without a line fails the run).
import { parseSkillMd } from "../reference/frontmatter.ts";
import type { Benchmark } from "./matrix.ts";

const KIB = 1024;
const HEAD = "---\nname: hostile\ndescription: A hostile frontmatter shape.\n";
const TAIL = "---\nBody.\n";

/** Repeat a line builder until the frontmatter reaches `bytes` (ASCII, so characters are bytes). */
function fill(bytes: number, line: (i: number) => string, prefix = ""): string {
  const parts: string[] = [HEAD, prefix];
  let size = HEAD.length + prefix.length + TAIL.length;
  for (let i = 0; size < bytes; i++) {
    const l = line(i);
    if (size + l.length > bytes) break;
    parts.push(l);
    size += l.length;
  }
  parts.push(TAIL);
  return parts.join("");
}

/** Nest `open`/`close` pairs around a core until the file reaches `bytes`. */
function nest(bytes: number, prefix: string, open: string, core: string, close: string): string {
  const room = bytes - HEAD.length - prefix.length - core.length - 1 - TAIL.length;
  const n = Math.max(1, Math.floor(room / (open.length + close.length)));
  return `${HEAD}${prefix}${open.repeat(n)}${core}${close.repeat(n)}\n${TAIL}`;
}

/** One metadata entry of ordinary frontmatter: a title, a short list, a paragraph of block text (about 2 KiB, 10 values counted as R16 counts them). */
const ordinaryEntry = (i: number): string =>
  `  entry-${i}:\n    title: Entry ${i} of the ordinary frontmatter\n    tags: [alpha, beta]\n    text: |\n${"      A line of ordinary prose, the kind a skill's metadata holds, eighty bytes long.\n".repeat(24)}`;

/** Ordinary frontmatter of about `bytes`: accepted, far under every bound but size; the per-KiB baseline. */
export function ordinary(bytes: number): string {
  return fill(bytes, ordinaryEntry, "metadata:\n");
}

/** A shape of one line unit repeated after the head (the slow shapes the search found are all of this form). */
const repeated =
  (unit: string, prefix = "") =>
  (b: number) =>
    fill(b, () => unit, prefix);

export const SHAPES: Record<string, (bytes: number) => string> = {
  "many-keys": (b) => fill(b, (i) => `key${i}: value number ${i}\n`),
  "long-keys": (b) => fill(b, (i) => `${"k".repeat(120)}${String(i).padStart(8, "0")}: v\n`),
  "long-key-refused": (b) => fill(b, (i) => `line${i}: text\n`, `? ${"k".repeat(b / 2)}\n: v\n`),
  "long-scalar": (b) => nest(b, "blob: ", "", "x", "x"),
  "long-quoted-scalar": (b) =>
    `${HEAD}blob: "${"\\t".repeat(Math.floor((b - HEAD.length - TAIL.length - 10) / 2))}"\n${TAIL}`,
  "deep-block": (b) => nest(b, "nest:\n  ", "- ", "x", ""),
  "deep-indent": (b) => {
    const lines: string[] = [HEAD, "nest:\n"];
    let size = HEAD.length + 6 + TAIL.length;
    for (let d = 1; ; d++) {
      const l = `${" ".repeat(d)}k${d}:\n`;
      if (size + l.length + d + 10 > b) break; // room for the last line, indented one deeper
      lines.push(l);
      size += l.length;
    }
    return `${lines.join("")}${" ".repeat(lines.length)}end: 1\n${TAIL}`;
  },
  "deep-flow-seq": (b) => nest(b, "nest: ", "[", "1", "]"),
  "deep-flow-map": (b) => nest(b, "nest: ", "{a: ", "1", "}"),
  "wide-flow": (b) => `${HEAD}list: [${"1,".repeat(Math.floor((b - HEAD.length - TAIL.length - 12) / 2))}1]\n${TAIL}`,
  // Accepted, not refused: a flow list of 9,000 items with a comment on every line, then comment lines. Through the
  // yaml engine (~2 µs per flow token) it cost 10–46× ordinary frontmatter; the fast path reads it now (X12).
  "dense-flow-accepted": (b) => {
    const room = b - HEAD.length - TAIL.length - "list: [\n ]\n".length;
    const items = Math.min(9000, Math.floor(room / 7));
    return `${HEAD}list: [\n${" 1, #c\n".repeat(items)}${" #\n".repeat(Math.floor((room - items * 7) / 3))} ]\n${TAIL}`;
  },
  "many-aliases": (b) => fill(b, (i) => `k${i}: *x\n`, "anchor: &x value\n"),
  "many-anchors": (b) => fill(b, (i) => `k${i}: &a${i} v${i}\n`),
  // Found by bench/hostile-search.ts (issue 26 item 6): one syntax error or refusal per line, or one node per line.
  "top-level-flow-ends": repeated("]\n"),
  "top-level-map-ends": repeated("}\n"),
  "document-ends": repeated("...\n"),
  "document-starts": repeated("--- x\n"),
  "tab-indents": repeated("\tk: v\n"),
  "compact-nested": repeated("a: b\n c: d\n"),
  "nested-compact": repeated("a: b: c\n"),
  "seq-after-map": repeated("- x\n"),
  "duplicate-keys": repeated("a: 1\n"),
  "empty-keys": repeated(": v\n"),
  "explicit-keys": repeated("? a\n"),
  "directive-chars": repeated("%\n"),
  "anchors-only": repeated("&a\n"),
  "tags-only": repeated("!t\n"),
  // Found by the search after the fast path grew (issue 26 item 6): lines of white (accepted), and lines of '-'
  // among them, a block sequence begun as the implicit key of the last entry (refused).
  "tab-lines": repeated("\t\n"),
  "blank-lines": repeated("  \n  \n \n#c\n"),
  "indented-comments": repeated("  #c\n"),
  "dashes-among-tabs": repeated("\t\n\t\n\t\n\t\n-\n"),
  // Lines of a reserved indicator: one plain scalar over every line, an implicit key the whole text long (3.4× through
  // the whole reading; a prefix answers it now, a key over lines, X12).
  "reserved-chars": repeated("@x\n"),
  // Quoted scalars opened on one line, closed on the next: keys over two lines (about ordinary's cost per KiB through
  // the whole reading; from a prefix now, X12).
  "quoted-lines": repeated('"a\n'),
  "single-quoted-lines": repeated("'a\n"),
};

export interface HostileOutcome {
  ok: boolean;
  line?: number;
  reason?: string;
}

export function parseShape(text: string): HostileOutcome {
  const r = parseSkillMd(text, "hostile");
  if (r.ok) return { ok: true };
  if (r.code !== "INVALID_FRONTMATTER" || r.line === undefined)
    throw new Error(`a hostile shape was refused without INVALID_FRONTMATTER and a line: ${r.code} ${r.reason}`);
  return { ok: false, line: r.line, reason: r.reason };
}

const describe = (o: HostileOutcome): string =>
  o.ok ? "ok" : `INVALID_FRONTMATTER line ${o.line}: ${(o.reason ?? "").slice(0, 70)}`;

export function benchmarks(opts: { shapes?: string[] } = {}): Benchmark[] {
  const out: Benchmark[] = [];
  for (const shape of ["ordinary", ...(opts.shapes ?? Object.keys(SHAPES))]) {
    const make = shape === "ordinary" ? ordinary : SHAPES[shape]!;
    for (const [label, bytes, copies] of [
      ["64k", 64 * KIB, 16],
      ["1m", 1024 * KIB, 1],
    ] as const) {
      let text = "";
      const id = `hostile.${shape}.${label}`;
      out.push({
        id,
        title: `${shape}: a ${label === "1m" ? "1 MiB" : "64 KiB"} SKILL.md parsed or refused ${copies === 1 ? "once" : `${copies} times (the same bytes as one 1 MiB file)`}`,
        ...(shape === "ordinary" ? {} : { baseline: `hostile.ordinary.${label}` }),
        reps: 3,
        async setup() {
          text = make(bytes);
          if (Buffer.byteLength(text) > bytes)
            throw new Error(`${id}: built ${Buffer.byteLength(text)} bytes, more than ${bytes}`);
        },
        async run() {
          let o: HostileOutcome = { ok: true };
          for (let i = 0; i < copies; i++) o = parseShape(text);
          return `${(Buffer.byteLength(text) / KIB).toFixed(0)} KiB: ${describe(o)}`;
        },
      });
    }
  }
  return out;
}
