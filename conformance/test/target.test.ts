// Target resolution (conformance/target.ts): a named path is looked up where the user is and nowhere else, so a
// missing build never falls back to the kit's own files (which tested the reference: a false green).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../package-root.ts";
import { main } from "../../scripts/conformance.ts";
import { TargetError, checkExecCommand, openTargets, primed, resolveModule } from "../target.ts";

const user = mkdtempSync(join(tmpdir(), "skill-target-test-"));
afterAll(() => rmSync(user, { recursive: true, force: true }));

describe("--driver", () => {
  it("a path the kit has but the user does not is missing, never the kit's file", () => {
    // reference/index.ts exists under the kit's root; from the user's directory it does not.
    for (const spec of ["./reference/index.ts", "reference/index.ts", "../reference/index.ts"]) {
      expect(() => resolveModule(spec, user), spec).toThrow(TargetError);
    }
    expect(() => resolveModule("./dist/index.js", user)).toThrow(
      `--driver ./dist/index.js: no such file ${join(user, "dist/index.js")}`,
    );
    expect(resolveModule("./reference/index.ts", PACKAGE_ROOT)).toBe(join(PACKAGE_ROOT, "reference/index.ts"));
  });

  it("a file where the user is is used, relative or absolute; a bare name is a package installed there", () => {
    writeFileSync(join(user, "impl.js"), "");
    expect(resolveModule("./impl.js", user)).toBe(join(user, "impl.js"));
    expect(resolveModule("impl.js", user)).toBe(join(user, "impl.js"));
    expect(resolveModule(join(user, "impl.js"), "/")).toBe(join(user, "impl.js"));
    mkdirSync(join(user, "node_modules", "their-impl"), { recursive: true });
    writeFileSync(join(user, "node_modules", "their-impl", "package.json"), '{"name":"their-impl","main":"main.js"}');
    writeFileSync(join(user, "node_modules", "their-impl", "main.js"), "");
    expect(resolveModule("their-impl", user)).toBe(join(user, "node_modules", "their-impl", "main.js"));
    expect(() => resolveModule("not-installed-anywhere", user)).toThrow(
      /no package "not-installed-anywhere" installed where the command runs/,
    );
  });
});

describe("--exec", () => {
  it("an empty command, a missing or non-executable program path are caught before the run", () => {
    expect(() => checkExecCommand("", user)).toThrow(/names no command/);
    expect(() => checkExecCommand("  RUST_LOG=debug  ", user)).toThrow(/names no command/);
    expect(() => checkExecCommand("RUST_LOG=debug ./target/release/x --q", user)).toThrow(
      /--exec \.\/target\/release\/x: no such file/,
    );
    writeFileSync(join(user, "plain"), "");
    expect(() => checkExecCommand("./plain", user)).toThrow(/is not executable/);
    chmodSync(join(user, "plain"), 0o755);
    expect(() => checkExecCommand("./plain --flag", user)).not.toThrow();
    // Left to the shell: commands on PATH, and anything the shell expands.
    expect(() => checkExecCommand("npx tsx scripts/reference-driver.ts", user)).not.toThrow();
    expect(() => checkExecCommand('"$HOME"/bin/driver', user)).not.toThrow();
  });
});

describe("primed", () => {
  it("the first open happens once, before the run, and is the run's first; later opens are fresh", async () => {
    let opens = 0;
    const p = primed({ label: "x", open: async () => ({ id: ++opens }) as never });
    expect((await p.first).ok).toBe(true);
    expect(await p.open()).toEqual({ id: 1 });
    expect(await p.open()).toEqual({ id: 2 });
    expect(opens).toBe(2);
  });
  it("a failed first open is reported to the run's first open, not retried", async () => {
    let opens = 0;
    const p = primed({
      label: "x",
      open: async () => {
        opens++;
        throw new Error("dead");
      },
    });
    expect(await p.first).toMatchObject({ ok: false });
    await expect(p.open()).rejects.toThrow("dead");
    expect(opens).toBe(1);
  });
});

describe("implementationInfo as conformance/README.md shows it (issue 28 item 1)", () => {
  const reference = join(PACKAGE_ROOT, "reference", "index.ts");
  const module = (name: string, info: string) => {
    const file = join(user, name);
    writeFileSync(
      file,
      `export { createSession } from ${JSON.stringify(reference)};\nexport const implementationInfo = ${info};\n`,
    );
    return file;
  };
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  it("flat {name, version, language}: the run tests it and names it", async () => {
    const file = module("flat-info.mjs", `{ name: "my-skill-tool", version: "0.3.0", language: "typescript" }`);
    const r = await run("--driver", file, "--filter", "U01");
    expect(r.err).not.toMatch(/could not run/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/implementation under test: my-skill-tool 0\.3\.0 \(typescript\) via /);
    const [t] = await openTargets([{ kind: "module", spec: file }], { cwd: user, reference: false });
    expect(t!.info).toEqual({
      implementation: { name: "my-skill-tool", version: "0.3.0", language: "typescript" },
      specVersion: "1",
      capabilities: {},
    });
  });

  it("flat with specVersion and capabilities, or a function returning it, keeps them", async () => {
    const file = module(
      "flat-fn.mjs",
      `() => ({ name: "f", version: "1", language: "typescript", specVersion: "1", capabilities: { hook: true } })`,
    );
    const [t] = await openTargets([{ kind: "module", spec: file }], { cwd: user, reference: false });
    expect(t!.info).toEqual({
      implementation: { name: "f", version: "1", language: "typescript" },
      specVersion: "1",
      capabilities: { hook: true },
    });
  });

  it("a driver's unobserved list (K40) reaches the run in either shape, so its rules are not observable, never failed", async () => {
    const nested = module(
      "nested-unobserved.mjs",
      `{ implementation: { name: "n", version: "1", language: "javascript" }, specVersion: "1", capabilities: {}, unobserved: ["call.by-name", "result.bytes"] }`,
    );
    const flat = module(
      "flat-unobserved.mjs",
      `{ name: "f", version: "1", language: "javascript", unobserved: ["result.bytes"] }`,
    );
    const [n] = await openTargets([{ kind: "module", spec: nested }], { cwd: user, reference: false });
    const [f] = await openTargets([{ kind: "module", spec: flat }], { cwd: user, reference: false });
    expect(n!.info.unobserved).toEqual(["call.by-name", "result.bytes"]);
    expect(f!.info.unobserved).toEqual(["result.bytes"]);
  });

  it("neither shape: one line saying which shape is wanted, exit 2 (not 'Cannot read properties of undefined')", async () => {
    const file = module("bad-info.mjs", `{ title: "nope" }`);
    const r = await run("--driver", file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^skill-conformance: cannot load --driver .*bad-info\.mjs: implementationInfo has no name, version, language \(a string each\): export \{ name, version, language/,
    );
    expect(r.err).not.toMatch(/Cannot read properties/);
  });
});
