// The frontmatter parity fuzz: seeded SKILL.md frontmatter (fuzz/yaml-inputs.ts: realistic seeds, the fixtures'
// own frontmatter, mutations with every YAML indicator, Unicode spaces, control characters, tags, directives and
// deep nesting), written as generated cases of the frontmatter suite's shape (one skill per call), run through two
// implementations by runParity, and each call that differs sorted by what the contract says of it (R30, R35):
//   wording         both answer a YAML syntax error on the same line, each in its parser's words (R30: allowed)
//   parser-located  both answer a syntax error, on different lines (R35: a parser locates its own; allowed)
//   syntax-first    one answers a syntax error on a line at or before the other's refusal: the two parsers
//                   disagree on where the text stops being YAML (R35: reported, allowed); not against depth on
//                   the same line (final there, R26)
//   prose           the same once prose is compared for the facts it carries (parity-semantic.ts): the two word
//                   a message, reason, hint, warning or output line differently (R30: a difference at the exact
//                   level, allowed at the semantic level)
//   contract        anything else: a different kind, code, value, rendering, contract-worded reason or line
//                   (a syntax error the contract locates, R35, included), or ok against an error
// Results are compared as JSON values: key order counts only inside a frontmatter (R24). Only `contract`
// differences (and a catalog that differs, or a case a side could not run) fail the run, and `prose` at the
// exact level (R30: exact is the default, so wording is reported; --parity-level semantic allows it).
// Pure over the reports; scripts/conformance.ts (`--parity --fuzz N`) renders them and maps them to an exit code.
import type { CaseCall, ConformanceCase } from "../schemas/types.gen.ts";
import { MESSAGES } from "../schemas/messages.ts";
import { int, mulberry32, pick, type Rng } from "./fuzz/seeded-random.ts";
import { SEEDS, fixtureSeeds, generated, mutate } from "./fuzz/yaml-inputs.ts";
import {
  DEFAULT_PARITY_LEVEL,
  canonicalJson,
  normalise,
  runParity,
  type ParityLevel,
  type ParitySide,
} from "./parity.ts";
import { escapeRe, isObj, projectCatalog, projectResult } from "./parity-semantic.ts";
import type { LoadedCase } from "./runner/index.ts";
import type { CaseResult } from "./runner/types.ts";

export type CallClass = "same" | "wording" | "prose" | "parser-located" | "syntax-first" | "contract";

export interface FuzzExample {
  case: string;
  call: number;
  class: CallClass;
  skillMd: string;
  a: unknown;
  b: unknown;
}

export interface ParityFuzzReport {
  seed: number;
  level: ParityLevel;
  calls: number;
  counts: Record<CallClass, number>;
  /** Cases whose catalogs differ (entries, tool description, number of warnings), and cases a side could not run or
   * answered with a result the result schema refuses (`faults`: its calls are still compared when it answered). */
  catalogDiffers: string[];
  faults: { case: string; a: string; b: string }[];
  /** Up to `maxExamples` of each class but same, contract first. */
  examples: FuzzExample[];
  /** True when nothing but allowed classes was found. */
  ok: boolean;
}

/** Lines the fuzz adds to a seed now and then: the places where readers part ways (R25, R26, R35). */
const HARD_LINES: ((rng: Rng) => string)[] = [
  (rng) => `d: ${"[".repeat(60 + int(rng, 8))}1${"]".repeat(60)}`,
  (rng) => `d: ${"{a: ".repeat(60 + int(rng, 8))}1${"}".repeat(66)}`,
  (rng) => `d:\n  ${"- ".repeat(60 + int(rng, 8))}x`,
  () => `t: !!str [${"[".repeat(300)}`,
  () => "...\n%YAML 1.2\n--- x",
  () => "a: 1\na: 2",
  () => "late: a: b",
];

/** One frontmatter text: a seed (its name set to the skill's, so a sound one loads) mutated, or a generated document. */
export function fuzzFrontmatter(rng: Rng, seeds: readonly string[], name: string): string {
  if (rng() >= 0.7) return generated(rng);
  const lines = pick(rng, seeds)
    .replace(/^name: .*$/m, `name: ${name}`)
    .split("\n");
  if (rng() < 0.3) lines.splice(int(rng, lines.length), 0, pick(rng, HARD_LINES)(rng));
  let text = lines.join("\n");
  for (let m = int(rng, 3); m > 0; m--) text = mutate(rng, text);
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** Any answer passes: the fuzz compares the two sides, not either against an expectation. */
const anyAnswer = (name: string): CaseCall => ({
  params: { name },
  invocation: "model",
  expect: { kind: ["ok", "already_loaded", "not_found", "error"] },
});

/** `count` skills in cases of `batch` calls each, from `seed`: the same seed gives the same cases. */
export function fuzzCases(count: number, seed: number, batch = 100): LoadedCase[] {
  const rng = mulberry32(seed);
  const seeds = [...SEEDS, ...fixtureSeeds()];
  const cases: LoadedCase[] = [];
  for (let first = 0; first < count; first += batch) {
    const names = Array.from({ length: Math.min(batch, count - first) }, (_, i) => `fz${first + i}`);
    const c: ConformanceCase = {
      id: `FZ${String(cases.length + 1).padStart(3, "0")}`,
      title: `frontmatter parity fuzz, seed ${seed}, skills ${first}–${first + names.length - 1}`,
      spec: ["§4.5", "R30", "R35"],
      fixture: "base",
      setup: names.map((n) => ({
        op: "write" as const,
        path: `skills/${n}/SKILL.md`,
        utf8: `---\n${fuzzFrontmatter(rng, seeds, n)}---\nBody.\n`,
      })),
      config: { skill_roots: ["${tmp}/skills"], skill_trust: { trusted_roots: ["${tmp}/skills"] } },
      calls: [anyAnswer(names[0] as string), ...names.slice(1).map(anyAnswer)],
    };
    cases.push({ ...c, suite: "frontmatter", file: "(generated)" });
  }
  return cases;
}

/** The syntax errors the contract words (R25), and among them those whose line it fixes too (R35). */
const SYNTAX_IDS = new Set([
  "fm.yaml_parser",
  "yaml.unclosed_quote",
  "yaml.tab_indent",
  "yaml.compact_mapping",
  "yaml.flow_sequence",
  "yaml.flow_map",
  "yaml.reserved",
  "yaml.directive_in_document",
]);
const LOCATED_IDS = new Set(["yaml.unclosed_quote", "yaml.tab_indent", "yaml.reserved"]);
/** Every INVALID_FRONTMATTER reason template of the table, fm.yaml_parser (which matches anything) left out. */
const TEMPLATES: [string, RegExp][] = Object.entries(MESSAGES.messages)
  .filter(([id, m]) => m.code === "INVALID_FRONTMATTER" && m.use === "reason" && id !== "fm.yaml_parser")
  .map(([id, m]) => [id, new RegExp(`^${escapeRe(m.text).replace(/\\\{[a-z_]+\\\}/g, ".*")}$`, "s")]);

/**
 * An INVALID_FRONTMATTER answer with a line, read as the contract sorts it: a YAML syntax error (its reason ends
 * with its line, failure.yaml_reason_line, and is a syntax template or no template at all: the parser's words) or
 * a refusal, with the message id its reason matches. A refusal worded unlike schemas/messages.json but with that
 * suffix passes for a parser's words here; the suites' exact reasons are what catch such wording.
 */
function frontmatterError(r: unknown): { line: number; syntax: boolean; id: string | undefined } | undefined {
  if (!isObj(r) || r.kind !== "error" || r.code !== "INVALID_FRONTMATTER" || typeof r.line !== "number")
    return undefined;
  const reason = String(r.reason ?? "");
  const suffix = ` (line ${r.line})`;
  const bare = reason.endsWith(suffix) ? reason.slice(0, -suffix.length) : undefined;
  const id = TEMPLATES.find(([, t]) => t.test(bare ?? reason))?.[0];
  return { line: r.line, syntax: bare !== undefined && (id === undefined || SYNTAX_IDS.has(id)), id };
}

/** How two answers to one call differ under the contract (see the header); `params`, the call's input, names what prose may mention. */
export function classifyCall(a: unknown, b: unknown, params?: unknown): CallClass {
  if (canonicalJson(a) === canonicalJson(b)) return "same";
  const ea = frontmatterError(a);
  const eb = frontmatterError(b);
  // Prose can only be all that differs between answers of one kind and code (the projection parses a <frontmatter>: only then).
  const sameShape = isObj(a) && isObj(b) && a.kind === b.kind && a.code === b.code;
  if (sameShape && canonicalJson(projectResult(a, params)) === canonicalJson(projectResult(b, params))) {
    // The same facts: wording, unless a syntax error meets a refusal, or two different contract refusals, on one line (sorted below).
    if (!ea || !eb) return "prose";
    if (ea.syntax && eb.syntax) return "wording";
    // Two refusals with the same facts: one worded in its own words (no template), or the same template, is prose.
    if (!ea.syntax && !eb.syntax && (ea.id === eb.id || ea.id === undefined || eb.id === undefined)) return "prose";
  }
  if (!ea || !eb) return "contract";
  if (ea.syntax && eb.syntax) {
    if (ea.line === eb.line) return "wording";
    // The same syntax error whose line the contract fixes (an unclosed quote, a tab in indentation, @ or `), elsewhere.
    return ea.id !== undefined && ea.id === eb.id && LOCATED_IDS.has(ea.id) ? "contract" : "parser-located";
  }
  const [syntax, refusal] = ea.syntax ? [ea, eb] : eb.syntax ? [eb, ea] : [undefined, undefined];
  if (!syntax || !refusal) return "contract";
  // Depth is final on its own line (R26): a syntax error there does not outweigh it.
  if (refusal.id === "yaml.too_deep" && refusal.line === syntax.line) return "contract";
  return refusal.line >= syntax.line ? "syntax-first" : "contract";
}

const ORDER: CallClass[] = ["contract", "prose", "syntax-first", "parser-located", "wording"];

/** A catalog's entries and tool description as they are (its <available_skills> lines at the semantic level), its
 * warnings counted: a warning about a skill that is not loaded carries the reason its call returns, which
 * classifyCall sorts (a syntax error's wording is the parser's). */
function catalogKey(catalog: unknown, level: ParityLevel): string {
  const n = normalise(catalog);
  const c = level === "semantic" ? projectCatalog(n) : n;
  if (!isObj(c)) return canonicalJson(c);
  return canonicalJson([c.tool_description, c.entries, Array.isArray(c.warnings) ? c.warnings.length : c.warnings]);
}

/** Every answer passes the fuzz's expectations, so a failed case is a result the schema refuses: still compared. */
const ran = (r: CaseResult | undefined): boolean => r?.status === "passed" || r?.status === "failed";
const why = (r: CaseResult | undefined): string =>
  !r
    ? "(not run)"
    : `${r.status}${r.reason ? `: ${r.reason}` : ""}${r.mismatches?.[0] ? `: ${r.mismatches[0].message}` : ""}`;

/** Sort every call of two runs of the fuzz cases; examples keep the SKILL.md each call read. */
export function classify(
  seed: number,
  cases: readonly LoadedCase[],
  a: readonly CaseResult[],
  b: readonly CaseResult[],
  maxExamples = 5,
  level: ParityLevel = DEFAULT_PARITY_LEVEL,
): ParityFuzzReport {
  const counts: Record<CallClass, number> = {
    same: 0,
    wording: 0,
    prose: 0,
    "parser-located": 0,
    "syntax-first": 0,
    contract: 0,
  };
  const report: ParityFuzzReport = {
    seed,
    level,
    calls: 0,
    counts,
    catalogDiffers: [],
    faults: [],
    examples: [],
    ok: true,
  };
  const byIdB = new Map(b.map((r) => [r.id, r]));
  const caseById = new Map(cases.map((c) => [c.id, c]));
  for (const ra of a) {
    const rb = byIdB.get(ra.id);
    const c = caseById.get(ra.id);
    if (!rb || !c || !ran(ra) || !ran(rb) || ra.status !== rb.status)
      report.faults.push({ case: ra.id, a: why(ra), b: why(rb) });
    if (!rb || !c || !ran(ra) || !ran(rb)) continue;
    if (catalogKey(ra.catalog, level) !== catalogKey(rb.catalog, level)) report.catalogDiffers.push(ra.id);
    const oa = normalise(ra.observed ?? []) as unknown[];
    const ob = normalise(rb.observed ?? []) as unknown[];
    oa.forEach((x, i) => {
      report.calls++;
      const k = classifyCall(x, ob[i], c.calls[i] && "params" in c.calls[i]! ? c.calls[i]!.params : undefined);
      counts[k]++;
      if (k !== "same" && report.examples.filter((e) => e.class === k).length < maxExamples) {
        const step = c.setup?.[i];
        report.examples.push({
          case: c.id,
          call: i,
          class: k,
          skillMd: step && "utf8" in step ? String(step.utf8) : "",
          a: x,
          b: ob[i],
        });
      }
    });
  }
  report.examples.sort((x, y) => ORDER.indexOf(x.class) - ORDER.indexOf(y.class));
  report.ok =
    counts.contract === 0 &&
    (level === "semantic" || counts.prose === 0) &&
    report.catalogDiffers.length === 0 &&
    report.faults.length === 0;
  return report;
}

/** Generate, run both sides (each case through runSuite: a driver fault errors only its case), classify. */
export async function runParityFuzz(
  sideA: ParitySide,
  sideB: ParitySide,
  opts: { count: number; seed: number; level?: ParityLevel; timeoutMs?: number; maxExamples?: number },
): Promise<ParityFuzzReport> {
  const cases = fuzzCases(opts.count, opts.seed);
  const parity = await runParity(sideA, sideB, cases, {
    suite: "frontmatter",
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  return classify(
    opts.seed,
    cases,
    parity.a.cases,
    parity.b.cases,
    opts.maxExamples,
    opts.level ?? DEFAULT_PARITY_LEVEL,
  );
}

/** The report as console lines: counts, then each example with the SKILL.md it read and both answers. */
export function formatParityFuzz(r: ParityFuzzReport, labels: { a: string; b: string }): string[] {
  const brief = (v: unknown): string => {
    if (!isObj(v)) return JSON.stringify(v) ?? String(v);
    if (v.kind !== "error")
      return `${String(v.kind)}${v.kind === "ok" ? ` ${JSON.stringify(v.frontmatter).slice(0, 160)}` : ""}`;
    return `${String(v.code)}${v.line !== undefined ? ` line ${String(v.line)}` : ""}: ${String(v.reason ?? v.message ?? "").slice(0, 160)}`;
  };
  const out: string[] = [];
  for (const e of r.examples) {
    out.push(
      `${e.class.toUpperCase()}  ${e.case} call ${e.call}`,
      `  SKILL.md ${JSON.stringify(e.skillMd).slice(0, 400)}`,
      `  A: ${brief(e.a)}`,
      `  B: ${brief(e.b)}`,
    );
  }
  for (const n of r.faults) out.push(`FAULT  ${n.case}: A ${n.a}; B ${n.b}`);
  if (r.catalogDiffers.length) out.push(`CATALOG differs in ${r.catalogDiffers.join(", ")}`);
  const c = r.counts;
  out.push(
    "",
    `parity fuzz (${r.level}), seed ${r.seed}: ${r.calls} calls; A = ${labels.a}, B = ${labels.b}`,
    `  same ${c.same}, parser wording ${c.wording} (R30), parser-located ${c["parser-located"]} (R35), syntax-first ${c["syntax-first"]} (R35)`,
    `  prose worded differently ${c.prose} (R30: ${r.level === "semantic" ? "allowed at the semantic level" : "a difference at the exact level; allowed with --parity-level semantic"})`,
    `  contract differences ${c.contract}, catalogs differing ${r.catalogDiffers.length}, case faults ${r.faults.length}: ${r.ok ? "ok" : "FAILED"}`,
  );
  return out;
}
