// Owns what `npm run docs` writes into the hand-written pages: MUTANTS.md's coverage figures and mutant table, the
// README's counts and lists (suites, cases, rules, mutants, providers) and its compatibility table (from
// docs/compatibility.json). Every figure comes from the kit's catalog (conformance/catalog.ts), the providers'
// registry or the compatibility run's own JSON, never from a copy. Pure: data in, region bodies out.
import type { CatalogMutant, KitCatalog } from "../catalog.ts";
import { findingsList } from "../compat/findings.ts";
import { activated, headlineSection } from "../compat/render-markdown.ts";
import type { CompatResult } from "../compat/types.ts";

const table = (head: string[], rows: string[][]): string[] => [
  `| ${head.join(" | ")} |`,
  `|${head.map(() => "---").join("|")}|`,
  ...rows.map((r) => `| ${r.join(" | ")} |`),
];
const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const folder = (suite: string): string => (suite === "spec" ? "conformance/cases/" : `conformance/cases-${suite}/`);
const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The figures every page quotes, computed once. */
export interface KitFigures {
  suites: Array<{ id: string; cases: number; first?: string; last?: string }>;
  cases: number;
  mutants: number;
  rules: { total: number; spec: number; decision: number; rendering: number; checkable: number; notCheckable: number };
  killed: number;
  reasons: Array<[string, string]>;
}

export function figures(catalog: KitCatalog, mutants: readonly CatalogMutant[]): KitFigures {
  const killed = new Set(mutants.map((m) => m.rule));
  const bySource = (s: string) => catalog.rules.filter((r) => r.source === s).length;
  return {
    suites: catalog.suites.map((s) => ({
      id: s.id,
      cases: s.cases.length,
      first: s.cases[0]?.id,
      last: s.cases.at(-1)?.id,
    })),
    cases: catalog.cases.length,
    mutants: mutants.length,
    rules: {
      total: catalog.rules.length,
      spec: bySource("spec"),
      decision: bySource("decision"),
      rendering: bySource("rendering"),
      checkable: catalog.checkable.length,
      notCheckable: catalog.rules.length - catalog.checkable.length,
    },
    killed: catalog.checkable.filter((r) => killed.has(r.id)).length,
    reasons: [...catalog.noMutant.entries()],
  };
}

/** MUTANTS.md, region mutants:summary: how many mutants, and which checkable rules have none and why. */
export function mutantsSummary(f: KitFigures): string {
  const rest = f.rules.checkable - f.killed;
  const rules =
    rest === 0
      ? `Every one of the ${f.rules.checkable} checkable rules of [\`schemas/rules.json\`](../schemas/rules.json) (rows not \`checked: false\`) fails under some mutant.`
      : `${f.killed} of the ${f.rules.checkable} checkable rules of [\`schemas/rules.json\`](../schemas/rules.json) (rows not \`checked: false\`) fail under some mutant; the other ${rest} ${rest === 1 ? "has" : "have"} a written reason why no mutant can make ${rest === 1 ? "it" : "them"} fail on ${rest === 1 ? "its" : "their"} own ([\`conformance/mutants/no-mutant.json\`](mutants/no-mutant.json)):`;
  const out = [
    `${plural(f.mutants, "mutant")} over the ${plural(f.cases, "case")} of ${plural(f.suites.length, "suite")}; every case has at least one.`,
    rules,
  ];
  if (f.reasons.length) out.push("", ...f.reasons.map(([id, why]) => `- \`${id}\`: ${why}`));
  return out.join("\n");
}

/** MUTANTS.md, region mutants:table: every mutant, suite by suite, with the rule it breaks and what its case does. */
export function mutantsTable(catalog: KitCatalog, mutants: readonly CatalogMutant[]): string {
  const out: string[] = [];
  for (const s of catalog.suites) {
    const mine = mutants.filter((m) => m.suite === s.id);
    out.push(
      `### Suite \`${s.id}\` (\`${folder(s.id)}\`: ${plural(s.cases.length, "case")}, ${plural(mine.length, "mutant")})`,
      "",
    );
    const rows = mine.map((m) => {
      const own = catalog.cases.find((c) => c.id === m.kills)?.rules.includes(m.rule);
      return [
        m.kills,
        `\`${m.rule}\``,
        `\`${m.id}\``,
        cell(m.description),
        own ? "fails" : "passes (not a rule it tests)",
      ];
    });
    out.push(...table(["case", "rule", "mutant", "what it breaks", "the case"], rows), "");
  }
  return out.join("\n");
}

/** README, region kit-contents: what the kit holds, counted. */
export function kitContents(f: KitFigures, providers: readonly string[]): string {
  const range = (s: KitFigures["suites"][number]) =>
    !s.first ? "" : s.first === s.last ? `: ${s.first}` : `: ${s.first}–${s.last}`;
  const suites = f.suites.map((s) => `${s.id} (${s.cases}${range(s)})`).join(", ");
  return [
    "- **`schemas/`**: the contract as JSON Schema 2020-12. It is the one source of truth: the types, the runner's checks and the wire protocol all come from it.",
    "- **`reference/`**: a small, complete TypeScript reference implementation of the tool.",
    `- **\`conformance/\`**: ${plural(f.cases, "case")} as data in ${plural(f.suites.length, "suite")}, ${suites}; the spec suite holds §13.1's unit cases. They judge the ${f.rules.total} rules of [\`schemas/rules.json\`](schemas/rules.json) (${f.rules.spec} from the spec, ${f.rules.decision} kit decisions, ${f.rules.rendering} exact rendering; ${f.rules.notCheckable} not checkable through a driver, each saying why), and every case and ${f.killed === f.rules.checkable ? `every one of the ${f.rules.checkable}` : `${f.killed} of the ${f.rules.checkable}`} checkable rules are shown to fail on a wrong implementation (${plural(f.mutants, "mutant")}, [\`conformance/MUTANTS.md\`](conformance/MUTANTS.md)). A runner drives **any** implementation through a driver: in-process for TypeScript, JSON-RPC over stdio for everything else (Rust, Python…). It reports in JSON, JUnit, Markdown and as a badge, and has parity and smoke modes.`,
    `- **\`e2e/\`**: the SK1–SK8 model scenarios (§13.2), run n times per model through the providers of \`e2e/providers/\` (${providers.map((p) => `\`${p}\``).join(", ")}) and scored pass@k / pass^k.`,
  ].join("\n");
}

/** README, region working-commands: the first commands in a clone, with what the reference's run prints. */
export function workingCommands(f: KitFigures): string {
  const spec = f.suites.find((s) => s.id === "spec")?.cases ?? 0;
  return [
    "```sh",
    "npm ci",
    `npm run conformance -- --reference   # the ${spec}-case spec suite against the kit's reference, in-process: "${spec}/${spec} passed"`,
    "npm test                # typecheck + every test of the kit, the reference and the e2e harness (no network)",
    "npm run docs            # rewrite the generated parts of README.md and conformance/MUTANTS.md (a test fails when they are stale)",
    "```",
  ].join("\n");
}

/**
 * README, region compat-table: the headline of docs/compatibility.json (every spec case over 30 and every spec rule
 * over all, missing and not observable in the denominator: conformance/compat/render-markdown.ts, the page's own
 * headline), then the timing ratios of the same run.
 */
export function compatTable(r: CompatResult): string {
  const head = headlineSection(r).slice(2).join("\n").replace(/\]\(#/g, "](docs/compatibility.md#");
  const made = `Made by \`npm run compat\` on ${r.generated_at.slice(0, 10)}${r.kit.commit ? ` from kit commit ${r.kit.commit.slice(0, 7)}` : ""}`;
  const out = [head, `${made}; every profile and every failing rule are on [the page](docs/compatibility.md).`];
  // What each row cost in the run that made it, slowest first: what one CI job per harness costs (README "What a
  // compat run costs").
  const costed = r.implementations.filter((i) => i.seconds?.run !== undefined);
  const total = (i: (typeof costed)[number]) => i.seconds!.run! + (i.seconds!.reruns ?? 0) + (i.seconds!.timing ?? 0);
  if (costed.length)
    out.push(
      "",
      `Seconds each row took in the run that made it (suite run + reruns + timing), slowest first: ${[...costed]
        .sort((a, b) => total(b) - total(a))
        .map((i) => `${i.id} ${total(i)} (${i.seconds!.run} + ${i.seconds!.reruns ?? 0} + ${i.seconds!.timing ?? 0})`)
        .join(", ")}.`,
    );
  const ref = r.implementations.find((i) => i.id === "reference")?.timing;
  const timed = r.implementations.filter((i) => i.id !== "reference" && i.timing && !i.timing.error);
  if (ref && !ref.error && timed.length) {
    const x = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
    const notActivated = timed
      .filter((i) => !activated(i.timing!))
      .map(
        (i) => `${i.id}: ${i.timing!.ok} of ${i.timing!.calls} ok, ${i.timing!.listed} of ${i.timing!.skills} listed`,
      );
    out.push(
      "",
      `Discovery and first activation on the same ${ref.skills.toLocaleString("en-US")} generated skills, each driver over stdio, measured in the same run`,
      `(one run on a shared VM: read the ratios, not the figures, and expect them to move between runs): discovery time ${timed.map((i) => `${i.id} ${x(i.timing!.discovery_ms, ref.discovery_ms)}`).join(", ")} the reference's;`,
      `activation p50 ${timed
        .filter((i) => activated(i.timing!))
        .map((i) => `${i.id} ${x(i.timing!.activation_p50_us, ref.activation_p50_us)}`)
        .join(
          ", ",
        )}${notActivated.length ? `; no ratio where the timed calls were not all activations (${notActivated.join(", ")})` : ""}.`,
    );
  }
  return out.join("\n");
}

/** README, region findings: one line per harness, each failing spec rule linked to its reproduction (docs/findings/). */
export function compatFindings(r: CompatResult): string {
  return findingsList(r);
}
