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
    expect(Object.entries(caps).filter(([, v]) => v).map(([k]) => k)).toEqual(["symlinks"]);
  });

  it("refuses a capability name the kit does not know (a typo would silently leave the real one supported)", () => {
    expect(() => kit.capabilities(["permission-hook"])).toThrow(/unknown capability permission-hook/);
  });
});

describe("driver-kit rootIndexOf()", () => {
  it("places a path under the root that holds it, with a separator: /t/skills-evil is not under /t/skills", () => {
    expect(kit.rootIndexOf(["/t/skills", "/t/user"], "/t/user/x/SKILL.md")).toBe(1);
    expect(kit.rootIndexOf(["/t/skills"], "/t/skills-evil/x/SKILL.md")).toBe(-1);
    expect(kit.rootIndexOf(["/t/skills/"], "/t/skills/x")).toBe(0);
  });
});

describe("driver-kit results", () => {
  it("ok counts UTF-8 bytes of the body, not UTF-16 units", () => {
    const r = kit.okResult({ name: "a", dir: "/d/a", body: "é\n", frontmatter: { name: "a", description: "d" }, output: "o" });
    expect(r.bytes).toBe(3);
    expect(r.resources).toEqual([]);
  });

  it("error messages are one non-empty line; the harness's own output is kept as is", () => {
    const r = kit.errorResult("INVALID_PARAM", "bad\n  input\r\nhere", "Error: bad\ninput");
    expect(r.message).toBe("bad input here");
    expect(r.output).toBe("Error: bad\ninput");
    expect(kit.errorResult("IO_ERROR", "  ", "").message).toMatch(/\S/);
  });

  it("catalog entries are sorted by code point, whatever order the harness listed them in", () => {
    const e = (name: string) => kit.catalogEntry({ name, description: "d", dir: `/r/${name}`, rootIndex: 0, frontmatter: { name, description: "d" } });
    const c = kit.catalogResult("desc", [e("b"), e("B"), e("a")]);
    expect(c.entries.map((x: { name: string }) => x.name)).toEqual(["B", "a", "b"]);
  });
});

describe("driver-kit CallQueue", () => {
  it("runs calls one at a time in call order, even when an earlier one is slower", async () => {
    const q = new kit.CallQueue();
    const log: string[] = [];
    const slow = q.run(async () => {
      await new Promise((r) => setTimeout(r, 20));
      log.push("first");
    });
    const fast = q.run(async () => log.push("second"));
    await Promise.all([slow, fast]);
    expect(log).toEqual(["first", "second"]);
  });

  it("a failed call does not stop the queue", async () => {
    const q = new kit.CallQueue();
    await expect(q.run(async () => { throw new Error("boom"); })).rejects.toThrow("boom");
    await expect(q.run(async () => 7)).resolves.toBe(7);
  });

  it("close() refuses what is still queued instead of running it against a closed session", async () => {
    const q = new kit.CallQueue();
    let ran = 0;
    const first = q.run(async () => {
      await new Promise((r) => setTimeout(r, 10));
      ran++;
    });
    const queued = expect(q.run(async () => ran++)).rejects.toThrow(/session closed/);
    await new Promise((r) => setTimeout(r, 1)); // the first call has started; the second waits behind it
    await q.close();
    await first;
    await queued;
    expect(ran).toBe(1);
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
    await expect(capturingLogs(async () => { throw new Error("boom"); }, ["warn", "debug"])).rejects.toThrow("boom");
    expect(console.warn).toBe(warn);
  });
});
