// Per-check accounting (K124): a check at a value the harness does not produce neither fails nor passes, so a case
// where some check of a rule was such a check is no evidence that the rule holds. Shown on the reference with
// `frontmatter` left out of its results (declared unobserved): a rule whose only checking case had a frontmatter check
// of it is not observable, never passed (before K124 it passed on the checks that could be seen), a case whose every
// rule is so is skipped as not observable here; and, on made-up results, a rule passes where one case saw all of it.
import { describe, expect, it } from "vitest";
import type { Implementation } from "../../schemas/implementation.ts";
import { wrapReference, type Mutation } from "../mutants/wrap.ts";
import { loadCases, runSuite } from "../runner/index.ts";
import { judgeRules } from "../runner/verdicts.ts";
import { noneSeenWhole } from "../runner/partly-observed.ts";
import { rescore } from "../compat/rescore.ts";
import type { CaseResult, Mismatch } from "../runner/types.ts";

/** The reference with some values left out of its answers (mutants/wrap.ts), declared `unobserved` as a harness
 *  driver would. */
async function referenceWithout(unobserved: string[], m: Mutation): Promise<Implementation> {
  const impl = await wrapReference("without", m);
  return { ...impl, info: { ...impl.info, unobserved } };
}

/** `frontmatter` left out of every result. */
const withoutFrontmatter = () =>
  referenceWithout(["result.frontmatter"], {
    result: (r) => {
      delete (r as { frontmatter?: unknown }).frontmatter;
      return r;
    },
  });

/** The catalog's warnings emptied (a harness that shows the model none). */
const withoutWarnings = () => referenceWithout(["catalog.warnings"], { catalog: (c) => ({ ...c, warnings: [] }) });

describe("a rule seen only in part is not observable (K124)", () => {
  it("S10's frontmatter.proto-keys-data is not passed on the checks that could be seen; F02 is skipped", async () => {
    const cases = loadCases("all").filter((c) => ["S10", "F02"].includes(c.id));
    const r = await runSuite(() => withoutFrontmatter(), cases, {
      driverLabel: "no frontmatter",
      suite: "all",
      profile: "exact",
    });
    const rule = r.rules.find((x) => x.id === "frontmatter.proto-keys-data")!;
    expect(rule.status).toBe("not_observable");
    expect(rule.note).toMatch(/every case that checks it \(S10\) has a check of it at a value the harness does not/);
    const s10 = r.cases.find((c) => c.id === "S10")!;
    // S10's other rule (prototype.unchanged) was seen whole: the case stands on it.
    expect(s10.status).toBe("passed");
    expect(s10.partly_observed_rules).toContain("frontmatter.proto-keys-data");
    expect(r.rules.find((x) => x.id === "prototype.unchanged")?.status).toBe("passed");
    const f02 = r.cases.find((c) => c.id === "F02")!;
    expect(f02.status).toBe("skipped");
    expect(f02.reason).toMatch(/^not observable here: every rule the case tests has a check at a value/);
    expect(r.rules.find((x) => x.id === "yaml.core-schema")?.status).not.toBe("passed");
  });
});

describe("a check that passes at a value the harness does not produce passes vacuously (K124)", () => {
  it("U29's 'no warning about no-skill' against a list the harness never fills is not evidence", async () => {
    const cases = loadCases("all").filter((c) => c.id === "U29");
    const r = await runSuite(() => withoutWarnings(), cases, {
      driverLabel: "no warnings",
      suite: "all",
      profile: "exact",
    });
    const u29 = r.cases[0]!;
    expect(u29.partly_observed_rules).toContain("discovery.skip-silently");
    expect(r.rules.find((x) => x.id === "discovery.skip-silently")?.status).toBe("not_observable");
    // Its other rules were seen whole: the case stands on them.
    expect(u29.status).toBe("passed");
    expect(r.rules.find((x) => x.id === "discovery.skip-no-skill-md")?.status).toBe("passed");
  });
});

describe("which cases are skipped, and re-judged under another profile", () => {
  const j = (profile: "spec" | "exact") => ({ profile, capabilities: undefined });
  it("skipped when no rule under judgement was seen whole, mixing K120 and K124", () => {
    expect(
      noneSeenWhole(["errors.structured", "name.required"], j("exact"), ["errors.structured"], ["name.required"]),
    ).toBe(true);
    expect(noneSeenWhole(["errors.structured", "name.required"], j("exact"), [], ["name.required"])).toBe(false);
  });
  it("a skip of a case whose rules the narrower profile does not score becomes not scored", () => {
    // yaml.core-schema is a decision rule: under spec the case scores none of its rules.
    const c = {
      ...result("F02", "skipped", [miss("yaml.core-schema", "not_observable")]),
      rules: ["yaml.core-schema"],
      checked_rules: ["yaml.core-schema"],
    };
    const report = { cases: [c], summary: { total: 1 }, capabilities: undefined, unobserved: [] } as never;
    expect(rescore(report, "spec").cases[0]!.status).toBe("not_scored");
    expect(rescore(report, "exact").cases[0]!.status).toBe("skipped");
  });
});

const miss = (rule: string, effect: Mismatch["effect"]): Mismatch =>
  ({
    at: "calls[0].x",
    key: "fields.x",
    rules: [rule],
    effect,
    expected: 1,
    actual: 2,
    what: "x",
    message: "x",
  }) as Mismatch;
const result = (id: string, status: CaseResult["status"], mismatches: Mismatch[]): CaseResult => {
  const partly = mismatches.filter((m) => m.effect === "not_observable").flatMap((m) => m.rules);
  return {
    id,
    title: id,
    spec: [],
    rules: ["errors.structured"],
    checked_rules: ["errors.structured"],
    status,
    duration_ms: 0,
    observed: [],
    mismatches,
    ...(partly.length ? { partly_observed_rules: partly } : {}),
  };
};
const verdict = (cases: CaseResult[]) =>
  judgeRules(cases, { profile: "exact", capabilities: undefined }).find((r) => r.id === "errors.structured")!;

describe("the rule's verdict over its cases (K124)", () => {
  it("passed where one case saw every check of it, even if another saw it in part", () => {
    expect(
      verdict([result("A", "passed", []), result("B", "passed", [miss("errors.structured", "not_observable")])]),
    ).toMatchObject({ status: "passed", checked_in: ["A", "B"] });
  });
  it("not observable when every case that checks it saw it in part", () => {
    expect(
      verdict([
        result("A", "passed", [miss("errors.structured", "not_observable")]),
        result("B", "passed", [miss("errors.structured", "not_observable")]),
      ]).status,
    ).toBe("not_observable");
  });
  it("failed when a check that could be seen did not hold, whatever could not be seen elsewhere", () => {
    expect(
      verdict([
        result("A", "failed", [miss("errors.structured", "fails_case")]),
        result("B", "passed", [miss("errors.structured", "not_observable")]),
      ]).status,
    ).toBe("failed");
  });
});
