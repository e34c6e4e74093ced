// Owns the compatibility page as Markdown (docs/compatibility.md): implementations × profile × suite,
// Bowtie-style, each failing cell linked to the rules that fail in it, then the timing table beside the
// reference's and the versions the page was made from. Pure: CompatResult in, text out.
import { rulesOnce } from "./cells.ts";
import { TIMED_BUDGET_MS, WARMUP_BUDGET_MS } from "./timing.ts";
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

/** Cases the cell scores: every case the profile scores, missing features and unobservable ones included (they
 *  are never taken out of the denominator). */
export const scoredOf = (c: Cell): number => c.total - c.not_scored;

/** The states a cell shows beside its score, each in its own colour: " · 🟪 9 missing · ⬜ 2 not observable". */
export function unscored(c: Cell): string {
  const parts = [
    c.missing ? `🟪 ${c.missing} missing` : "",
    c.not_observable ? `⬜ ${c.not_observable} not observable` : "",
    c.not_scored ? `${c.not_scored} not scored` : "",
  ].filter(Boolean);
  return parts.length ? ` · ${parts.join(" · ")}` : "";
}

export const STATUS_MARK: Record<Cell["status"], string> = {
  pass: "✅",
  partial: "🟨",
  none: "➖",
  fail: "❌",
  error: "⚠️",
};

/** "✅ 30/30", "✅ 17/17 +1 finding" (a rule failed only in a control call), "❌ 1/30 · 🟪 14 missing" linked to the
 *  cell's rules, "🟨 5/8 · 🟪 3 missing" (nothing failed, not everything there), "➖ nothing scored", "⚠️ error". */
export function cellText(impl: string, c: Cell): string {
  const link = (t: string) => `[${t}](#${anchor(impl, c.profile, c.suite)})`;
  if (c.status === "error") return link("⚠️ error");
  if (c.status === "none") return `➖ nothing scored${unscored(c)}`;
  const score = `${c.passed}/${scoredOf(c)}`;
  const n = c.incidental.length;
  const findings = n ? ` ${link(`+${n} finding${n > 1 ? "s" : ""}`)}` : "";
  if (c.status === "fail") return `❌ ${link(score)}${unscored(c)}`;
  return `${STATUS_MARK[c.status]} ${score}${unscored(c)}${findings}`;
}

/** The headline: every spec case of the spec suite over all of them, every spec rule over all of them (profile spec). */
export function headlineSection(r: CompatResult): string[] {
  const profile = r.profiles.includes("spec") ? "spec" : r.profiles[0]!;
  const rows = ran(r).map((i) => {
    const c = i.cells.find((x) => x.profile === profile && x.suite === "spec");
    const k = i.spec_rules?.[profile] ?? {};
    const all = Object.values(k).reduce((a, b) => a + b, 0);
    const n = (s: string) => k[s] ?? 0;
    const flips = (i.reruns ?? []).filter((x) => x.flipped);
    return [
      implLabel(i),
      c ? (c.status === "error" ? cellText(i.id, c) : `${STATUS_MARK[c.status]} ${c.passed}/${c.total}`) : "",
      c && c.status !== "error" ? `${c.failed + c.errored}` : "",
      c && c.status !== "error" ? `${c.missing}` : "",
      c && c.status !== "error" ? `${c.not_observable}` : "",
      all ? `${n("passed")}/${all}` : "",
      all ? `${n("failed") + n("expected_failure")}` : "",
      all ? `${n("n/a")}` : "",
      all ? `${n("not_observable")}` : "",
      all ? `${n("not_run") + n("not_checkable")}` : "",
      [
        ...flips.map((f) => `${f.case} ${f.first} → ${f.rerun} on rerun`),
        ...(i.not_rerun?.length ? [`not rerun: ${i.not_rerun.join(", ")}`] : []),
      ].join("; "),
    ];
  });
  return [
    "## Headline",
    "",
    `Profile \`${profile}\`: every case of the spec suite over all ${r.suites.find((s) => s.id === "spec")?.cases ?? "its"} cases, and every spec rule over all of them. A feature the implementation does not have is 🟪 **missing**, and a rule needing a value the harness does not produce is ⬜ **not observable here** (its driver says so, schemas/observations.json): both stay in the denominator and neither is ever counted as passed. *Not checked*: rules no case of the kit checks through the driver protocol. *Load*: a load-dependent case (${LOAD_DEPENDENT_NOTE}) that gave another verdict when run once more.`,
    "",
    ...table(
      [
        "implementation",
        "spec cases passed",
        "failed",
        "🟪 missing",
        "⬜ not observable",
        "spec rules passed",
        "failed",
        "🟪 missing",
        "⬜ not observable",
        "not checked",
        "load",
      ],
      rows,
    ),
    "",
  ];
}

const LOAD_DEPENDENT_NOTE =
  "one that bounds a time, such as S16's 1,000 concurrent calls within 4 s, and missed a time check or a deadline by less than 5 times its bound, K123";

function table(head: string[], rows: string[][]): string[] {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
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
    i.pins
      ? Object.entries(i.pins)
          .map(([p, v]) => `\`${p}@${v}\``)
          .join(", ")
      : "",
    `\`${i.driver}\``,
  ]);
  const out = [
    "## Implementations",
    "",
    ...table(["implementation", "as it names itself", "language", "harness pinned", "driver"], rows),
  ];
  for (const i of r.implementations)
    if (i.status !== "ran" && i.reason) out.push("", `- **${i.id}** (${i.status.replace("_", " ")}): ${i.reason}`);
  for (const i of r.implementations) if (i.note) out.push("", `- **${i.id}**: ${i.note}`);
  for (const i of r.implementations)
    if (i.kit_commit && i.kit_commit !== r.kit.commit)
      out.push(
        "",
        `- **${i.id}** was run separately, from kit commit ${i.kit_commit.slice(0, 12)} (merged into this page).`,
      );
  const unobs = r.implementations.filter((i) => i.unobserved?.length);
  if (unobs.length)
    out.push(
      "",
      "Values each harness does not produce (its driver leaves them out and declares them, so the rules needing them are ⬜ not observable here):",
      "",
      ...unobs.map((i) => `- **${i.id}**: ${i.unobserved!.map((u) => `\`${u}\``).join(", ")}`),
    );
  const missing = r.implementations.filter((i) => i.capabilities && Object.values(i.capabilities).some((v) => !v));
  if (missing.length)
    out.push(
      "",
      "Features each harness does not have in any shape (🟪 missing; its README names where in the harness's source each was looked for):",
      "",
      ...missing.map(
        (i) =>
          `- **${i.id}**: ${Object.entries(i.capabilities!)
            .filter(([, v]) => !v)
            .map(([k]) => `\`${k}\``)
            .join(", ")}`,
      ),
    );
  return out;
}

function resultsSection(r: CompatResult): string[] {
  const out = ["## Results", ""];
  out.push(
    "Each cell: cases passed / cases the profile scores in that suite. 🟪 *missing*: cases needing a capability the implementation does not have; ⬜ *not observable*: cases whose every rule needs a value the harness does not produce; both are in the denominator. *Not scored*: cases testing only rules outside the profile (out of the denominator). ✅ every scored case passed; 🟨 none failed but some are missing or not observable; ➖ the profile scores nothing here (never green); ❌ some failed; ⚠️ the run broke. A failing cell links to the rules that fail its cases; *+N findings* links to rules that failed only in checks the suite's cases do not exist for (a control call), which leave those cases passed.",
    "",
  );
  for (const p of r.profiles) {
    out.push(`### Profile \`${p}\`: ${PROFILE_NOTES[p] ?? ""}`, "");
    const rows = ran(r).map((i) => [
      implLabel(i),
      ...r.suites.map((s) => {
        const c = i.cells.find((x) => x.profile === p && x.suite === s.id);
        return c ? cellText(i.id, c) : "";
      }),
    ]);
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
  const out = [
    `<a id="${anchor(i.id, c.profile, c.suite)}"></a>**${i.id} · profile ${c.profile} · suite ${c.suite}**${c.by === "case" ? " *(by case)*" : ""}`,
    "",
  ];
  if (c.status === "error") return [...out, `- the run gave no report: ${c.reason ?? "unknown"}`, ""];
  out.push(...c.failing.map((f) => ruleLine(f, r)));
  if (c.incidental.length)
    out.push(
      `- seen only in checks these cases do not exist for (their cases pass):`,
      ...c.incidental.map((f) => `  ${ruleLine(f, r)}`),
    );
  return [...out, ""];
}

function failuresSection(r: CompatResult): string[] {
  const out = ["## Failing rules", ""];
  const byCase = r.implementations.some((i) => i.cells.some((c) => c.by === "case" && c.failing.length));
  if (byCase)
    out.push(
      "Cells marked *(by case)* come from a kit whose reports did not yet name rules: they list the failing cases instead.",
      "",
    );
  let any = false;
  for (const i of ran(r)) {
    const bad = i.cells.filter((c) => c.status === "fail" || c.status === "error" || c.incidental.length);
    if (!bad.length) continue;
    any = true;
    out.push(`### ${i.id}`, "");
    // Profiles nest (spec ⊂ decisions ⊂ exact): a rule that fails, fails under every profile that scores it,
    // so one list per implementation says it all; the rule's source says which profiles score it.
    const once = rulesOnce(i.cells);
    if (once.length)
      out.push(
        "Each failing rule once (a spec rule fails under every profile, a decision rule under decisions and exact, a rendering rule under exact):",
        "",
        ...once.map((f) => ruleLine(f, r)),
        "",
      );
    out.push("By cell:", "");
    for (const c of bad) out.push(...cellDetail(i, c, r));
  }
  if (!any) out.push("None.", "");
  return out;
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const us = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(1)} ms` : `${x.toFixed(0)} µs`);
const ratio = (x: number, base: number | undefined) =>
  base && base > 0 && Number.isFinite(x) ? `${(x / base).toFixed(1)}×` : "";

/** Whether every timed call of a row activated its skill: only then is its time an activation time to compare. */
export const activated = (t: Timing): boolean => t.calls > 0 && t.ok === t.calls;

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
      // A time of answers that were not activations (not_found for a skill it does not list) is no activation time.
      activated(t) ? ratio(t.activation_p50_us, ref?.activation_p50_us) : "not activations",
      us(t.activation_p99_us),
      `${t.ok}/${t.calls} ok${t.stopped ? `; then stopped at ${t.stopped}` : ""}`,
    ];
  });
  return [
    "## Discovery and activation time",
    "",
    `The same ${n.toLocaleString("en-US")} generated skills (\`bench/generate.ts\`, fixed seed) for every implementation, measured in this run from outside, through each driver over stdio (JSON-RPC, \`skill-reference-driver <module>\` for the JS ones), so every figure includes the same protocol round trip. After an untimed warm-up session (one discovery, up to 20 activations of other skills within ${WARMUP_BUDGET_MS / 1000} s): discovery is a fresh session's create + first catalog, median of ${withT[0]!.timing!.discovery_runs_ms.length}; activation is first activations of distinct skills spread over the tree, one at a time, on one more fresh session, for at most ${TIMED_BUDGET_MS / 1000} s (a harness whose every call is an agent turn gets fewer: *calls* says how many). Ratios are to the reference in the same run; an activation ratio is given only where every timed call answered ok (else the time is of refusals, such as not_found for skills a harness leaves out of its listing). A shared, noisy 2-core VM: read the ratios, not the absolute figures.`,
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
    `Every harness below was installed from the version its folder pins (\`npm ci\` with its own lockfile), and every implementation was run through every suite of the conformance kit under ${r.profiles.length > 1 ? "every profile" : "the kit's verdict"}, ${r.merged ? `in ${r.merged} runs of \`npm run compat\`, merged into one page with \`--merge\` (each row says when it came from another commit)` : "in one run of \`npm run compat\`"}${r.resumed ? ", interrupted and finished with \`--resume\` (each row from the report its first part finished, or run in the resumed part)" : ""} on ${r.generated_at.slice(0, 10)} (kit ${r.kit.version}${r.kit.commit ? `, commit ${r.kit.commit.slice(0, 12)}` : ""}, Node ${r.node}, ${(r.duration_ms / 1000).toFixed(0)} s${r.resumed ? " in the resumed part" : ""}${r.merged ? " in all" : ""}). The drivers are in \`implementations/<id>/\`; each README says what real code is exercised and what its driver had to synthesise. The same data is in [compatibility.json](compatibility.json).`,
    "",
  ];
  return (
    [
      ...head,
      ...headlineSection(r),
      ...versionsSection(r),
      "",
      ...resultsSection(r),
      ...failuresSection(r),
      ...timingSection(r),
    ]
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trimEnd() + "\n"
  );
}
