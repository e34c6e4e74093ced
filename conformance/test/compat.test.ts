// The compatibility page's core and renderers on canned reports: no network, no driver, no npm.
// Each test names the wrong behaviour it catches.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cellsFromReport, errorCells, rulesOnce, type ReportLike } from "../compat/cells.ts";
import { renderHtml } from "../compat/render-html.ts";
import { anchor, cellText, renderMarkdown } from "../compat/render-markdown.ts";
import { ruleIndex } from "../compat/rule-table.ts";
import { findTargets } from "../compat/targets.ts";
import { percentile, spread } from "../compat/timing.ts";
import { npmErrorHead } from "../compat/run-suites.ts";
import type { CompatResult } from "../compat/types.ts";
import { rules } from "../../schemas/index.ts";

const suiteOf = new Map([
  ["U01", "spec"],
  ["U16", "spec"],
  ["U17", "spec"],
  ["S04", "security"],
  ["S13", "security"],
]);
const SUITES = ["spec", "security"];

/** A body-trimming implementation under rules: body.verbatim fails U16, which exists to test it; S04 and S13
 *  show it only on their control call and keep the property they exist for. */
const withRules: ReportLike = {
  implementation: { name: "trimmer", version: "1.2.3", language: "typescript" },
  cases: [
    { id: "U01", status: "passed", rules: ["name.kebab-case"] },
    { id: "U16", status: "failed", rules: ["body.verbatim"] },
    { id: "U17", status: "skipped", rules: ["dedupe.already-loaded"] },
    { id: "S04", status: "passed", rules: ["name.no-path"] },
    { id: "S13", status: "passed", rules: ["name.no-folding"] },
  ],
  rules: [
    { id: "body.verbatim", source: "spec", level: "MUST", status: "failed", cases: ["U16", "S04", "S13"] },
    { id: "output.block-layout", source: "rendering", level: "MUST", status: "not_scored", cases: ["U16"] },
    { id: "name.kebab-case", source: "spec", level: "MUST", status: "passed", cases: ["U01"] },
    { id: "dedupe.already-loaded", source: "decision", level: "MUST", status: "n/a", cases: ["U17"] },
  ],
};

describe("cellsFromReport", () => {
  it("counts each suite's cases apart (a run-wide count would put S04's pass into spec's cell)", () => {
    const [spec, security] = cellsFromReport(withRules, "spec", SUITES, suiteOf);
    expect(spec).toMatchObject({
      suite: "spec",
      total: 3,
      passed: 1,
      failed: 1,
      skipped: 1,
      status: "fail",
      by: "rule",
    });
    expect(security).toMatchObject({ suite: "security", total: 2, passed: 2, failed: 0 });
  });

  it("a rule fails a suite's cell through the cases that exist to test it; elsewhere it is a finding that leaves the cell passing", () => {
    const [spec, security] = cellsFromReport(withRules, "spec", SUITES, suiteOf);
    expect(spec!.failing).toEqual([{ id: "body.verbatim", source: "spec", level: "MUST", cases: ["U16"] }]);
    expect(spec!.incidental).toEqual([]);
    // S04 and S13 passed: the trimmed control-call body must not turn the security cell red (issue 19's first finding).
    expect(security).toMatchObject({ status: "pass", failing: [] });
    expect(security!.incidental).toEqual([
      { id: "body.verbatim", source: "spec", level: "MUST", cases: ["S04", "S13"] },
    ]);
  });

  it("rulesOnce lists each failed rule once per implementation and profile, with every case it shows in", () => {
    expect(rulesOnce(cellsFromReport(withRules, "spec", SUITES, suiteOf))).toEqual([
      { id: "body.verbatim", source: "spec", level: "MUST", cases: ["U16", "S04", "S13"] },
    ]);
  });

  it("a failed or errored case no failed rule accounts for (a crash) is listed as itself, so a red cell never links to nothing", () => {
    const r: ReportLike = {
      cases: [{ id: "U01", status: "errored", rules: ["name.kebab-case"], title: "Empty name" }],
      rules: [{ id: "name.kebab-case", source: "spec", status: "passed", cases: ["U01"] }],
    };
    const [cell] = cellsFromReport(r, "spec", ["spec"], suiteOf);
    expect(cell).toMatchObject({ status: "fail", errored: 1 });
    expect(cell!.failing).toEqual([{ id: "U01", source: "case", cases: ["U01"], title: "Empty name" }]);
  });

  it("counts not-scored cases apart from missing and not-observable ones, and a cell with either is not a pass", () => {
    const r: ReportLike = {
      cases: [
        { id: "U01", status: "not_scored" },
        { id: "U16", status: "skipped", reason: "the implementation declares capability symlinks false" },
        { id: "U17", status: "passed" },
      ],
      rules: [],
    };
    expect(cellsFromReport(r, "spec", ["spec"], suiteOf)[0]).toMatchObject({
      total: 3,
      not_scored: 1,
      skipped: 1,
      missing: 1,
      not_observable: 0,
      passed: 1,
      status: "partial",
    });
    const u: ReportLike = {
      cases: [
        { id: "U16", status: "skipped", reason: "not observable here: every rule the case tests is n/a or …" },
        { id: "U17", status: "passed" },
      ],
      rules: [],
    };
    expect(cellsFromReport(u, "spec", ["spec"], suiteOf)[0]).toMatchObject({
      missing: 0,
      not_observable: 1,
      status: "partial",
    });
    const none: ReportLike = { cases: [{ id: "U16", status: "not_scored" }], rules: [] };
    expect(cellsFromReport(none, "spec", ["spec"], suiteOf)[0]).toMatchObject({ status: "none" });
    const all: ReportLike = {
      cases: [
        { id: "U16", status: "passed" },
        { id: "U17", status: "passed" },
      ],
      rules: [],
    };
    expect(cellsFromReport(all, "spec", ["spec"], suiteOf)[0]).toMatchObject({ status: "pass" });
  });

  it("never lists not-scored, n/a or passed rules as failing (a renderer reading every rule would)", () => {
    const ids = cellsFromReport(withRules, "spec", SUITES, suiteOf).flatMap((c) =>
      [...c.failing, ...c.incidental].map((f) => f.id),
    );
    expect(ids).toEqual(["body.verbatim", "body.verbatim"]);
  });

  it("falls back to failed and errored cases when the report has no rules, marked by case", () => {
    const old: ReportLike = {
      cases: [
        { id: "U01", status: "errored" },
        { id: "U16", status: "failed", title: "First activation → ok" },
        { id: "S04", status: "passed" },
      ],
    };
    const [spec, security] = cellsFromReport(old, "default", SUITES, suiteOf);
    expect(spec).toMatchObject({ by: "case", status: "fail", errored: 1, failed: 1 });
    expect(spec!.failing.map((f) => [f.id, f.source])).toEqual([
      ["U01", "case"],
      ["U16", "case"],
    ]);
    expect(security).toMatchObject({ status: "pass", failing: [] });
    // Rendered as cases, with their titles, and said to be cases: never passed off as rule ids.
    const md = renderMarkdown({ ...result(), implementations: [{ ...result().implementations[1]!, cells: [spec!] }] });
    expect(md).toContain("- case `U16`: First activation → ok");
    expect(md).toContain("*(by case)*");
  });

  it("sorts failing rules spec, decision, rendering, then by id", () => {
    const r: ReportLike = {
      cases: [{ id: "U01", status: "failed" }], // no case.rules (an older kit): every case of a failed rule counts
      rules: [
        { id: "z.render", source: "rendering", status: "failed", cases: ["U01"] },
        { id: "b.decide", source: "decision", status: "failed", cases: ["U01"] },
        { id: "y.spec", source: "spec", status: "failed", cases: ["U01"] },
        { id: "a.spec", source: "spec", status: "failed", cases: ["U01"] },
      ],
    };
    expect(cellsFromReport(r, "exact", ["spec"], suiteOf)[0]!.failing.map((f) => f.id)).toEqual([
      "a.spec",
      "y.spec",
      "b.decide",
      "z.render",
    ]);
  });

  it("a run without a report is an error cell per suite with its reason, never a pass", () => {
    const cells = errorCells("spec", SUITES, "exit 2: cannot load cases");
    expect(cells.map((c) => [c.suite, c.status, c.reason])).toEqual([
      ["spec", "error", "exit 2: cannot load cases"],
      ["security", "error", "exit 2: cannot load cases"],
    ]);
  });
});

function result(): CompatResult {
  const cells = [
    ...cellsFromReport(withRules, "spec", SUITES, suiteOf),
    ...cellsFromReport(withRules, "exact", SUITES, suiteOf),
  ];
  return {
    generated_at: "2026-12-05T00:00:00.000Z",
    kit: { version: "0.1.0", commit: "0123456789abcdef" },
    node: "v20.0.0",
    profiles: ["spec", "exact"],
    suites: [
      { id: "spec", cases: 3 },
      { id: "security", cases: 2 },
    ],
    implementations: [
      {
        id: "reference",
        name: "skill-tool-reference",
        version: "0.1.0",
        language: "typescript",
        driver: "reference/index.ts",
        status: "ran",
        cells: cells.map((c) => ({
          ...c,
          status: "pass",
          failing: [],
          incidental: [],
          passed: c.total - c.skipped,
          failed: 0,
        })),
        timing: {
          skills: 1000,
          discovery_ms: 40,
          discovery_runs_ms: [40, 41, 39],
          listed: 1000,
          activation_p50_us: 100,
          activation_p99_us: 300,
          calls: 200,
          ok: 200,
        },
      },
      {
        id: "trimmer",
        name: "trimmer",
        version: "1.2.3",
        language: "typescript",
        driver: "implementations/trimmer/driver.mjs",
        pins: { trimmer: "1.2.3" },
        status: "ran",
        cells,
        timing: {
          skills: 1000,
          discovery_ms: 400,
          discovery_runs_ms: [400, 410, 390],
          listed: 990,
          activation_p50_us: 1500,
          activation_p99_us: 4000,
          calls: 200,
          ok: 200,
        },
      },
      {
        id: "rust",
        name: "rust",
        version: "",
        language: "",
        driver: "implementations/rust/target/release/skill-driver",
        status: "not_built",
        reason: "its driver is built by bash implementations/rust/build.sh, not run here",
        cells: [],
      },
    ],
    rules: {
      "body.verbatim": {
        source: "spec",
        level: "MUST",
        text: "The body is stored verbatim <exactly>",
        cite: "§4.5 rule 6",
      },
    },
    duration_ms: 61_000,
  };
}

describe("renderMarkdown", () => {
  const md = renderMarkdown(result());

  it("links a failing cell to its anchor, and the anchor exists once with the rule under it", () => {
    const a = anchor("trimmer", "spec", "spec");
    expect(md).toContain(`❌ [1/3](#${a}) · 🟪 1 missing`);
    expect(md.split(`<a id="${a}"></a>`).length).toBe(2);
    const section = md.slice(md.indexOf(`<a id="${a}"></a>`));
    expect(section).toMatch(
      /^.*\n\n- `body\.verbatim` \(spec, MUST\): The body is stored verbatim <exactly> \(§4\.5 rule 6\) — cases U16/,
    );
  });

  it("names rules, not cases, in a failing cell built from rules", () => {
    const section = md.slice(md.indexOf("## Failing rules"), md.indexOf("## Discovery"));
    expect(section).not.toMatch(/^- `U16`/m);
    expect(section).not.toContain("(by case)");
  });

  it("a cell without failures but with a missing feature is not green, and the missing case stays in the denominator", () => {
    expect(
      cellText("reference", {
        profile: "spec",
        suite: "spec",
        total: 4,
        passed: 2,
        failed: 0,
        errored: 0,
        skipped: 1,
        missing: 1,
        not_observable: 0,
        not_scored: 1,
        status: "partial",
        by: "rule",
        failing: [],
        incidental: [],
      }),
    ).toBe("🟨 2/3 · 🟪 1 missing · 1 not scored");
  });

  it("the headline counts every spec case and every spec rule, missing and not observable in the denominator, and marks a load flip", () => {
    const r = result();
    const t = r.implementations[1]!;
    t.spec_rules = {
      spec: {
        passed: 10,
        failed: 20,
        expected_failure: 0,
        not_scored: 0,
        "n/a": 20,
        not_observable: 6,
        not_run: 3,
        not_checkable: 5,
      },
    };
    t.reruns = [{ case: "S16", first: "errored", rerun: "passed", flipped: true }];
    const md = renderMarkdown(r);
    expect(md).toContain(
      "| **trimmer** | ❌ 1/3 | 1 | 1 | 0 | 10/64 | 20 | 20 | 6 | 8 | S16 errored → passed on rerun |",
    );
  });

  it("a column that scores nothing is not green", () => {
    expect(
      cellText("reference", {
        profile: "spec",
        suite: "contract",
        total: 8,
        passed: 0,
        failed: 0,
        errored: 0,
        skipped: 0,
        missing: 0,
        not_observable: 0,
        not_scored: 8,
        status: "none",
        by: "rule",
        failing: [],
        incidental: [],
      }),
    ).toBe("➖ nothing scored · 8 not scored");
  });

  it("a passing cell with a finding links it, and the anchor lists it as seen only in other checks", () => {
    const a = anchor("trimmer", "spec", "security");
    expect(md).toContain(`✅ 2/2 [+1 finding](#${a})`);
    const section = md.slice(md.indexOf(`<a id="${a}"></a>`));
    expect(section).toMatch(
      /seen only in checks these cases do not exist for[^\n]*\n  - `body\.verbatim` \(spec, MUST\)[^\n]*— cases S04, S13/,
    );
  });

  it("lists each failing rule once per implementation above the cells, not once per profile", () => {
    expect(
      md.match(
        /- `body\.verbatim` \(spec, MUST\): The body is stored verbatim <exactly> \(§4\.5 rule 6\) — cases U16, S04, S13\n/g,
      ),
    ).toHaveLength(1);
    expect(md).toMatch(
      /Each failing rule once \([^)]*\):\n\n- `body\.verbatim` \(spec, MUST\): The body is stored verbatim <exactly> \(§4\.5 rule 6\) — cases U16, S04, S13\n/,
    );
  });

  it("shows the versions it was made from: kit commit, harness pins, and a not-built implementation with why", () => {
    expect(md).toContain("commit 0123456789ab");
    expect(md).toContain("`trimmer@1.2.3`");
    expect(md).toContain(
      "- **rust** (not built): its driver is built by bash implementations/rust/build.sh, not run here",
    );
  });

  it("puts each timing beside the reference's as a ratio, and says how many skills were listed", () => {
    expect(md).toMatch(
      /\| \*\*trimmer\*\* \| 990\/1000 \| 400 ms \| 10\.0× \| 1\.5 ms \| 15\.0× \| 4\.0 ms \| 200\/200 ok \|/,
    );
    expect(md).toMatch(/\| \*\*reference\*\* \| 1000\/1000 \| 40\.0 ms \| 1\.0× \|/);
  });

  it("a failed timing says why instead of printing NaN", () => {
    const r = result();
    r.implementations[1]!.timing = {
      ...r.implementations[1]!.timing!,
      discovery_ms: NaN,
      error: "catalog() did not answer within 120000 ms",
    };
    const out = renderMarkdown(r);
    expect(out).toContain("not measured: catalog() did not answer within 120000 ms");
    expect(out).not.toContain("NaN");
  });
});

describe("renderHtml", () => {
  it("escapes what it shows (a rule text with < > is not markup) and links failing cells", () => {
    const html = renderHtml(result());
    expect(html).toContain("The body is stored verbatim &lt;exactly&gt;");
    expect(html).toContain(
      `<td class="fail"><a href="#${anchor("trimmer", "exact", "spec")}">1/3</a> <span class="missing">1 missing</span>`,
    );
    expect(html).toContain(`<section id="${anchor("trimmer", "exact", "spec")}">`);
  });
});

describe("ruleIndex", () => {
  it("shows each rule of the one rules table (schemas/index.ts reads it) by id: source, level, statement, citations", () => {
    expect(ruleIndex([{ id: "a", source: "spec", level: "MUST", statement: "A.", cites: ["§1", "§2"] }])).toEqual({
      a: { source: "spec", level: "MUST", text: "A.", cite: "§1, §2" },
    });
    const all = ruleIndex();
    expect(Object.keys(all)).toEqual(rules().map((r) => r.id));
  });
});

describe("findTargets", () => {
  it("finds harness folders by package.json, reads their driver and pins, and reports a missing driver instead of dropping it", () => {
    const root = mkdtempSync(join(tmpdir(), "compat-targets-"));
    try {
      for (const [id, pkg, file] of [
        ["alpha", { dependencies: { alpha: "1.0.0" }, skillConformance: { driver: "d.mjs" } }, "d.mjs"],
        ["beta", { dependencies: { beta: "2.0.0" }, skillConformance: { exec: "node serve.mjs" } }, undefined],
        ["gamma", { dependencies: {} }, undefined],
      ] as const) {
        mkdirSync(join(root, "implementations", id), { recursive: true });
        writeFileSync(join(root, "implementations", id, "package.json"), JSON.stringify(pkg));
        if (file) writeFileSync(join(root, "implementations", id, file), "");
      }
      mkdirSync(join(root, "implementations", "notes"));
      const t = findTargets(root);
      expect(t.map((x) => x.id)).toEqual(["reference", "rust", "alpha", "beta", "gamma"]);
      expect(t[0]).toMatchObject({ kind: "reference" }); // reached as --reference: the CLI refuses it under another name (R100)
      expect(t[1]!.missing).toMatch(/build\.sh/);
      expect(t[2]).toMatchObject({ kind: "module", display: "implementations/alpha/d.mjs", pins: { alpha: "1.0.0" } });
      expect(t[3]).toMatchObject({ kind: "exec" });
      expect(t[3]!.spec).toMatch(/^cd '.*\/implementations\/beta' && node serve\.mjs$/);
      expect(t[4]!.missing).toBe("no driver module implementations/gamma/driver.mjs");
      expect(findTargets(root, ["alpha"]).map((x) => x.id)).toEqual(["alpha"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("timing helpers", () => {
  it("spread picks distinct names across the whole list, not its first ones", () => {
    const names = Array.from({ length: 1000 }, (_, i) => `s-${i}`);
    const picked = spread(names, 4);
    expect(picked).toEqual(["s-0", "s-250", "s-500", "s-750"]);
    expect(spread(names.slice(0, 3), 10)).toEqual(["s-0", "s-1", "s-2"]);
  });

  it("percentile is nearest-rank on a sorted copy", () => {
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 0.99)).toBe(5);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe("npmErrorHead", () => {
  it("keeps npm's cause and drops the usage text it prints after (a tail would show only the usage)", () => {
    const stderr = [
      "npm error code EUSAGE",
      "npm error",
      "npm error `npm ci` can only install packages when your package.json and package-lock.json are in sync.",
      "npm error Missing: a@ from lock file",
      "npm error Missing: b@ from lock file",
      "npm error",
      "npm error Clean install a project",
      "npm error Usage:",
      "npm error npm ci",
    ].join("\n");
    expect(npmErrorHead(stderr)).toBe(
      "code EUSAGE `npm ci` can only install packages when your package.json and package-lock.json are in sync. Missing: a@ from lock file Missing: b@ from lock file",
    );
    expect(npmErrorHead("npm error network ETIMEDOUT\n")).toBe("network ETIMEDOUT");
  });
});
