// Same answer, same verdict, on every transport (issue 19 item 7): a schema-invalid answer fails the rule it breaks,
// names the offending field and the value found there, and the case's other checks still run, whether the
// implementation is loaded in-process or served over stdio. `errored` stays for crashes, hangs and protocol breaks.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fromModule } from "../driver/in-process.ts";
import { spawnImplementation } from "../driver/subprocess.ts";
import { loadCases, runSuite, type CaseResult } from "../runner/index.ts";
import { REPO_ROOT } from "../runner/workspace.ts";
import * as invalidAnswer from "./fakes/invalid-answer.ts";

const NODE = `"${process.execPath}"`;
const SERVED = `${NODE} --import tsx "${join(REPO_ROOT, "scripts/reference-driver.ts")}" "${join(REPO_ROOT, "conformance/test/fakes/invalid-answer.ts")}"`;
const faulty = (name: string) => `${NODE} "${join(REPO_ROOT, "conformance/test/faulty", `${name}.mjs`)}"`;

/** What a verdict is made of, without times and the reason's transport-specific wording. */
const verdict = (c: CaseResult) => ({
  status: c.status,
  mismatches: c.mismatches?.map(({ at, expected, actual, rules }) => ({ at, expected, actual, rules })),
});

describe("a schema-invalid answer", () => {
  const cases = loadCases("spec", "U01");

  it("is the same failure in-process and over stdio: the rule, the field, the value, and the other checks", async () => {
    const inProcess = await runSuite(async () => fromModule(invalidAnswer), cases, {
      driverLabel: "in-process",
      suite: "spec",
    });
    const overStdio = await runSuite(
      () => spawnImplementation(SERVED, { cwd: REPO_ROOT, requestTimeoutMs: 10_000 }),
      cases,
      { driverLabel: "stdio", suite: "spec" },
    );
    const a = inProcess.cases[0]!;
    const b = overStdio.cases[0]!;
    expect(a.status).toBe("failed");
    expect(verdict(b)).toEqual(verdict(a));
    const byAt = new Map(a.mismatches!.map((m) => [m.at, m]));
    // The offending fields, each with the value found there, under the result schema's rule.
    expect(byAt.get("calls[0].result.message")).toMatchObject({ actual: 7, rules: ["result.schema"] });
    expect(byAt.get("calls[0].result.message")!.message).toMatch(/must be string/);
    expect(byAt.get("calls[0].result.extra")).toMatchObject({ actual: true, rules: ["result.schema-contract"] });
    expect(byAt.get("catalog.warnings")).toMatchObject({ actual: "none", rules: ["catalog.schema"] });
    // The case's other checks still ran: the wrong code is reported too, and the control call was judged (it passed).
    expect(byAt.get("calls[0].code")).toMatchObject({ expected: "INVALID_PARAM", actual: "PERMISSION_DENIED" });
    expect([...byAt.keys()].filter((k) => k.startsWith("calls[1]"))).toEqual([]);
  });

  it("over stdio from a hand-written driver is failed (not errored) and names the field and value", async () => {
    // faulty/invalid-result.mjs answers {kind: "loaded", name: 42} to every call.
    const report = await runSuite(() => spawnImplementation(faulty("invalid-result"), { cwd: REPO_ROOT }), cases, {
      driverLabel: "invalid-result",
      suite: "spec",
    });
    const c = report.cases[0]!;
    expect(c.status).toBe("failed");
    expect(c.mismatches!.find((m) => m.at === "calls[0].result.kind")).toMatchObject({
      actual: "loaded",
      rules: ["result.schema"],
    });
  });

  it("a schema-invalid hook payload over stdio fails hook.request-schema and the case goes on", async () => {
    // faulty/bad-ask.mjs asks with {tool: "skill"} only; U24 has a hook, so the ask itself is allowed.
    const report = await runSuite(
      () => spawnImplementation(faulty("bad-ask-hooked"), { cwd: REPO_ROOT }),
      loadCases("spec", "U24"),
      { driverLabel: "bad-ask", suite: "spec" },
    );
    const c = report.cases[0]!;
    // U24 tests hook.deny, which the answer keeps: the payload is a failure of its own rule (h-rules: a case's status comes from its rules).
    expect(report.rules.find((r) => r.id === "hook.request-schema")).toMatchObject({
      status: "failed",
      cases: ["U24"],
    });
    const payload = c.mismatches!.filter((m) => m.rules?.includes("hook.request-schema"));
    expect(payload.map((m) => m.at)).toContain("calls[0].hook_requests[0].action");
  });
});
