// Owns the compatibility page as Markdown (docs/compatibility.md): implementations × profile × suite,
// Bowtie-style, each failing cell linked to the rules that fail in it, then the timing table beside the
// reference's and the versions the page was made from. Pure: CompatResult in, text out.
import { rulesOnce } from "./cells.ts";
import type { Cell, CompatResult, FailingRule, ImplementationResult, Timing } from "./types.ts";

export const PROFILE_NOTES: Record<string, string> = {
  spec: "only the spec's own rules are scored",
  decisions: "spec rules and the kit's decisions settling what the spec leaves open",
  exact: "everything, exact text and layout (rendering rules) included",
  default: "the kit's single verdict (this kit had no --profile option)",
};

export function anchor(impl: string, profile: string, suite: string): string {
  return `${impl}-${profile}-${suite}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
}

/** Cases the cell scores: not those the implementation declares it cannot run (n/a), nor those the profile does not score. */
export const scoredOf = (c: Cell): number => c.total - c.skipped - c.not_scored;

/** What a cell leaves out of its score, e.g. " (6 n/a, 2 not scored)". */
export function unscored(c: Cell): string {
  const parts = [c.skipped ? `${c.skipped} n/a` : "", c.not_scored ? `${c.not_scored} not scored` : ""].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** "✅ 30/30", "✅ 17/17 +1 finding" (a rule failed only in a control call), "❌ 1/24 (6 n/a)" linked to the
 *  cell's rules, "⚠️ error" linked to the reason. */
export function cellText(impl: string, c: Cell): string {
  const link = (t: string) => `[${t}](#${anchor(impl, c.profile, c.suite)})`;
  if (c.status === "error") return link("⚠️ error");
  const score = `${c.passed}/${scoredOf(c)}`;
  if (c.status === "pass") {
    const n = c.incidental.length;
    return `✅ ${score}${unscored(c)}${n ? ` ${link(`+${n} finding${n > 1 ? "s" : ""}`)}` : ""}`;
  }
  return `❌ ${link(score)}${unscored(c)}`;
}

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)];
}

const ran = (r: CompatResult) => r.implementations.filter((i) => i.status === "ran" || i.status === "errored");

function implLabel(i: ImplementationResult): string {
  return `**${i.id}**`;
}

function versionsSection(r: CompatResult): string[] {
  const rows = r.implementations.map((i) => [
    implLabel(i),
    i.status === "ran" ? `${i.name} ${i.version}` : i.status.replace("_", " "),
    i.language || "",
    i.pins ? Object.entries(i.pins).map(([p, v]) => `\`${p}@${v}\``).join(", ") : "",
    `\`${i.driver}\``,
  ]);
  const out = ["## Implementations", "", ...table(["implementation", "as it names itself", "language", "harness pinned", "driver"], rows)];
  for (const i of r.implementations) if (i.status !== "ran" && i.reason) out.push("", `- **${i.id}** (${i.status.replace("_", " ")}): ${i.reason}`);
  return out;
}

function resultsSection(r: CompatResult): string[] {
  const out = ["## Results", ""];
  out.push("Each cell: cases passed / cases scored in that suite (n/a: cases needing a capability the implementation declares it lacks; not scored: cases testing only rules outside the profile). A failing cell links to the rules that fail its cases; *+N findings* links to rules that failed only in checks the suite's cases do not exist for (a control call), which leave those cases passed.", "");
  for (const p of r.profiles) {
    out.push(`### Profile \`${p}\`: ${PROFILE_NOTES[p] ?? ""}`, "");
    const rows = ran(r).map((i) => [implLabel(i), ...r.suites.map((s) => {
      const c = i.cells.find((x) => x.profile === p && x.suite === s.id);
      return c ? cellText(i.id, c) : "";
    })]);
    out.push(...table(["implementation", ...r.suites.map((s) => `${s.id} (${s.cases})`)], rows), "");
  }
  return out;
}

function ruleLine(f: FailingRule, r: CompatResult): string {
  if (f.source === "case") return `- case \`${f.id}\`${f.title ? `: ${f.title}` : ""}`;
  const meta = r.rules?.[f.id];
  const kind = [f.source, f.level].filter(Boolean).join(", ");
  const what = meta?.text ? `: ${meta.text}${meta.cite ? ` (${meta.cite})` : ""}` : "";
  return `- \`${f.id}\` (${kind})${what} — cases ${f.cases.join(", ")}`;
}

function cellDetail(i: ImplementationResult, c: Cell, r: CompatResult): string[] {
  const out = [`<a id="${anchor(i.id, c.profile, c.suite)}"></a>**${i.id} · profile ${c.profile} · suite ${c.suite}**${c.by === "case" ? " *(by case)*" : ""}`, ""];
  if (c.status === "error") return [...out, `- the run gave no report: ${c.reason ?? "unknown"}`, ""];
  out.push(...c.failing.map((f) => ruleLine(f, r)));
  if (c.incidental.length) out.push(`- seen only in checks these cases do not exist for (their cases pass):`, ...c.incidental.map((f) => `  ${ruleLine(f, r)}`));
  return [...out, ""];
}

function failuresSection(r: CompatResult): string[] {
  const out = ["## Failing rules", ""];
  const byCase = r.implementations.some((i) => i.cells.some((c) => c.by === "case" && c.failing.length));
  if (byCase) out.push("Cells marked *(by case)* come from a kit whose reports did not yet name rules: they list the failing cases instead.", "");
  let any = false;
  for (const i of ran(r)) {
    const bad = i.cells.filter((c) => c.status !== "pass" || c.incidental.length);
    if (!bad.length) continue;
    any = true;
    out.push(`### ${i.id}`, "");
    // Profiles nest (spec ⊂ decisions ⊂ exact): a rule that fails, fails under every profile that scores it,
    // so one list per implementation says it all; the rule's source says which profiles score it.
    const once = rulesOnce(i.cells);
    if (once.length) out.push("Each failing rule once (a spec rule fails under every profile, a decision rule under decisions and exact, a rendering rule under exact):", "", ...once.map((f) => ruleLine(f, r)), "");
    out.push("By cell:", "");
    for (const c of bad) out.push(...cellDetail(i, c, r));
  }
  if (!any) out.push("None.", "");
  return out;
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const us = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(1)} ms` : `${x.toFixed(0)} µs`);
const ratio = (x: number, base: number | undefined) => (base && base > 0 && Number.isFinite(x) ? `${(x / base).toFixed(1)}×` : "");

function timingSection(r: CompatResult): string[] {
  const withT = r.implementations.filter((i) => i.timing);
  if (!withT.length) return [];
  const ref = r.implementations.find((i) => i.id === "reference")?.timing;
  const n = withT[0]!.timing!.skills;
  const rows = withT.map((i) => {
    const t = i.timing as Timing;
    if (t.error) return [implLabel(i), "", "", "", "", "", "", `not measured: ${t.error}`];
    return [
      implLabel(i),
      `${t.listed}/${t.skills}`,
      `${ms(t.discovery_ms)} ms`,
      ratio(t.discovery_ms, ref?.discovery_ms),
      us(t.activation_p50_us),
      ratio(t.activation_p50_us, ref?.activation_p50_us),
      us(t.activation_p99_us),
      `${t.ok}/${t.calls} ok`,
    ];
  });
  return [
    "## Discovery and activation time",
    "",
    `The same ${n.toLocaleString("en-US")} generated skills (\`bench/generate.ts\`, fixed seed) for every implementation, measured in this run from outside, through each driver over stdio (JSON-RPC, \`skill-reference-driver <module>\` for the JS ones), so every figure includes the same protocol round trip. After an untimed warm-up session (one discovery, 20 activations of other skills): discovery is a fresh session's create + first catalog, median of ${withT[0]!.timing!.discovery_runs_ms.length}; activation is first activations of distinct skills spread over the tree, one at a time, on one more fresh session. Ratios are to the reference in the same run. A shared, noisy 2-core VM: read the ratios, not the absolute figures.`,
    "",
    ...table(["implementation", "listed", "discovery", "× ref", "activation p50", "× ref", "p99", "calls"], rows),
    "",
  ];
}

export function renderMarkdown(r: CompatResult): string {
  const head = [
    "# Compatibility of skill tool implementations",
    "",
    "<!-- Generated by `npm run compat` (scripts/compat.ts, conformance/compat/). Do not edit by hand: run it again. -->",
    "",
    `Every harness below was installed from the version its folder pins (\`npm ci\` with its own lockfile), and every implementation was run through every suite of the conformance kit under ${r.profiles.length > 1 ? "every profile" : "the kit's verdict"}, in one run of \`npm run compat\` on ${r.generated_at.slice(0, 10)} (kit ${r.kit.version}${r.kit.commit ? `, commit ${r.kit.commit.slice(0, 12)}` : ""}, Node ${r.node}, ${(r.duration_ms / 1000).toFixed(0)} s). The drivers are in \`implementations/<id>/\`; each README says what real code is exercised and what its driver had to synthesise. The same data is in [compatibility.json](compatibility.json).`,
    "",
  ];
  return [...head, ...versionsSection(r), "", ...resultsSection(r), ...failuresSection(r), ...timingSection(r)].join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}
