// Traceability and verdicts by rule. The rules table (schemas/rules.json) is valid and every citation in it and in
// the cases resolves (no "S-D12"); every rule is checked by some case or excluded with a reason; every contract
// decision maps to a rule; every case names the rules it tests and every check its rules (the loader refuses a
// case otherwise). Then the verdicts: a body-trimming implementation under --profile spec fails body.verbatim
// once, with its cases, and not the security cases whose property it keeps; capabilities make their rules n/a
// and nothing else; a rule outside the profile is shown, not scored.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../package-root.ts";
import { check, decisions, rules } from "../../schemas/index.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { gate, gateCase, parseBaseline } from "../baseline.ts";
import { loadModule } from "../driver/in-process.ts";
import { loadMutants } from "../catalog.ts";
import { REFERENCE_MODULE } from "../mutants/wrap.ts";
import { specSections, unresolved } from "../runner/citations.ts";
import { loadCases, runSuite } from "../runner/index.ts";
import { checkKeys, effectOf, expectationsOf, resolveRules, ruleIndex, rulesOfCase } from "../runner/rules.ts";
import type { CaseResult } from "../runner/types.ts";

const all = loadCases("all");
const table = rules();
const byId = new Map(table.map((r) => [r.id, r]));

describe("rules table", () => {
  it("is valid against its schema, with unique ids", () => {
    expect(check("rules.schema.json", table)).toEqual({ valid: true });
    expect(new Set(table.map((r) => r.id)).size).toBe(table.length);
  });

  it("every spec rule quotes its sentence: each quote is found in the spec or frontmatter-fields.md (whitespace read as one space)", () => {
    const norm = (t: string) => t.replace(/\s+/g, " ").trim();
    const texts = ["docs/spec/skill-tool-spec.txt", "docs/spec/frontmatter-fields.md"].map((f) =>
      norm(readFileSync(join(PACKAGE_ROOT, f), "utf8")),
    );
    const spec = table.filter((r) => r.source === "spec");
    expect(spec.filter((r) => r.quote === undefined).map((r) => r.id)).toEqual([]);
    const notFound = spec.flatMap((r) =>
      (Array.isArray(r.quote) ? r.quote : [r.quote!])
        .filter((q) => !texts.some((t) => t.includes(norm(q))))
        .map((q) => `${r.id}: ${q}`),
    );
    expect(notFound).toEqual([]);
    // The test can fail: a quote of words the spec does not hold is found nowhere.
    expect(texts.some((t) => t.includes(norm("Unknown fields are rejected.")))).toBe(false);
    expect(table.filter((r) => r.source !== "spec" && r.quote !== undefined).map((r) => r.id)).toEqual([]);
  });

  it("every citation of a rule or a case resolves to a spec section (and its numbered item) or a decision", () => {
    const sections = specSections();
    const ids = new Set(decisions().map((d) => d.id));
    const cited = [
      ...table.flatMap((r) => r.cites.map((c) => [r.id, c] as const)),
      ...all.flatMap((c) => c.spec.map((s) => [c.id, s] as const)),
    ];
    expect(cited.map(([who, c]) => [who, c, unresolved(c, sections, ids)]).filter((x) => x[2] !== undefined)).toEqual(
      [],
    );
    expect(unresolved("S-D12", sections, ids)).toBeDefined();
    expect(unresolved("§4.5 rule 9", sections, ids)).toBe("§4.5 has no item 9");
  });

  it("every rule is checked by some case, or excluded with a reason and checked by none", () => {
    const checked = new Set(all.flatMap((c) => rulesOfCase(c)));
    expect(table.filter((r) => r.checked !== false && !checked.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(table.filter((r) => r.checked === false && (checked.has(r.id) || !r.reason)).map((r) => r.id)).toEqual([]);
  });

  it("every contract decision maps to a rule", () => {
    const cited = new Set(table.flatMap((r) => r.cites));
    // The scope field says which decisions settle the tool's contract (not the reference's engineering, the kit's
    // policy or the e2e harness); every one of them must be cited by some rule.
    expect(
      decisions("contract")
        .map((d) => d.id)
        .filter((id) => !cited.has(id)),
    ).toEqual([]);
  });

  it("every case names the rules it tests, every check of it resolves to known rules, and its own rules are checked in it", () => {
    for (const c of all) {
      expect(c.rules?.length, c.id).toBeGreaterThan(0);
      const checked = new Set(rulesOfCase(c));
      expect(
        c.rules!.filter((id) => !byId.has(id) || !checked.has(id)),
        c.id,
      ).toEqual([]);
      for (const { at, exp } of expectationsOf(c)) {
        for (const k of checkKeys(exp))
          expect(resolveRules(exp.rules, k).filter((id) => byId.has(id)).length, `${c.id} ${at} ${k}`).toBeGreaterThan(
            0,
          );
      }
    }
  });

  it("a check resolves to its most specific key, then the bare key, then *", () => {
    const map = {
      "*": ["activate.ok"],
      fields: ["frontmatter.parsed"],
      "fields.body": ["body.verbatim"],
      "output_matches.1": ["render.skill-block-layout"],
    } as never;
    expect(resolveRules(map, "fields.body")).toEqual(["body.verbatim"]);
    expect(resolveRules(map, "fields.frontmatter.name")).toEqual(["frontmatter.parsed"]);
    expect(resolveRules(map, "output_matches.0")).toEqual(["activate.ok"]);
    expect(resolveRules(map, "output_matches.1")).toEqual(["render.skill-block-layout"]);
    expect(resolveRules(undefined, "kind")).toEqual([]);
  });

  it("a mismatch fails its case only under a rule the case tests, scored and not n/a", () => {
    const j = { profile: "spec" as const, capabilities: { dedupe: false } };
    expect(effectOf(["body.verbatim"], ["name.no-path"], j)).toBe("incidental");
    expect(effectOf(["name.no-path"], ["name.no-path"], j)).toBe("fails_case");
    expect(effectOf(["body.crlf-as-lf"], ["body.crlf-as-lf"], j)).toBe("not_scored");
    expect(effectOf(["dedupe.already-loaded"], ["dedupe.already-loaded"], j)).toBe("n/a");
    expect(effectOf([], ["name.no-path"], j)).toBe("fails_case");
  });
});

/** The reference (or a mutant) declaring other capabilities. */
function declaring(
  open: () => Promise<Implementation>,
  capabilities: Record<string, boolean>,
): () => Promise<Implementation> {
  return async () => {
    const i = await open();
    return {
      ...i,
      info: { ...i.info, capabilities: { ...i.info.capabilities, ...capabilities } },
      createSession: i.createSession.bind(i),
      dispose: i.dispose.bind(i),
    };
  };
}

describe("verdicts by rule", () => {
  it("a body-trimming implementation under --profile spec fails body.verbatim once, with its cases, and not the security cases it keeps", async () => {
    const m = (await loadMutants()).find((x) => x.id === "body-trimmed")!;
    const report = await runSuite(() => m.make(), all, { driverLabel: "mutant", suite: "all", profile: "spec" });
    const failed = report.rules.filter((r) => r.status === "failed");
    expect(failed.map((r) => r.id)).toEqual(["body.verbatim"]);
    const rule = failed[0]!;
    expect(rule.cases).toEqual(expect.arrayContaining(["U16", "S04", "S13", "S12", "S05"]));
    expect(rule.example).toMatchObject({ key: "fields.body", expected: expect.any(String) });
    // The case it exists to test fails; the security cases whose property holds do not.
    const status = Object.fromEntries(report.cases.map((c) => [c.id, c.status]));
    expect(status.U16).toBe("failed");
    for (const id of ["S04", "S05", "S12", "S13", "S01", "S02", "S09"]) expect(status[id], id).toBe("passed");
    expect(report.cases.filter((c) => c.status === "failed").map((c) => c.id)).toEqual(
      report.cases.filter((c) => c.rules.includes("body.verbatim")).map((c) => c.id),
    );
    // No failing rule of any source but spec under profile spec; decisions broken on the way (U30's CRLF) are shown, not scored.
    expect(
      report.rules.filter((r) => (r.status === "failed" || r.status === "expected_failure") && r.source !== "spec"),
    ).toEqual([]);
    expect(report.rule_counts.spec.failed).toBe(1);
  }, 60_000);

  it("the reference fails no rule under profile spec or decisions, and the cases outside the profile are not_scored, not failed", async () => {
    for (const profile of ["spec", "decisions"] as const) {
      const report = await runSuite(() => loadModule(REFERENCE_MODULE), loadCases("contract"), {
        driverLabel: "reference",
        suite: "contract",
        profile,
      });
      expect(report.rules.filter((r) => r.status === "failed")).toEqual([]);
      expect(report.cases.filter((c) => c.status !== "passed" && c.status !== "not_scored").map((c) => c.id)).toEqual(
        [],
      );
    }
    const spec = await runSuite(() => loadModule(REFERENCE_MODULE), loadCases("contract"), {
      driverLabel: "reference",
      suite: "contract",
      profile: "spec",
    });
    expect(spec.cases.find((c) => c.id === "C08")).toMatchObject({ status: "not_scored" });
    expect(spec.rules.find((r) => r.id === "render.frontmatter-keys")).toMatchObject({
      status: "not_scored",
      cases: [],
      checked_in: ["C08"],
    });
  });

  it("no capability gates an unrelated rule: without a hook, dedupe is still judged; without a trust gate, U15 is n/a, never a pass", async () => {
    const spec = loadCases("spec");
    const pick = (ids: string[]) => spec.filter((c) => ids.includes(c.id));
    const noHook = await runSuite(
      declaring(() => loadModule(REFERENCE_MODULE), { permission_hook: false }),
      pick(["U17", "U24", "U26"]),
      { driverLabel: "no hook", suite: "spec", profile: "exact" },
    );
    const v = Object.fromEntries(noHook.rules.map((r) => [r.id, r]));
    expect(v["dedupe.already-loaded"]).toMatchObject({ status: "passed", checked_in: ["U17"] });
    expect(v["allowed-tools.normalised"]).toMatchObject({ status: "passed", checked_in: ["U26"] });
    for (const id of [
      "hook.deny",
      "hook.not-asked-when-loaded",
      "hook.allowed-tools",
      "hook.payload",
      "hook.asked-per-activation",
    ])
      expect(v[id]!.status, id).toBe("n/a");
    expect(noHook.cases.map((c) => [c.id, c.status])).toEqual([
      ["U17", "passed"],
      ["U24", "skipped"],
      ["U26", "passed"],
    ]);

    // A reference with every root trusted (no trust gate at all) that says so: U14 and U15 are n/a, not passes.
    const trustless = (await loadMutants()).find((x) => x.id === "every-root-trusted")!;
    const noGate = await runSuite(
      declaring(() => trustless.make(), { trust_gate: false }),
      pick(["U14", "U15"]),
      { driverLabel: "no gate", suite: "spec", profile: "exact" },
    );
    expect(noGate.cases.map((c) => [c.id, c.status])).toEqual([
      ["U14", "skipped"],
      ["U15", "skipped"],
    ]);
    const gated = noGate.rules.filter((r) => ruleIndex().get(r.id)?.capability === "trust_gate");
    expect(gated.map((r) => r.id)).toEqual(expect.arrayContaining(["trust.not-trusted", "trust.unsafe-allow"]));
    expect(gated.filter((r) => r.status !== "n/a")).toEqual([]);
  }, 30_000);

  it("the gate: a rule only a control call shows fails the run though every case passed; rule:<id> accepts it", async () => {
    const m = (await loadMutants()).find((x) => x.id === "body-trimmed")!;
    const observed = await runSuite(() => m.make(), loadCases("security", "S04"), {
      driverLabel: "mutant",
      suite: "security",
    });
    expect(observed.cases.map((c) => c.status)).toEqual(["passed"]);
    const known = { cases: new Set(["S04"]), rules: new Set(table.map((r) => r.id)) };
    expect(gate(observed, parseBaseline("", "none", known)).verdict).toMatchObject({
      code: 1,
      notes: [expect.stringMatching(/^failing rules: body\.verbatim/)],
    });
    const accepted = gate(observed, parseBaseline("rule:body.verbatim # trims\n", "known.txt", known));
    expect(accepted.verdict.code).toBe(0);
    expect(accepted.report.rules!.find((r) => r.id === "body.verbatim")!.status).toBe("expected_failure");
  });

  it("a baseline can list a rule: its cases become expected failures; a listed rule that passes is stale; an unknown one is refused", () => {
    const known = { cases: new Set(["U16"]), rules: new Set(table.map((r) => r.id)) };
    const c = {
      id: "U16",
      status: "failed",
      rules: ["body.verbatim"],
      mismatches: [{ effect: "fails_case", rules: ["body.verbatim"] }],
    } as unknown as CaseResult;
    expect(gateCase(c, parseBaseline("rule:body.verbatim", "b.txt", known)).status).toBe("expected_failure");
    expect(gateCase(c, parseBaseline("rule:name.no-path", "b.txt", known)).status).toBe("failed");
    expect(() => parseBaseline("rule:no.such-rule", "b.txt", known)).toThrow(/no such rule/);
    const passed = { ...c, status: "passed", mismatches: [] } as unknown as CaseResult;
    const report = {
      cases: [passed],
      rules: [{ id: "body.verbatim", source: "spec", status: "passed", cases: [] }],
      summary: { duration_ms: 1 },
    } as never;
    expect(gate(report, parseBaseline("rule:body.verbatim", "b.txt", known)).verdict).toEqual({
      code: 1,
      notes: ["stale expected failure: rule:body.verbatim passed; remove it from b.txt"],
    });
  });
});
