// §3 result kinds and rendering, §7 dedupe, §8 resources, §9 substitution, §12 concurrency.
import type { SkillResult } from "../../schemas/index.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectError, open, skillMd, tree } from "./helpers.ts";

describe("§3.1 ok", () => {
  it("renders the <skill> block byte for byte (R1)", async () => {
    const root = tree({
      "demo/SKILL.md": "---\nname: demo\ndescription: Demo skill\nallowed-tools: Read, Grep\n---\n# Demo\nBody line\n",
      "demo/scripts/run.sh": "#!/bin/sh\n",
      "demo/references/guide.md": "# g\n",
    });
    const r = await open({ skill_roots: [root] }).call({ name: "demo" });
    expect(r.kind).toBe("ok");
    if (r.kind !== "ok") return;
    const dir = join(root, "demo");
    expect(r.output).toBe(
      `<skill name="demo" dir="${dir}">\n<frontmatter>\nname: demo\ndescription: Demo skill\nallowed-tools:\n  - Read\n  - Grep\n</frontmatter>\n` +
        `<instructions>\n# Demo\nBody line\n</instructions>\n<resources>\nscripts/run.sh\nreferences/guide.md\n</resources>\n</skill>\n` +
        `(Skill "demo" activated. Body is 17 bytes. Scripts available via bash(${dir}/scripts/<name>). References via read(${dir}/references/<name>).)`,
    );
    expect(r).toMatchObject({
      name: "demo",
      dir,
      body: "# Demo\nBody line\n",
      bytes: 17,
      resources: ["scripts/run.sh", "references/guide.md"],
    });
    expect(r.frontmatter["allowed-tools"]).toEqual(["Read", "Grep"]);
  });

  it("no resources → no <resources> section; a body without final newline gets one before </instructions>", async () => {
    const root = tree({ "demo/SKILL.md": "---\nname: demo\ndescription: d\n---\nno newline" });
    const r = await open({ skill_roots: [root] }).call({ name: "demo" });
    expect(r.output).toContain("<instructions>\nno newline\n</instructions>\n</skill>\n");
    expect(r.output).not.toContain("<resources>");
  });

  it("bytes counts UTF-8 bytes of the body", async () => {
    const root = tree({ "demo/SKILL.md": "---\nname: demo\ndescription: d\n---\né€\n" });
    const r = await open({ skill_roots: [root] }).call({ name: "demo" });
    expect(r.kind === "ok" && r.bytes).toBe(6);
  });
});

describe("§3.2 / §7 dedupe", () => {
  it("second activation → already_loaded with at_turn (case 17, D9)", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a"), "b/SKILL.md": skillMd("b") });
    const h = open({ skill_roots: [root] });
    expect((await h.call({ name: "a" })).kind).toBe("ok");
    expect((await h.call({ name: "b" })).kind).toBe("ok");
    const again = await h.call({ name: "b" });
    expect(again).toEqual({
      kind: "already_loaded",
      name: "b",
      at_turn: 2,
      output: '(Skill "b" is already active in this session. Body was loaded at turn 2. No new content was added.)',
    });
  });
  it("the harness's own turn number is used when given", async () => {
    const h = open({ skill_roots: [tree({ "a/SKILL.md": skillMd("a") })] });
    await h.call({ name: "a" }, "model", 7);
    const r = await h.call({ name: "a" });
    expect(r.kind === "already_loaded" && r.at_turn).toBe(7);
  });
  it("an edit after activation does not bust the cache (§7 non-behaviour)", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a") });
    const h = open({ skill_roots: [root] });
    await h.call({ name: "a" });
    writeFileSync(join(root, "a", "SKILL.md"), skillMd("a", "changed"));
    expect((await h.call({ name: "a" })).kind).toBe("already_loaded");
  });
});

describe("§3.3 not_found", () => {
  it("lists up to 3 siblings with similarity ≥ 0.6, best first (case 4, R8)", async () => {
    const names = ["deploy-app", "deploy-api", "deploy-ap", "deploy-apx", "lint"];
    const root = tree(Object.fromEntries(names.map((n) => [`${n}/SKILL.md`, skillMd(n)])));
    const r = await open({ skill_roots: [root] }).call({ name: "deploy-apq" });
    expect(r.kind).toBe("not_found");
    if (r.kind !== "not_found") return;
    expect(r.siblings).toEqual(["deploy-ap", "deploy-api", "deploy-app"]);
    expect(r.output).toBe(
      '(No skill matches "deploy-apq". Did you mean: deploy-ap, deploy-api, deploy-app? Run with a listed name from the catalog.)',
    );
  });
  it("no similar name → empty siblings", async () => {
    const r = await open({ skill_roots: [tree({ "lint/SKILL.md": skillMd("lint") })] }).call({ name: "zzzzzzzz" });
    expect(r.kind === "not_found" && r.siblings).toEqual([]);
  });
});

describe("§8 resources", () => {
  it("lists scripts, references, assets sorted, relative to the dir (case 22)", async () => {
    const root = tree({
      "r/SKILL.md": skillMd("r"),
      "r/scripts/b.sh": "",
      "r/scripts/a.py": "",
      "r/references/r.md": "",
      "r/assets/t/x.txt": "",
      "r/other/no.txt": "",
      "r/scripts/.hidden": "",
    });
    const r = await open({ skill_roots: [root] }).call({ name: "r" });
    expect(r.kind === "ok" && r.resources).toEqual([
      "scripts/a.py",
      "scripts/b.sh",
      "references/r.md",
      "assets/t/x.txt",
    ]);
  });
  it("more than 10 in a folder → 10 listed and '(... N more)' (case 23)", async () => {
    const files: Record<string, string> = { "r/SKILL.md": skillMd("r") };
    for (let i = 0; i < 13; i++) files[`r/scripts/s${String(i).padStart(2, "0")}.sh`] = "";
    const r = await open({ skill_roots: [tree(files)] }).call({ name: "r" });
    expect(r.kind).toBe("ok");
    if (r.kind !== "ok") return;
    expect(r.resources).toHaveLength(10);
    expect(r.resources_omitted).toEqual({ scripts: 3 });
    expect(r.output).toContain("scripts/s09.sh\n(... 3 more)\n</resources>");
  });
});

describe("§9 substitution (R5)", () => {
  const body = "all=$ARGUMENTS one=$1 two=$2 three=$3 zero=$ARGUMENTS[0] named=${path} dollar0=$0\n";
  it("string arguments fill $ARGUMENTS, $N, $ARGUMENTS[N]; the rest stay literal (case 18)", async () => {
    const root = tree({ "p/SKILL.md": skillMd("p", "d", "", body) });
    const r = await open({ skill_roots: [root] }).call({ name: "p", arguments: "x  y" });
    expect(r.kind === "ok" && r.body).toBe("all=x  y one=x two=y three=$3 zero=x named=${path} dollar0=$0\n");
  });
  it("object arguments fill ${name} and key=value $ARGUMENTS (case 19)", async () => {
    const root = tree({
      "p/SKILL.md": skillMd(
        "p",
        "d",
        "arguments:\n  path: {type: string, required: true}\n  mode: {type: string}\n",
        body,
      ),
    });
    const r = await open({ skill_roots: [root] }).call({ name: "p", arguments: { path: "src/a.ts", mode: "fast" } });
    expect(r.kind === "ok" && r.body).toBe(
      "all=path=src/a.ts mode=fast one=$1 two=$2 three=$3 zero=$ARGUMENTS[0] named=src/a.ts dollar0=$0\n",
    );
  });
  it("substituted text is never re-scanned", async () => {
    const root = tree({ "p/SKILL.md": skillMd("p", "d", "", "[$1] [$2]\n") });
    const r = await open({ skill_roots: [root] }).call({ name: "p", arguments: "$2 two" });
    expect(r.kind === "ok" && r.body).toBe("[$2] [two]\n");
  });
  it("no arguments → body untouched", async () => {
    const root = tree({ "p/SKILL.md": skillMd("p", "d", "", body) });
    const r = await open({ skill_roots: [root] }).call({ name: "p" });
    expect(r.kind === "ok" && r.body).toBe(body);
  });
  it("object arguments on a skill with no declaration → INVALID_PARAM (case 20)", async () => {
    const root = tree({ "p/SKILL.md": skillMd("p") });
    const r = await open({ skill_roots: [root] }).call({ name: "p", arguments: { a: "b" } });
    expectError(r, "INVALID_PARAM");
    expect(r.message).toBe("skill p does not accept named arguments");
  });
  it("string arguments on a named-argument skill → INVALID_PARAM listing them (case 21)", async () => {
    const root = tree({
      "p/SKILL.md": skillMd("p", "d", "arguments:\n  path: {type: string}\n  mode: {type: string}\n"),
    });
    const r = await open({ skill_roots: [root] }).call({ name: "p", arguments: "src" });
    expectError(r, "INVALID_PARAM");
    expect(r.message).toBe("skill p expects named arguments: path, mode");
  });
  it("a missing required or an undeclared named argument → INVALID_PARAM (R4)", async () => {
    const root = tree({ "p/SKILL.md": skillMd("p", "d", "arguments:\n  path: {type: string, required: true}\n") });
    const h = open({ skill_roots: [root] });
    expectError(await h.call({ name: "p", arguments: {} }), "INVALID_PARAM");
    expectError(await h.call({ name: "p", arguments: { path: "x", extra: "y" } }), "INVALID_PARAM");
    expectError(await h.call({ name: "p" }), "INVALID_PARAM");
  });
});

describe("§12 concurrency", () => {
  it("parallel calls resolve in call order, each name ok exactly once", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`s${i}/SKILL.md`] = skillMd(`s${i}`);
    const h = open({ skill_roots: [tree(files)] });
    const order: number[] = [];
    const calls = Array.from({ length: 100 }, (_, i) =>
      h.session.call({ name: `s${i % 20}` }, { invocation: "model" }).then((r) => {
        order.push(i);
        return r;
      }),
    );
    const results = await Promise.all(calls);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(results.filter((r) => r.kind === "ok")).toHaveLength(20);
    results.forEach((r, i) => expect(r.kind).toBe(i < 20 ? "ok" : "already_loaded"));
  });
  it("after discovery, a call made while a slow hook holds another waits for it, and an idle session still answers in call order", async () => {
    // An idle session starts a call at once (no queue hop); a call made while one is in flight must still queue.
    const { createSession } = await import("../index.ts");
    const root = tree({ "slow/SKILL.md": skillMd("slow"), "fast/SKILL.md": skillMd("fast") });
    let release = (): void => undefined;
    const held = new Promise<void>((done) => (release = done));
    const hook = async (req: { metadata: { name: string } }): Promise<"allow"> => {
      if (req.metadata.name === "slow") await held;
      return "allow";
    };
    const s = createSession(
      { skill_roots: [root], skill_trust: { trusted_roots: [root] }, permission: { hook: true } },
      { hook },
    );
    await s.catalog();
    const order: string[] = [];
    const slow = s.call({ name: "slow" }, { invocation: "model" }).then((r) => order.push(`slow:${r.kind}`));
    const fast = s.call({ name: "fast" }, { invocation: "model" }).then((r) => order.push(`fast:${r.kind}`));
    await new Promise((done) => setTimeout(done, 20));
    expect(order).toEqual([]); // fast waits behind slow's hook
    release();
    await Promise.all([slow, fast]);
    const again = s.call({ name: "fast" }, { invocation: "model" }).then((r) => order.push(`fast:${r.kind}`));
    const third = s.call({ name: "slow" }, { invocation: "model" }).then((r) => order.push(`slow:${r.kind}`));
    await Promise.all([again, third]);
    expect(order).toEqual(["slow:ok", "fast:ok", "fast:already_loaded", "slow:already_loaded"]);
  });
  it("a call the permission hook makes waits for the call that asked, even on an idle session after discovery", async () => {
    // The idle fast path must not let a hook's own call run beside the one in flight (a second ok, a second hook).
    const { createSession } = await import("../index.ts");
    const root = tree({ "demo/SKILL.md": skillMd("demo") });
    const asked: string[] = [];
    let inner: Promise<SkillResult> | undefined;
    const s = createSession(
      { skill_roots: [root], skill_trust: { trusted_roots: [root] }, permission: { hook: true } },
      {
        hook: (req) => {
          asked.push(req.metadata.name);
          inner ??= s.call({ name: "demo" }, { invocation: "model" });
          return "allow";
        },
      },
    );
    await s.catalog();
    expect((await s.call({ name: "nope" }, { invocation: "model" })).kind).toBe("not_found"); // the first call resolves what later calls read
    const outer = await s.call({ name: "demo" }, { invocation: "model" });
    expect(outer.kind).toBe("ok");
    expect((await inner)?.kind).toBe("already_loaded");
    expect(asked).toEqual(["demo"]);
  });
  it("close(): a call already running ends as it began; one not yet started is refused", async () => {
    const { createSession } = await import("../index.ts");
    const root = tree({ "a/SKILL.md": skillMd("a"), "b/SKILL.md": skillMd("b") });
    const config = { skill_roots: [root], skill_trust: { trusted_roots: [root] } };
    // The first call waits for discovery: it has started, so it ends ok.
    const first = createSession(config, {});
    const waiting = first.call({ name: "a" }, { invocation: "model" });
    await first.close();
    expect((await waiting).kind).toBe("ok");
    // Behind a call that waits for discovery, a second call has not started when close() comes.
    const second = createSession(config, {});
    const running = second.call({ name: "a" }, { invocation: "model" });
    const queued = second.call({ name: "b" }, { invocation: "model" });
    await second.close();
    expect((await running).kind).toBe("ok");
    expectError(await queued, "INVALID_PARAM");
  });
});

describe("session life", () => {
  it("a closed session answers with a structured error", async () => {
    const h = open({ skill_roots: [tree({ "a/SKILL.md": skillMd("a") })] });
    await h.session.close();
    expectError(await h.call({ name: "a" }), "INVALID_PARAM");
  });
  it("an invalid session config is a harness bug: createSession throws a TypeError", async () => {
    const { createSession } = await import("../index.ts");
    expect(() => createSession({ skill_roots: "nope" } as never)).toThrow(TypeError);
  });
  it("a skill dir removed after discovery is IO_ERROR, not a throw", async () => {
    const root = tree({ "a/SKILL.md": skillMd("a") });
    const h = open({ skill_roots: [root] });
    await h.session.catalog();
    mkdirSync(join(root, "gone"));
    const { rmSync } = await import("node:fs");
    rmSync(join(root, "a"), { recursive: true });
    expectError(await h.call({ name: "a" }), "IO_ERROR");
  });
});

describe("§8 resources are fenced (D10)", () => {
  it("an outside scripts/ folder, a link to a dir, and a dangling link are not listed; an inside file link is", async () => {
    const { symlinkSync } = await import("node:fs");
    const outside = tree({ "tools/steal.sh": "", "ref.md": "" });
    const root = tree({ "r/SKILL.md": skillMd("r"), "r/references/own.md": "", "r/assets/a.txt": "" });
    symlinkSync(join(outside, "tools"), join(root, "r", "scripts"));
    symlinkSync(join(outside, "ref.md"), join(root, "r", "references", "outside.md"));
    symlinkSync(join(root, "r", "assets"), join(root, "r", "references", "dirlink"));
    symlinkSync(join(root, "r", "nowhere"), join(root, "r", "references", "dangling"));
    symlinkSync(join(root, "r", "assets", "a.txt"), join(root, "r", "references", "inside.txt"));
    const r = await open({ skill_roots: [root] }).call({ name: "r" });
    expect(r.kind === "ok" && r.resources).toEqual(["references/inside.txt", "references/own.md", "assets/a.txt"]);
    expect(r.output).not.toContain("steal");
  });
});

describe("review fixes", () => {
  it("the argument form is checked against the SKILL.md as re-read at activation", async () => {
    const root = tree({ "ed/SKILL.md": skillMd("ed", "d", "", "x=${p}\n") });
    const h = open({ skill_roots: [root] });
    await h.session.catalog();
    writeFileSync(
      join(root, "ed", "SKILL.md"),
      skillMd("ed", "d", "arguments:\n  p: {type: string, required: true}\n", "x=${p}\n"),
    );
    expectError(await h.call({ name: "ed" }), "INVALID_PARAM");
    expect((await h.call({ name: "ed", arguments: { p: "v" } })).kind).toBe("ok");
  });
  it("resources sort by code point, not UTF-16 unit", async () => {
    const root = tree({ "r/SKILL.md": skillMd("r"), "r/scripts/\u{1F600}": "", "r/scripts/\uFF01": "" });
    const r = await open({ skill_roots: [root] }).call({ name: "r" });
    expect(r.kind === "ok" && r.resources).toEqual(["scripts/\uFF01", "scripts/\u{1F600}"]);
  });
  it("a relative skill root is a config error", async () => {
    const { createSession } = await import("../index.ts");
    expect(() => createSession({ skill_roots: ["skills"] })).toThrow(TypeError);
  });
});
