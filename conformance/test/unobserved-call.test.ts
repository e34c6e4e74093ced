// A call the harness cannot be given (K120, runner/unobserved-call.ts): a harness with no lookup by name has no
// way to take a name its listing does not show, so its driver answers `{ unobserved: "call.by-name", reason }`.
// Shown on the reference wrapped as such a harness (a call for a name its catalog does not list is not given to
// it): nothing of that call is judged, the rules checked only there are never passed, a case whose own rules are
// all of those is skipped as not observable here; an undeclared id errors the case. The mutant is the old
// drivers' way: a not_found the driver makes up for the same call, which passes a rule no harness answer showed.
import { describe, expect, it } from "vitest";
import type { Implementation } from "../../schemas/implementation.ts";
import { rescore } from "../compat/rescore.ts";
import { wrapReference } from "../mutants/wrap.ts";
import { loadCases, runSuite } from "../runner/index.ts";
import { isUnobservedAnswer, unobservedAnswerProblem } from "../runner/unobserved-call.ts";

const REASON = "no lookup by name: the listing shows no path for this name";

/** The reference as a harness with no lookup by name (mutants/wrap.ts): a name its catalog does not list is answered
 *  `answer(name)`. */
async function listingOnly(unobserved: string[], answer: (name: unknown) => unknown): Promise<Implementation> {
  // What each session listed first: the listing the model was shown (a later change to the tree does not add to it).
  const shown = new WeakMap<object, Promise<Set<string>>>();
  const impl = await wrapReference("listing-only", {
    async before(p, _o, ctx) {
      if (!shown.has(ctx.inner))
        shown.set(
          ctx.inner,
          ctx.inner.catalog().then((c) => new Set(c.entries.map((e) => e.name))),
        );
      const listed = await shown.get(ctx.inner)!;
      const name = p && typeof p === "object" ? (p as { name?: unknown }).name : undefined;
      return typeof name === "string" && listed.has(name) ? undefined : (answer(name) as never);
    },
  });
  return { ...impl, info: { ...impl.info, unobserved } };
}

const unobservedAnswer = () => ({ unobserved: "call.by-name", reason: REASON });
/** What Codex's and deepagents' drivers did before K120: a not_found of their own making. */
const madeUpNotFound = (name: unknown) => ({
  kind: "not_found",
  name: String(name ?? ""),
  siblings: [],
  output: `(${REASON})`,
});

const pick = (ids: string[]) => loadCases("all").filter((c) => ids.includes(c.id));
const run = (impl: () => Promise<Implementation>, ids: string[]) =>
  runSuite(impl, pick(ids), { driverLabel: "listing only", suite: "spec", profile: "exact" });

describe("a call the harness cannot be given (K120)", () => {
  it("the answer shape: declared call.by-name is accepted; an undeclared id, or one that is no call, is not", () => {
    expect(isUnobservedAnswer(unobservedAnswer())).toBe(true);
    expect(isUnobservedAnswer({ kind: "not_found", unobserved: "x" })).toBe(false);
    expect(unobservedAnswerProblem(unobservedAnswer(), ["call.by-name"])).toBeUndefined();
    expect(unobservedAnswerProblem(unobservedAnswer(), ["result.bytes"])).toMatch(/does not declare/);
    expect(unobservedAnswerProblem({ unobserved: "result.bytes", reason: "r" }, ["result.bytes"])).toMatch(
      /cannot stand for a whole call/,
    );
    expect(unobservedAnswerProblem({ unobserved: "call.by-name", reason: "" }, ["call.by-name"])).toMatch(
      /unobservedCall/,
    );
  });

  it("nothing of the call is judged: U29's not_found call neither fails nor passes, its rule holds only where observed", async () => {
    const r = await run(() => listingOnly(["call.by-name"], unobservedAnswer), ["U29", "U04", "U06"]);
    const u29 = r.cases.find((c) => c.id === "U29")!;
    expect(u29.status).toBe("passed");
    expect(u29.unobserved_calls).toEqual([{ call: 0, unobserved: "call.by-name", reason: REASON }]);
    const m = u29.mismatches!.find((x) => x.key === "unobserved")!;
    expect(m).toMatchObject({ at: "calls[0]", effect: "not_observable", rules: ["discovery.skip-no-skill-md"] });
    // discovery.skip-no-skill-md is still checked at the catalog: it stays checked, and holds there.
    expect(u29.checked_rules).toContain("discovery.skip-no-skill-md");
    expect(u29.unobserved_rules).toEqual([]);
    // U04's own rules are all at its two unlisted names: skipped, not observable here; its decision rule is not_observable.
    const u04 = r.cases.find((c) => c.id === "U04")!;
    expect(u04.status).toBe("skipped");
    expect(u04.reason).toMatch(/^not observable here: every rule the case tests is checked only at calls/);
    expect(u04.unobserved_rules).toEqual(expect.arrayContaining(["not-found.siblings-ranked"]));
    expect(u04.checked_rules).not.toContain("not-found.siblings-ranked");
    const status = (id: string) => r.rules.find((x) => x.id === id)?.status;
    expect(status("not-found.siblings-ranked")).toBe("not_observable");
    expect(status("result.schema")).toBe("passed");
    expect(r.cases.filter((c) => c.status === "failed" || c.status === "errored").map((c) => c.id)).toEqual([]);
    // Re-judged under another profile (the compat run), the skip and the verdicts stay.
    const spec = rescore(r, "decisions");
    expect(spec.cases.find((c) => c.id === "U04")!.status).toBe("skipped");
    expect(spec.rules.find((x) => x.id === "not-found.siblings-ranked")?.status).toBe("not_observable");
  });

  it("the mutant (a not_found the driver makes up): the same rule passes on an answer no harness gave", async () => {
    const r = await run(() => listingOnly(["call.by-name"], madeUpNotFound), ["U29"]);
    const u29 = r.cases.find((c) => c.id === "U29")!;
    expect(u29.unobserved_calls).toBeUndefined();
    expect(u29.mismatches ?? []).toEqual([]);
    // Judged on the made-up answer: the call's checks all "held".
    expect(u29.checked_rules).toContain("discovery.skip-no-skill-md");
  });

  it("a case whose only call is unlisted and whose rules only that call checks is skipped, never passed", async () => {
    const made = await run(() => listingOnly(["call.by-name"], madeUpNotFound), ["U04"]);
    // The made-up answer lets U04 run and be judged on it (siblings [] for api-versions: the ranked rule fails).
    expect(made.cases[0]!.status).not.toBe("skipped");
    const seen = await run(() => listingOnly(["call.by-name"], unobservedAnswer), ["U04"]);
    expect(seen.cases[0]!.status).toBe("skipped");
    expect(seen.rules.find((x) => x.id === "not-found.siblings-ranked")?.status).toBe("not_observable");
  });

  it("an unobserved answer under an id the driver did not declare errors the case (a driver fault, not a result)", async () => {
    const r = await run(() => listingOnly(["result.bytes"], unobservedAnswer), ["U29"]);
    const u29 = r.cases.find((c) => c.id === "U29")!;
    expect(u29.status).toBe("errored");
    expect(u29.reason).toMatch(/calls\[0\]: answered unobserved "call\.by-name", which the driver does not declare/);
  });
});
