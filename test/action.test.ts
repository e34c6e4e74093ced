// The GitHub Action's contract (action.yml) and its report step's rendering (conformance/report/github.ts): the outputs
// it declares, Node 22 by default, every expression one the local runner (scripts/action-local.ts) knows, workflow
// commands escaped, one annotation per failing case (or per failing rule once reports carry rules[]), and the package's
// engines agreeing with the AWS SDK's. The steps themselves run in `npm run pack-test`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { PACKAGE_ROOT } from "../package-root.ts";
import { annotations, escapeData, escapeProperty, outputs, summary } from "../conformance/report/github.ts";
import type { RunReport } from "../conformance/runner/types.ts";
import { parseOutputFile } from "../scripts/action-local.ts";

const action = YAML.parse(readFileSync(join(PACKAGE_ROOT, "action.yml"), "utf8")) as {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { steps: Array<{ id?: string; uses?: string; run?: string }> };
};

describe("action.yml", () => {
  it("declares the outputs a workflow reads: counts, exit code and report paths, each from the run step", () => {
    for (const name of [
      "total",
      "passed",
      "failed",
      "errored",
      "skipped",
      "expected-failures",
      "exit-code",
      "json",
      "junit",
      "markdown",
      "badge",
    ]) {
      expect(action.outputs[name]?.value, name).toBe(`\${{ steps.run.outputs.${name} }}`);
      expect(action.outputs[name]?.description, name).toBeTruthy();
    }
    expect(action.runs.steps.some((s) => s.id === "run")).toBe(true);
  });

  it("sets up Node 22 by default, caches the kit install, and describes every suite it accepts", () => {
    expect(action.inputs["node-version"]?.default).toBe("22");
    expect(action.runs.steps.map((s) => s.uses).filter(Boolean)).toEqual(["actions/setup-node@v4", "actions/cache@v4"]);
    expect(action.inputs["suite"]?.description).toMatch(/spec.*security.*contract.*frontmatter.*comma list.*all/);
  });

  it("the package's engines include no Node the AWS SDK in range refuses", () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
      dependencies: Record<string, string>;
    };
    const sdk = JSON.parse(
      readFileSync(join(PACKAGE_ROOT, "node_modules/@aws-sdk/client-bedrock-runtime/package.json"), "utf8"),
    ) as { engines: { node: string } };
    const major = (range: string) => Number(/>=\s*(\d+)/.exec(range)?.[1]);
    expect(major(pkg.engines.node)).toBeGreaterThanOrEqual(major(sdk.engines.node));
    // A caret range would let in the SDK releases that drop Node 20 (announced for January 2027) under engines >= 20.
    expect(pkg.dependencies["@aws-sdk/client-bedrock-runtime"]).toMatch(/^~/);
  });
});

const report = {
  kit: { version: "0.1.0", specVersion: "1" },
  implementation: { name: "mine", version: "1.0", language: "rust", driver: "./target/release/x" },
  suite: "spec",
  started_at: "",
  summary: { total: 4, passed: 1, failed: 1, errored: 1, skipped: 0, expected_failures: 1, duration_ms: 1 },
  cases: [
    {
      id: "U01",
      title: "Empty name, 100%",
      spec: ["§2"],
      status: "failed",
      duration_ms: 1,
      mismatches: [
        {
          at: "calls[0].code",
          expected: "INVALID_PARAM",
          actual: "NOT_FOUND",
          message: "calls[0].code: wrong code\nsecond line",
        },
      ],
    },
    { id: "U02", title: "t", spec: [], status: "errored", duration_ms: 1, reason: "driver exited (code 127)" },
    { id: "U03", title: "t", spec: [], status: "expected_failure", duration_ms: 1 },
    { id: "U04", title: "t", spec: [], status: "passed", baseline: "stale", duration_ms: 1 },
  ],
} as unknown as RunReport; // a report of the shape before rules[] (the Action reads both)

describe("the Action's report step", () => {
  it("one ::error per case that fails the run (failed, errored, stale), none for passes and expected failures", () => {
    const lines = annotations(report);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      '::error title=skill-tool conformance%3A mine 1.0%3A U01 failed (Empty name%2C 100%25)::calls[0].code: wrong code%0Asecond line%0Aexpected: "INVALID_PARAM"%0Aactual:   "NOT_FOUND"%0Aspec: §2',
    );
    expect(lines[1]).toMatch(/U02 errored .*::reason: driver exited \(code 127\)$/);
    expect(lines[2]).toMatch(/U04 stale expected failure/);
    expect(lines.every((l) => !l.includes("\n"))).toBe(true);
  });

  it("with rules[] in the report, each failing rule once (its cases named); errors still per case", () => {
    const withRules = {
      ...report,
      rules: [
        { id: "R12", status: "failed", title: "YAML 1.2 core schema", cases: ["U01", "F03"] },
        { id: "R13", status: "passed" },
      ],
    } as unknown as RunReport;
    const lines = annotations(withRules);
    expect(lines.filter((l) => l.includes("R12"))).toEqual([
      "::error title=skill-tool conformance%3A mine 1.0 breaks rule R12::YAML 1.2 core schema%0Acases: U01, F03",
    ]);
    expect(lines.some((l) => l.includes("R13") || l.includes("U01 failed"))).toBe(false);
    expect(lines.some((l) => l.includes("U02 errored"))).toBe(true);
  });

  it("outputs are name=value lines; the summary is the Markdown report, or why there is none", () => {
    const lines = outputs(report, { json: "out/r.json", junit: "" }, 1);
    expect(parseOutputFile(lines.join("\n"))).toMatchObject({
      "exit-code": "1",
      total: "4",
      passed: "1",
      failed: "1",
      errored: "1",
      json: "out/r.json",
      junit: "",
    });
    expect(parseOutputFile(outputs(undefined, {}, 2).join("\n"))).toMatchObject({ "exit-code": "2", total: "" });
    expect(summary(report, 1, "")).toContain("| U01 |");
    expect(summary(undefined, 2, "skill-conformance: no target")).toMatch(/no report[\s\S]*exited 2[\s\S]*no target/);
  });

  it("escapes workflow command data and properties", () => {
    expect(escapeData("a%b\r\nc")).toBe("a%25b%0D%0Ac");
    expect(escapeProperty("a: b, c")).toBe("a%3A b%2C c");
    expect(parseOutputFile("a=1\nb<<EOF\nx\ny\nEOF\nc=d=e\n")).toEqual({ a: "1", b: "x\ny", c: "d=e" });
  });
});

describe("scripts/action-report.ts", () => {
  it("reads a --json of another mode's shape (args: --parity / --smoke / --fuzz) as no run report, without crashing", () => {
    const dir = mkdtempSync(join(tmpdir(), "action-report-"));
    try {
      const json = join(dir, "report.json");
      writeFileSync(json, JSON.stringify({ level: "exact", a: {}, b: {}, cases: [], differing: 0 }));
      const env = { ...process.env, GITHUB_OUTPUT: join(dir, "out"), GITHUB_STEP_SUMMARY: join(dir, "summary") };
      const tsx = join(PACKAGE_ROOT, "node_modules", "tsx", "dist", "cli.mjs");
      // Exit 0 (before: a TypeError on report.implementation.name, and the step failed with no outputs).
      execFileSync(
        process.execPath,
        [tsx, join(PACKAGE_ROOT, "scripts", "action-report.ts"), "--exit-code", "0", "--report", json, "--json", json],
        { env, stdio: "pipe" },
      );
      expect(parseOutputFile(readFileSync(join(dir, "out"), "utf8"))).toMatchObject({
        "exit-code": "0",
        total: "",
        json,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
