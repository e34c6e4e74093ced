// A driver's `unobserved` list (K40, schemas/observations.json): a value the harness never produces is left out
// of its answers; the checks at its places neither fail nor pass, and the rules needing it are "not observable
// here", never passed. Shown on a reference that drops `bytes` (and the catalog's order): declared, the
// rules are not_observable and the cases do not fail; undeclared, the very same answers fail (the mutant).
import { describe, expect, it } from "vitest";
import { observations, rules } from "../../schemas/index.ts";
import type { Implementation, SessionHandle } from "../../schemas/implementation.ts";
import { fromModule, loadModule } from "../driver/in-process.ts";
import { REFERENCE_MODULE } from "../mutants/wrap.ts";
import { loadCases, runSuite } from "../runner/index.ts";
import { observationRows, placesOf, placesOfKey } from "../runner/unobserved.ts";
import { formatHeadline } from "../report/rules.ts";

/** The reference, with `bytes` left out of every result and the catalog reversed; `unobserved` as given. */
async function withoutBytes(unobserved: string[] | undefined): Promise<Implementation> {
  const ref = await loadModule(REFERENCE_MODULE);
  const drop = (r: unknown) => {
    if (r && typeof r === "object") delete (r as { bytes?: number }).bytes;
    return r as never;
  };
  return {
    ...ref,
    info: { ...ref.info, ...(unobserved ? { unobserved } : {}) },
    async createSession(config, options) {
      const s = await ref.createSession(config, options);
      const wrapped: SessionHandle = {
        catalog: async () => {
          const c = await s.catalog();
          return { ...c, entries: [...c.entries].reverse() };
        },
        call: async (p, o) => drop(await s.call(p, o)),
        close: () => s.close(),
      };
      return wrapped;
    },
  };
}

const pick = (ids: string[]) => loadCases("all").filter((c) => ids.includes(c.id));

describe("unobserved values", () => {
  // Every harness driver is a JS module (--driver): its declaration must survive the module loader, in both
  // shapes of implementationInfo (K50), or the values it never produces are judged as missing and fail.
  it("reaches the run from a module driver's implementationInfo, nested or flat", async () => {
    const ref = await loadModule(REFERENCE_MODULE);
    const who = ref.info.implementation;
    const nested = { implementation: who, specVersion: "1", capabilities: {}, unobserved: ["result.bytes"] };
    const flat = { ...who, unobserved: ["result.bytes"] };
    for (const implementationInfo of [nested, flat]) {
      const mod = { implementationInfo, createSession: ref.createSession.bind(ref) };
      expect(fromModule(mod as never).info.unobserved).toEqual(["result.bytes"]);
    }
  });

  it("every row names known rules and places, and unknown ids are refused", () => {
    const ids = new Set(rules().map((r) => r.id));
    for (const o of observations()) {
      expect(
        o.rules.filter((r) => !ids.has(r)),
        o.id,
      ).toEqual([]);
      // call:* stands for a whole call the harness cannot be given (K120, runner/unobserved-call.ts).
      for (const p of o.places) expect(p, o.id).toMatch(/^((result|entry|catalog|check):[A-Za-z_.]+|call:\*)$/);
    }
    expect(() => observationRows(["result.bites"])).toThrow(/unknown id/);
  });

  it("names the places of a mismatch: a result field, a batch member's, a catalog entry's, a check key", () => {
    expect(placesOf("calls[1].result.bytes", "schema")).toContain("result:bytes");
    expect(placesOf("calls[0][3].bytes", "fields.bytes")).toEqual(
      expect.arrayContaining(["result:bytes", "check:fields.bytes", "check:fields"]),
    );
    expect(placesOf("catalog.entries[hello].dir", "entries.hello")).toContain("entry:dir");
    expect(placesOf("catalog.entries[0].meta", "schema")).toContain("entry:meta");
    // From a case file's key alone (K124: a check that passes at such a place leaves no mismatch to read).
    expect(placesOfKey("fields.frontmatter.name")).toContain("result:frontmatter");
    expect(placesOfKey("absent.bytes")).toContain("result:bytes");
    expect(placesOfKey("warnings_exclude.0")).toContain("check:warnings_exclude");
    expect(placesOf("catalog.names", "names.order")).toEqual(
      expect.arrayContaining(["check:names.order", "catalog:names"]),
    );
  });

  it("declared: bytes.body-length and catalog.sorted are not observable, the cases checking them do not fail", async () => {
    const cases = pick(["U16", "U18", "U28", "U29"]);
    const r = await runSuite(() => withoutBytes(["result.bytes", "catalog.order"]), cases, {
      driverLabel: "no bytes",
      suite: "spec",
      profile: "spec",
    });
    const status = (id: string) => r.rules.find((x) => x.id === id)?.status;
    expect(status("bytes.body-length")).toBe("not_observable");
    expect(status("catalog.sorted")).toBe("not_observable");
    expect(status("result.schema")).toBe("passed");
    expect(r.cases.filter((c) => c.status === "failed").map((c) => c.id)).toEqual([]);
    expect(r.unobserved).toEqual(["result.bytes", "catalog.order"]);
    expect(r.rule_counts.spec.not_observable).toBe(2);
    // The console's score line names them (a count missing there reads as rules that vanished).
    expect(formatHeadline(r.score)).toContain("2 not observable here");
  });

  it("undeclared (the mutant): the same answers fail result.schema, bytes.body-length and catalog.sorted", async () => {
    const cases = pick(["U16", "U18", "U28", "U29"]);
    const r = await runSuite(() => withoutBytes(undefined), cases, {
      driverLabel: "no bytes",
      suite: "spec",
      profile: "spec",
    });
    const failed = r.rules.filter((x) => x.status === "failed").map((x) => x.id);
    expect(failed).toEqual(expect.arrayContaining(["result.schema", "bytes.body-length", "catalog.sorted"]));
  });
});
