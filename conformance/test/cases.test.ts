// The spec matrix as data: all 30 cases load and validate in §13.1 order, the reference passes all of
// them in-process through runSuite, and the runner itself behaves (failed vs errored vs skipped,
// deadlines, schema checks, baselines, reopening, temp-dir normalisation and cleanup) on tiny fakes.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SkillResult } from "../../schemas/index.ts";
import { DriverError } from "../driver/errors.ts";
import { loadModule } from "../driver/in-process.ts";
import type { Implementation, SessionHandle } from "../../schemas/implementation.ts";
import { loadCases, loadCasesFrom, runCase, runSuite, type LoadedCase } from "../runner/index.ts";
import { REPO_ROOT } from "../runner/workspace.ts";

const REFERENCE = join(REPO_ROOT, "reference", "index.ts");
const ids = Array.from({ length: 30 }, (_, i) => `U${String(i + 1).padStart(2, "0")}`);

function fake(
  call: SessionHandle["call"],
  opts: { capabilities?: Record<string, boolean>; onOpen?: () => void; onDispose?: () => void } = {},
): Implementation {
  opts.onOpen?.();
  return {
    info: {
      implementation: { name: "fake", version: "0", language: "typescript" },
      specVersion: "1",
      capabilities: opts.capabilities ?? {},
    },
    async createSession() {
      return {
        catalog: async () => ({ tool_description: "fake", entries: [], warnings: [] }),
        call,
        close: async () => {},
      };
    },
    async dispose() {
      opts.onDispose?.();
    },
  };
}

const notFound = (name: string): SkillResult => ({ kind: "not_found", name, siblings: [], output: "(none)" });

describe("spec cases", () => {
  const cases = loadCases();

  it("loads U01…U30 in §13.1 order, each citing its matrix row", () => {
    expect(cases.map((c) => c.id)).toEqual(ids);
    cases.forEach((c, i) => {
      expect(c.spec, c.id).toContain(`§13.1 case ${i + 1}`);
      expect(c.suite).toBe("spec");
    });
  });

  it("filters by id and glob, comma-separated", () => {
    expect(loadCases("spec", "U07").map((c) => c.id)).toEqual(["U07"]);
    expect(loadCases("spec", "U0*, U30").map((c) => c.id)).toEqual([...ids.slice(0, 9), "U30"]);
    expect(loadCases("spec", "nothing")).toEqual([]);
  });

  it("every case can fail: an implementation answering not_found to everything fails all 30", async () => {
    const report = await runSuite(
      async () => fake(async (p) => notFound(String((p as { name?: unknown })?.name ?? ""))),
      cases,
      { driverLabel: "fake", suite: "spec" },
    );
    expect(report.cases.filter((c) => c.status !== "failed").map((c) => c.id)).toEqual([]);
  });

  it("the reference passes 30/30 in-process", async () => {
    const report = await runSuite(() => loadModule(REFERENCE), cases, { driverLabel: "in-process", suite: "spec" });
    const bad = report.cases
      .filter((c) => c.status !== "passed")
      .map((c) => ({ id: c.id, status: c.status, reason: c.reason, mismatches: c.mismatches?.map((m) => m.message) }));
    expect(bad).toEqual([]);
    expect(report.summary).toMatchObject({
      total: 30,
      passed: 30,
      failed: 0,
      errored: 0,
      skipped: 0,
      expected_failures: 0,
    });
    expect(report.implementation.driver).toBe("in-process");
    const u16 = report.cases.find((c) => c.id === "U16")!;
    expect(JSON.stringify(u16.observed)).toContain("<tmp>/skills/hello");
    expect(JSON.stringify(u16.observed)).not.toContain(tmpdir() + "/skill-conformance");
  });
});

describe("loadCasesFrom rejects broken case files (kit faults)", () => {
  const write = (files: Record<string, unknown>) => {
    const dir = mkdtempSync(join(tmpdir(), "kit-cases-"));
    for (const [f, v] of Object.entries(files))
      writeFileSync(join(dir, f), typeof v === "string" ? v : JSON.stringify(v));
    return dir;
  };
  const good = {
    id: "X1",
    title: "t",
    spec: ["§2"],
    fixture: "basic",
    config: { skill_roots: ["${tmp}/skills"] },
    calls: [{ params: { name: "hello" }, expect: { kind: "ok" } }],
  };
  it.each([
    ["not JSON", { "X1.json": "{" }, /not JSON/],
    ["schema-invalid", { "X1.json": { ...good, calls: [] } }, /X1\.json.*calls/],
    ["id differs from file", { "X2.json": good }, /differs from the file name/],
    ["missing fixture", { "X1.json": { ...good, fixture: "no-such-fixture" } }, /fixture no-such-fixture/],
    ["hook without permission.hook", { "X1.json": { ...good, hook: ["allow"] } }, /"hook" must be present exactly/],
  ])("%s", (_label, files, pattern) => {
    const dir = write(files);
    try {
      expect(() => loadCasesFrom(dir, "kit")).toThrow(pattern);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("runCase and runSuite on fakes", () => {
  const [u01] = loadCases("spec", "U01") as [LoadedCase];
  const [u10] = loadCases("spec", "U10") as [LoadedCase];

  it("a wrong answer is failed, with expected, actual and the rules it breaks", async () => {
    const r = await runCase(
      fake(async () => notFound("")),
      u01,
    );
    expect(r.status).toBe("failed");
    const m = r.mismatches![0]!;
    expect(m).toMatchObject({ at: "calls[0].kind", expected: "error", actual: "not_found" });
    expect(m).toMatchObject({ key: "kind", rules: ["name.required"], effect: "fails_case" });
    expect(m.message).toContain("name.required");
  });

  it("a schema-invalid result is a failure of result.schema, not a crash; the case is judged on its own rules", async () => {
    const r = await runCase(
      fake(async () => ({ kind: "error", code: "INVALID_PARAM" }) as unknown as SkillResult),
      u01,
    );
    // U01 tests name.required, which the answer keeps; the schema violation is a finding under its own rule.
    expect(r.status).toBe("passed");
    expect(r.mismatches!.find((m) => m.at.startsWith("calls[0].result"))).toMatchObject({
      key: "schema",
      rules: ["result.schema"],
      effect: "incidental",
    });
    const report = await runSuite(
      async () => fake(async () => ({ kind: "error", code: "INVALID_PARAM" }) as unknown as SkillResult),
      [u01],
      { driverLabel: "fake", suite: "spec" },
    );
    expect(report.rules.find((x) => x.id === "result.schema")).toMatchObject({ status: "failed", cases: ["U01"] });
    // Field by field: the message the spec's error names under result.schema, the output the kit adds under its contract rule.
    const schema = r.mismatches!.filter((m) => m.key === "schema" && m.at.startsWith("calls[0]"));
    expect(schema.map((m) => [m.at, m.rules])).toEqual([
      ["calls[0].result.message", ["result.schema"]],
      ["calls[0].result.output", ["result.schema-contract"]],
    ]);
    expect(schema[0]).toMatchObject({ expected: "present (a required field)", actual: "(missing)" });
    expect(schema[0]!.message).toMatch(/^calls\[0\]\.result\.message: schema-invalid result \(result\.schema\.json\)/);
  });

  it("a throw is errored (blame implementation); a DriverError keeps its blame and stderr", async () => {
    const thrown = await runCase(
      fake(async () => {
        throw new TypeError("boom");
      }),
      u01,
    );
    expect(thrown).toMatchObject({ status: "errored", blame: "implementation" });
    expect(thrown.reason).toContain("boom");
    const driver = await runCase(
      fake(async () => {
        throw new DriverError("child died", "implementation", "panic: x");
      }),
      u01,
    );
    expect(driver).toMatchObject({ status: "errored", blame: "implementation", stderr: "panic: x" });
  });

  it("a call past its deadline is errored", async () => {
    const r = await runCase(
      fake(() => new Promise<SkillResult>(() => {})),
      u01,
      { timeoutMs: 50 },
    );
    expect(r.status).toBe("errored");
    expect(r.reason).toMatch(/within 50 ms/);
  });

  it("a capability declared false is skipped", async () => {
    const r = await runCase(
      fake(async () => notFound(""), { capabilities: { symlinks: false } }),
      u10,
    );
    expect(r.status).toBe("skipped");
  });

  it("a scripted hook answer never asked for is a mismatch", async () => {
    const [u24] = loadCases("spec", "U24") as [LoadedCase];
    const r = await runCase(
      fake(async () => ({
        kind: "error",
        code: "PERMISSION_DENIED",
        message: "no",
        output: "Error [PERMISSION_DENIED]: no",
      })),
      u24,
    );
    expect(r.status).toBe("failed");
    expect(r.mismatches!.map((m) => m.at)).toEqual(["calls[0].hook_requests", "hook"]);
  });

  it("removes the temp dir", async () => {
    let seen = "";
    const impl = fake(async () => notFound(""));
    const spy: Implementation = {
      ...impl,
      createSession: async (config, o) => {
        seen = config.skill_roots[0]!;
        return impl.createSession(config, o);
      },
    };
    await runCase(spy, u01);
    expect(seen).toMatch(/skill-conformance-U01-/);
    expect(existsSync(seen)).toBe(false);
  });

  it("reopens after an errored case, disposes at the end, and reports each case's observed status", async () => {
    let opens = 0;
    let disposes = 0;
    const cases = loadCases("spec", "U01,U02,U03");
    const report = await runSuite(
      async () =>
        fake(
          async (p) => {
            const name = (p as { name?: string }).name ?? "";
            if (name === "Hello") throw new Error("crash on U02");
            return notFound(name);
          },
          { onOpen: () => opens++, onDispose: () => disposes++ },
        ),
      cases,
      { driverLabel: "fake", suite: "spec" },
    );
    // The runner knows nothing of baselines (conformance/baseline.ts applies them): what it saw is what it reports.
    expect(report.cases.map((c) => c.status)).toEqual(["failed", "errored", "failed"]);
    expect(opens).toBe(2);
    expect(disposes).toBe(2);
    expect(report.summary).toMatchObject({ total: 3, expected_failures: 0, errored: 1, failed: 2, passed: 0 });
  });
});
