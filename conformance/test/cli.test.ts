// The command line (scripts/conformance.ts): exit codes, named targets (never a fallback to the kit's reference),
// expected failures (checked before the run, stale and effective), report files that validate, one-line usage errors,
// parity clean against itself and dirty against a wrong driver, smoke, and the renderers' escaping. main() runs in this process; only subprocess targets spawn (small node drivers).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { check } from "../../schemas/index.ts";
import { main } from "../../scripts/conformance.ts";
import { badge } from "../report/badge.ts";
import { renderJunit, xmlEscape } from "../report/junit.ts";
import { renderMarkdown } from "../report/markdown.ts";
import type { RunReport } from "../runner/types.ts";
import { countRules } from "../runner/verdicts.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const WRONG = `"${process.execPath}" "${join(HERE, "faulty", "wrong.mjs")}"`;
const REFERENCE_STDIO = `"${process.execPath}" --import tsx "${join(REPO, "scripts/reference-driver.ts")}"`;
const dir = mkdtempSync(join(tmpdir(), "skill-cli-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** Minimal XML well-formedness: every tag closes in order, no raw & or < in text. */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, "");
  if (/&(?!(amp|lt|gt|quot|apos);)/.test(body)) return false;
  const stack: string[] = [];
  for (const m of body.matchAll(/<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>/g)) {
    const [, close, name, , self] = m;
    if (self) continue;
    if (close) {
      if (stack.pop() !== name) return false;
    } else stack.push(name!);
  }
  const stripped = body.replace(/<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>/g, "");
  return stack.length === 0 && !stripped.includes("<");
}

describe("npm run conformance", () => {
  it("the reference in-process passes everything: exit 0, and every report file is written and valid", async () => {
    const f = (n: string) => join(dir, n);
    const r = await run(
      "--reference",
      "--json",
      f("r.json"),
      "--junit",
      f("r.xml"),
      "--markdown",
      f("r.md"),
      "--badge",
      f("badge.json"),
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^PASS  U01 /m);
    expect(r.out).toMatch(
      /\nscore: spec rules \(profile spec\): \d+ passed, 0 failed, \d+ not run by this suite, \d+ not checkable\ncases: 30\/30 passed \(0 failed, 0 errored, 0 skipped\) in \d+ ms/,
    );
    const json = JSON.parse(readFileSync(f("r.json"), "utf8")) as RunReport;
    expect(check("report.schema.json", json)).toEqual({ valid: true });
    expect(json.summary).toMatchObject({ total: 30, passed: 30, failed: 0, errored: 0, skipped: 0 });
    const xml = readFileSync(f("r.xml"), "utf8");
    expect(wellFormed(xml)).toBe(true);
    expect(xml.match(/<testcase classname="conformance\.spec"/g)).toHaveLength(30);
    expect(xml.match(/<testcase classname="conformance\.rules\./g)!.length).toBeGreaterThan(50);
    expect(xml).toContain('tests="30" failures="0" errors="0" skipped="0"');
    expect(readFileSync(f("r.md"), "utf8")).toContain("| U30 |");
    const held = json.score.rules.passed;
    expect(json.score).toMatchObject({
      profile: "spec",
      sources: ["spec"],
      rules: { failed: 0, errored: 0 },
      cases: { scored: 30, passed: 30, not_scored: 0 },
    });
    expect(JSON.parse(readFileSync(f("badge.json"), "utf8"))).toEqual({
      schemaVersion: 1,
      label: "skill-tool conformance",
      message: `${held}/${held} spec rules, 30/30 cases`,
      color: "brightgreen",
    });
  });

  it("one score: a not-scored case is neither passed nor failed anywhere, and JUnit's root counts its elements", async () => {
    const f = (n: string) => join(dir, n);
    const r = await run(
      "--reference",
      "--suite",
      "security",
      "--json",
      f("s.json"),
      "--junit",
      f("s.xml"),
      "--badge",
      f("sb.json"),
      "--markdown",
      f("s.md"),
    );
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(readFileSync(f("s.json"), "utf8")) as RunReport;
    const ns = json.summary.not_scored!;
    expect(ns).toBeGreaterThan(0);
    const scored = json.summary.total - ns;
    expect(json.score.cases).toEqual({ scored, passed: scored, not_scored: ns });
    expect(r.out).toContain(`cases: ${scored}/${scored} passed (0 failed, 0 errored, 0 skipped, ${ns} not scored)`);
    expect(readFileSync(f("s.md"), "utf8")).toContain(`${scored}/${scored} passed`);
    expect((JSON.parse(readFileSync(f("sb.json"), "utf8")) as { message: string }).message).toMatch(
      new RegExp(`, ${scored}/${scored} cases$`),
    );
    const xml = readFileSync(f("s.xml"), "utf8");
    const root = /<testsuites [^>]*tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/.exec(xml)!;
    expect(Number(root[1])).toBe(xml.match(/<testcase /g)!.length);
    expect(Number(root[4])).toBe(xml.match(/<skipped /g)!.length);
    for (const suite of xml.match(/<testsuite [^>]*>[\s\S]*?<\/testsuite>/g)!) {
      const head = /tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/.exec(suite)!;
      expect(Number(head[1])).toBe(suite.match(/<testcase /g)!.length);
      expect(Number(head[4])).toBe((suite.match(/<skipped /g) ?? []).length);
    }
  });

  it("a suite the profile scores nothing of says so and names the profile that scores it (not 0/8 passed)", async () => {
    const r = await run("--reference", "--suite", "contract", "--json", join(dir, "c.json"));
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toMatch(/0\/\d+ passed/);
    expect(r.out).toMatch(
      /cases: no case scored: profile spec scores none of this run's \d+ cases: run --profile decisions to score them/,
    );
    expect((JSON.parse(readFileSync(join(dir, "c.json"), "utf8")) as RunReport).score.scored_by).toBe("decisions");
  });

  it("a stale expected failure (the case passes) fails the run, and the report keeps the case's observed status", async () => {
    writeFileSync(join(dir, "stale.txt"), "# known failures\nU01  # fixed since\n");
    const r = await run(
      "--reference",
      "--filter",
      "U01,U02",
      "--expected-failures",
      join(dir, "stale.txt"),
      "--json",
      join(dir, "stale.json"),
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/stale expected failure: U01 passed; remove it from /);
    expect(r.out).toMatch(/^PASS  U01 /m);
    const json = JSON.parse(readFileSync(join(dir, "stale.json"), "utf8")) as RunReport;
    expect(json.cases[0]).toMatchObject({ id: "U01", status: "passed", baseline: "stale" });
    expect(json.summary).toMatchObject({ passed: 2, failed: 0 });
    expect(check("report.schema.json", json)).toEqual({ valid: true });
  });

  it("an expected-failures id that is no case of any suite is a usage error before anything runs", async () => {
    writeFileSync(join(dir, "ghost.txt"), "U01\nU99\n");
    const r = await run("--reference", "--expected-failures", join(dir, "ghost.txt"));
    expect(r.code).toBe(2);
    expect(r.out).toBe(""); // nothing ran
    expect(r.err).toMatch(/line 2 "U99"/);
    expect(r.err.split("\n")).toHaveLength(1);
  });

  it("a wrong implementation fails (exit 1); listing its failures as expected makes it exit 0", async () => {
    const failing = await run(
      "--exec",
      WRONG,
      "--filter",
      "U01,U16",
      "--json",
      join(dir, "wrong.json"),
      "--junit",
      join(dir, "wrong.xml"),
      "--badge",
      join(dir, "wrong-badge.json"),
    );
    expect(failing.code).toBe(1);
    expect(failing.out).toMatch(/^FAIL  U01 /m);
    expect(failing.out).toMatch(/^ {8}call calls\[0\]: \{"name":""\}\n {8}calls\[0\]\.kind: wrong kind/m); // the call beside what came back (R39)
    expect(failing.out).toMatch(/expected: "error"\n\s+actual: {3}"not_found"/);
    expect(failing.out).toMatch(/rules: name\.required/);
    // The rerun line keeps what decides the verdict: the target, and the profile when one was given.
    expect(failing.out).toMatch(/rerun: \S.* --exec .*wrong\.mjs.* --suite spec --filter U01$/m);
    const profiled = await run("--exec", WRONG, "--filter", "U01", "--profile", "exact");
    expect(profiled.out).toMatch(/rerun: .* --profile exact --suite spec --filter U01$/m);
    // The failing rules, each once, with the cases that show them: activate.ok is shown by U16 and by U01's control call.
    expect(failing.out).toMatch(
      /^ {2}FAIL {2}activate\.ok \(spec MUST, §3\.1, §7\): .*\n {8}cases: U01, U16\n {8}e\.g\. {3}U01 calls\[1\]\.kind: wrong kind/m,
    );
    const json = JSON.parse(readFileSync(join(dir, "wrong.json"), "utf8")) as RunReport;
    expect(check("report.schema.json", json)).toEqual({ valid: true });
    expect(json.summary.failed).toBe(2);
    const xml = readFileSync(join(dir, "wrong.xml"), "utf8");
    expect(wellFormed(xml)).toBe(true);
    expect(xml.match(/<failure [^>]*type="mismatch"/g)).toHaveLength(2);
    expect(JSON.parse(readFileSync(join(dir, "wrong-badge.json"), "utf8")).color).toBe("red");

    // One file for every suite: ids of suites (and cases) that do not run are neither stale nor an error.
    writeFileSync(join(dir, "xfail.txt"), "U01\nU16 # not_found everywhere\nU02\nS01\nC01\n");
    const ok = await run("--exec", WRONG, "--filter", "U01,U16", "--expected-failures", join(dir, "xfail.txt"));
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.out).toMatch(/0\/2 passed \(0 failed, 0 errored, 0 skipped, 2 expected failures\)/);
  });

  it("parity of the reference in-process against itself over stdio is clean", async () => {
    const r = await run("--parity", "--reference", "--exec", REFERENCE_STDIO);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/parity \(exact\): 30\/30 cases identical, 0 differ/);
    const semantic = await run(
      "--parity",
      "--parity-level",
      "semantic",
      "--reference",
      "--exec",
      REFERENCE_STDIO,
      "--suite",
      "contract",
    );
    expect(semantic.code, semantic.out).toBe(0);
    expect(semantic.out).toMatch(/parity \(semantic\): 8\/8 cases identical, 0 differ/);
  });

  it("parity against a wrong driver reports the differences per case and exits 1", async () => {
    const json = join(dir, "parity.json");
    const r = await run("--parity", "--reference", "--exec", WRONG, "--filter", "U04,U17", "--json", json);
    expect(r.code).toBe(1);
    // --json holds the parity report (it was silently not written).
    expect(JSON.parse(readFileSync(json, "utf8"))).toMatchObject({ level: "exact", differing: 2 });
    expect(r.out).toMatch(/^DIFF  U04 /m);
    expect(r.out).toMatch(/at observed\[0\][^\n]*, first difference at character \d+:\n {10}A: .*⟦.*\n {10}B: .*⟦/);
    expect(r.out).toMatch(/2 differ/);
  });

  it("smoke: ok for the reference, failed steps for a wrong driver", async () => {
    const json = join(dir, "smoke.json");
    const good = await run("--smoke", "--reference", "--json", json);
    expect(good.code, good.out).toBe(0);
    expect(JSON.parse(readFileSync(json, "utf8"))).toMatchObject({
      ok: true,
      steps: expect.arrayContaining([expect.objectContaining({ step: "initialize", status: "ok" })]),
    });
    for (const step of ["initialize", "session/create", "session/catalog", "skill/call", "session/close", "shutdown"]) {
      expect(good.out).toMatch(new RegExp(`^ok +${step.replace("/", "\\/")} `, "m"));
    }
    const bad = await run("--smoke", "--exec", WRONG);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^FAILED +session\/catalog/m);
    expect(bad.out).toMatch(/^ok +shutdown/m);
  });

  it("every usage error is one line on stderr, exit 2, before anything runs", async () => {
    writeFileSync(join(dir, "garbage.txt"), "\u0000\u0001PK\u0003\u0004 binary junk\n");
    writeFileSync(join(dir, "typos.txt"), "U01\nU1\nSO1\n");
    writeFileSync(join(dir, "a-file"), "");
    const cases: Array<[string[], RegExp]> = [
      [[], /no target: name the implementation under test/], // an empty $DRIVER in CI is not a green run
      [["--exec", ""], /--exec "" names no command/],
      [["--driver", ""], /--driver is empty/],
      [["--driver", "./no-such-module.js"], /--driver \.\/no-such-module\.js: no such file .*no-such-module\.js/],
      [
        ["--exec", "./target/release/no-such-driver --flag"],
        /--exec \.\/target\/release\/no-such-driver: no such file/,
      ],
      [
        ["--reference", "--suite", "nope"],
        /^skill-conformance: unknown suite "nope": the suites are spec, contract, frontmatter, security/,
      ],
      [["--reference", "--json", "a.json", "--json", "b.json"], /--json is given 2 times/],
      [["--reference", "--expected-failures", join(dir, "garbage.txt")], /not a text file/],
      [
        ["--reference", "--expected-failures", join(dir, "typos.txt")],
        /2 entries that are no case of any suite nor rule:<id> of a known rule: line 2 "U1", line 3 "SO1"/,
      ],
      [["--reference", "--expected-failures", join(dir, "missing.txt")], /cannot read --expected-failures .*ENOENT/],
      [
        ["--reference", "--junit", join(dir, "a-file", "junit.xml")],
        /--junit .*cannot be written \(a parent of it is a file/,
      ],
      [["--reference", "--json", dir], /--json .*cannot be written/],
      [["--parity", "--exec", WRONG], /--parity compares exactly two targets/],
      [["--reference", "--exec", WRONG], /give one target/],
      [["--bogus"], /Unknown option '--bogus'/],
      [["positional"], /Unexpected argument 'positional'/],
      [["--reference", "--filter", "Z99"], /no case of suite spec matches --filter Z99/],
      [["--reference", "--timeout", "soon"], /--timeout wants a positive number/],
      [
        ["--reference", "--timeout", "-5"],
        /argument is ambiguous\. To specify an option argument starting with a dash use '--timeout=-XYZ'/,
      ],
      [["--reference", "--parity-level", "fuzzy"], /--parity-level wants exact or semantic/],
      [["--driver", "reference/index.ts"], /answers as the kit's own reference .* say --reference/], // the reference without the word
      [["--smoke", "--exec", REFERENCE_STDIO], /answers as the kit's own reference/], // smoke too
      // A report flag a mode does not write is refused, not silently dropped.
      [
        ["--parity", "--reference", "--exec", WRONG, "--junit", join(dir, "p.xml")],
        /--parity writes --json only: drop --junit/,
      ],
      [
        ["--smoke", "--reference", "--markdown", join(dir, "s.md"), "--expected-failures", join(dir, "typos.txt")],
        /--smoke writes --json only: drop --markdown, --expected-failures/,
      ],
      [
        ["--parity", "--fuzz", "2", "--reference", "--junit", join(dir, "f.xml")],
        /--parity --fuzz writes --json only: drop --junit/,
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await run(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.out, argv.join(" ")).toBe("");
      expect(r.err, argv.join(" ")).toMatch(message);
      expect(r.err.split("\n"), argv.join(" ")).toHaveLength(1);
      expect(r.err, argv.join(" ")).not.toContain(REPO + "/conformance"); // no internal path
    }
  });

  it("a module that exists but is no implementation stops the run before any case, one line, exit 2", async () => {
    writeFileSync(join(dir, "not-impl.mjs"), "export const nothing = 1;\n");
    const r = await run("--driver", join(dir, "not-impl.mjs"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot load --driver .*does not export createSession/);
  });

  it("--version, --list, and several suites in one run", async () => {
    const v = await run("--version");
    expect(v.code).toBe(0);
    expect(v.out).toMatch(/^skill-conformance \d+\.\d+\.\d+ \(spec 1\)$/);
    const l = await run("--list");
    expect(l.code).toBe(0);
    expect(l.out).toMatch(/^spec {2}\(30 cases, conformance\/cases\/\)$/m);
    expect(l.out).toMatch(/^security {2}\(\d+ cases, conformance\/cases-security\/\)$/m);
    expect(l.out).toMatch(/^ {2}U01 {3}Empty name/m);
    const two = await run(
      "--reference",
      "--suite",
      "spec,security",
      "--filter",
      "U01,S01",
      "--json",
      join(dir, "two.json"),
    );
    expect(two.code, two.err).toBe(0);
    expect(two.out).toMatch(
      /suite "spec,security", 2 cases\nimplementation under test: skill-tool-reference .* via the kit's reference/,
    );
    expect((JSON.parse(readFileSync(join(dir, "two.json"), "utf8")) as RunReport).cases.map((c) => c.id)).toEqual([
      "U01",
      "S01",
    ]);
  });

  it("the real process maps the verdict to its exit status", () => {
    const cli = join(REPO, "scripts/conformance.ts");
    const out = execFileSync(process.execPath, ["--import", "tsx", cli, "--reference", "--filter", "U01"], {
      cwd: REPO,
      encoding: "utf8",
    });
    expect(out).toMatch(/1\/1 passed/);
    let status = 0;
    try {
      execFileSync(process.execPath, ["--import", "tsx", cli, "--filter", "U01", "--exec", WRONG], {
        cwd: REPO,
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (e) {
      status = (e as { status: number }).status;
    }
    expect(status).toBe(1);
  });
});

describe("renderers", () => {
  const nasty = "a <b> & \"c\" 'd' \u0001\u001b[31m";
  // The report's rules, and every count over them derived with the runner's own countRules: a status added to the
  // schema changes no hand-kept block of zeros here.
  const rules: RunReport["rules"] = [
    {
      id: "name.required",
      source: "spec",
      level: "MUST",
      status: "failed",
      cases: ["U01"],
      checked_in: ["U01"],
      statement: nasty,
      cites: ["§2"],
      example: {
        case: "U01",
        at: "calls[0].kind",
        key: "kind",
        expected: "error",
        actual: nasty,
        call: { name: "Hel|lo" },
        what: nasty,
      },
    },
    {
      id: "body.verbatim",
      source: "spec",
      level: "MUST",
      status: "passed",
      cases: [],
      checked_in: ["U01"],
      statement: "s",
      cites: ["§4.5 rule 6"],
    },
  ];
  const counts = countRules(rules);
  const report: RunReport = {
    kit: { version: "0.1.0", specVersion: "1" },
    implementation: { name: "x&y", version: "1", language: "rust", driver: "./target/release/x <y>" },
    suite: "spec",
    profile: "spec",
    started_at: "2026-12-03T07:00:00.000Z",
    summary: {
      total: 4,
      passed: 0,
      failed: 1,
      errored: 1,
      skipped: 1,
      expected_failures: 1,
      not_scored: 0,
      duration_ms: 10,
    },
    rules,
    rule_counts: counts,
    score: {
      profile: "spec",
      sources: ["spec"],
      rules: counts.spec,
      cases: { scored: 4, passed: 0, not_scored: 0 },
    },
    cases: [
      {
        id: "U01",
        title: nasty,
        spec: ["§2"],
        rules: ["name.required"],
        checked_rules: ["name.required"],
        status: "failed",
        duration_ms: 1,
        mismatches: [
          {
            at: "calls[0].kind",
            key: "kind",
            rules: ["name.required"],
            effect: "fails_case",
            expected: "error",
            actual: nasty,
            call: { name: "Hel|lo" },
            what: nasty,
            message: nasty,
          },
        ],
      },
      {
        id: "U02",
        title: "t",
        spec: ["§2"],
        rules: ["name.kebab-case"],
        checked_rules: [],
        status: "errored",
        duration_ms: 1,
        reason: nasty,
        blame: "implementation",
        stderr: "panic at 'x' </error>\n",
      },
      {
        id: "U03",
        title: "t",
        spec: [],
        rules: [],
        checked_rules: [],
        status: "skipped",
        duration_ms: 0,
        reason: "capability symlinks false",
      },
      { id: "U04", title: "t", spec: [], rules: [], checked_rules: [], status: "expected_failure", duration_ms: 0 },
    ],
  };

  it("JUnit escapes everything and drops characters XML cannot carry", () => {
    expect(xmlEscape(nasty)).toBe("a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; [31m");
    const xml = renderJunit(report);
    expect(wellFormed(xml)).toBe(true);
    expect(xml).not.toMatch(/[\u0001\u001b]/);
    expect(xml).toContain('tests="4" failures="1" errors="1" skipped="2"');
    // The rules lead: their testsuite comes first, the failing rule once, with its case.
    expect(xml.indexOf("conformance.rules.spec")).toBeLessThan(xml.indexOf("conformance.spec"));
    expect(xml).toContain('<failure message="name.required: U01" type="rule">');
    expect(xml).toMatch(/<error message="a &lt;b&gt;/);
    expect(xml).toContain("&lt;/error&gt;");
  });

  it("Markdown code spans show text as it is (no &lt; inside backticks); outside them < is escaped", () => {
    const tmpReport = {
      ...report,
      implementation: { ...report.implementation, driver: "./x <tmp> `q`" },
      cases: [
        {
          id: "U05",
          title: "a <b>",
          spec: [],
          status: "failed",
          duration_ms: 1,
          mismatches: [
            {
              at: "calls[0].dir",
              expected: "<tmp>/skills/a|b",
              actual: "<tmp>/x",
              call: { name: "a" },
              message: "calls[0].dir: wrong <dir>",
            },
          ],
        },
      ],
    } as unknown as RunReport;
    const md = renderMarkdown(tmpReport);
    expect(md).toContain(
      '| `calls[0].dir` | `{"name":"a"}` | `"<tmp>/skills/a\\|b"` | `"<tmp>/x"` | calls[0].dir: wrong &lt;dir> |',
    );
    expect(md).toContain("driver `` ./x <tmp> `q` ``.");
    expect(md).toContain("### U05: a &lt;b>");
    expect(md).not.toMatch(/`[^`\n]*&lt;[^`\n]*`/); // no entity inside any code span
  });

  it("JUnit says where a mismatch is once, not twice", () => {
    const xml = renderJunit({
      ...report,
      cases: [
        {
          id: "U01",
          title: "t",
          spec: [],
          status: "failed",
          duration_ms: 1,
          mismatches: [
            { at: "calls[0].code", expected: "A", actual: "B", message: "calls[0].code: wrong code" },
            { at: "calls[1].kind", expected: "ok", actual: "error", message: "wrong kind" },
          ],
        },
      ],
    } as unknown as RunReport);
    expect(xml).toContain('<failure message="calls[0].code: wrong code"');
    expect(xml).not.toContain("calls[0].code: calls[0].code:");
    expect(xml).toContain("calls[1].kind: wrong kind");
  });

  it("markdown and badge", () => {
    expect(renderMarkdown(report)).toContain("### U02");
    expect(renderMarkdown(report).indexOf("## Failing rules (1)")).toBeLessThan(
      renderMarkdown(report).indexOf("## Cases"),
    );
    expect(renderMarkdown(report)).toContain('| `calls[0].kind` | `{"name":"Hel\\|lo"}` |'); // the call, its | escaped
    expect(renderJunit(report)).toContain("call:     {&quot;name&quot;:&quot;Hel|lo&quot;}");
    expect(badge(report)).toMatchObject({ message: "1/2 spec rules, 0/4 cases (1 xfail)", color: "red" });
    expect(check("report.schema.json", report)).toEqual({ valid: true });
  });
});
