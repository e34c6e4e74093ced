// implementations/driver-kit/ (results.mjs, logs.mjs): the helpers every harness driver shares. Each test names the wrong
// helper it catches, since a driver built on a wrong helper would misreport a real harness.
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM helper without type declarations (implementations/ has no build)
import * as kit from "../implementations/driver-kit/results.mjs";

describe("driver-kit capabilities()", () => {
  it("declares every known capability, false unless listed (a name left out would count as supported)", () => {
    const caps = kit.capabilities(["symlinks"]);
    expect(Object.keys(caps).sort()).toEqual([...kit.CAPABILITY_NAMES].sort());
    expect(caps.symlinks).toBe(true);
    expect(
      Object.entries(caps)
        .filter(([, v]) => v)
        .map(([k]) => k),
    ).toEqual(["symlinks"]);
  });

  it("refuses a capability name the kit does not know (a typo would silently leave the real one supported)", () => {
    expect(() => kit.capabilities(["permission-hook"])).toThrow(/unknown capability permission-hook/);
  });
});

describe("driver-kit results", () => {
  it("ok carries only what the harness gave: no byte count, no empty resource list made up (K40)", () => {
    const r = kit.okResult({ name: "a", dir: "/d/a", body: "é\n", output: "o" });
    expect(r).toEqual({ kind: "ok", name: "a", dir: "/d/a", body: "é\n", output: "o" });
    expect(kit.okResult({ name: "a", body: "b", output: "o", bytes: 1, resources: ["scripts/x"] })).toMatchObject({
      bytes: 1,
      resources: ["scripts/x"],
    });
  });

  it("an error without a code of the harness's own leaves the code out instead of inventing one", () => {
    expect(kit.errorResult(undefined, "Error: refused", "Error: refused", { name: "a" })).toEqual({
      kind: "error",
      message: "Error: refused",
      output: "Error: refused",
      name: "a",
    });
  });

  it("error messages are one non-empty line; the harness's own output is kept as is", () => {
    const r = kit.errorResult("INVALID_PARAM", "bad\n  input\r\nhere", "Error: bad\ninput");
    expect(r.message).toBe("bad input here");
    expect(r.output).toBe("Error: bad\ninput");
    expect(kit.errorResult("IO_ERROR", "  ", "").message).toMatch(/\S/);
  });

  it("the catalog keeps the harness's own order and only the fields it gave (catalog.sorted judges that order)", () => {
    const c = kit.catalogResult("desc", [
      { name: "b", description: "d", dir: "/r/b", root_index: undefined },
      { name: "a", description: "d", dir: "/r/a" },
    ]);
    expect(c.entries.map((x: { name: string }) => x.name)).toEqual(["b", "a"]);
    expect(c.entries[0]).toEqual({ name: "b", description: "d", dir: "/r/b" });
  });

  it("has no call queue and no root lookup: a driver never orders calls or places entries itself", () => {
    expect(kit.CallQueue).toBeUndefined();
    expect(kit.rootIndexOf).toBeUndefined();
  });
});

describe("capturingLogs", () => {
  it("captures the named console methods while the call runs, and restores them even when it throws", async () => {
    // @ts-expect-error plain ESM helper without type declarations (implementations/ has no build)
    const { capturingLogs } = await import("../implementations/driver-kit/logs.mjs");
    const warn = console.warn;
    const { value, logged } = await capturingLogs(async () => {
      console.warn("skipped", { dir: "x" });
      console.error(new Error("bad yaml"));
      return 7;
    });
    expect(value).toBe(7);
    expect(logged).toEqual(['skipped {"dir":"x"}', "bad yaml"]);
    expect(console.warn).toBe(warn);
    await expect(
      capturingLogs(async () => {
        throw new Error("boom");
      }, ["warn", "debug"]),
    ).rejects.toThrow("boom");
    expect(console.warn).toBe(warn);
  });
});
