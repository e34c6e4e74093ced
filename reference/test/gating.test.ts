// §5.4 sensitive, §4.3 disable-model-invocation, §5.5 trust, §5.6 the hook (D4 order, D5, D6).
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSession } from "../index.ts";
import { expectError, open, skillMd, tree } from "./helpers.ts";

const plain = () =>
  tree({ "demo/SKILL.md": skillMd("demo", "d", "allowed-tools: Read, Bash(git:*)\nversion: 1.0.0\n") });

describe("§5.4 sensitive patterns", () => {
  it("a skill under a default sensitive pattern with no hook → SENSITIVE (case 11)", async () => {
    const base = tree({ "secrets/creds/SKILL.md": skillMd("creds") });
    expectError(await open({ skill_roots: [join(base, "secrets")] }).call({ name: "creds" }), "SENSITIVE");
  });
  it("patterns are tried in order: a match comes back before a later pattern minimatch refuses (over 64 KiB) is compiled", async () => {
    const base = tree({ "secrets/creds/SKILL.md": skillMd("creds") });
    const h = open({ skill_roots: [join(base, "secrets")], sensitive_patterns: ["**/secrets/**", "a".repeat(70_000)] });
    expectError(await h.call({ name: "creds" }), "SENSITIVE");
  });
  it("SENSITIVE wins even with unsafeAllowSkillWithoutHook (D6)", async () => {
    const base = tree({ ".env/k/SKILL.md": skillMd("k") });
    const h = open({
      skill_roots: [join(base, ".env")],
      skill_trust: { trusted_roots: [] },
      permission: { unsafeAllowSkillWithoutHook: true },
    });
    expectError(await h.call({ name: "k" }), "SENSITIVE");
  });
  it("with a hook the hook decides, and is told reason: sensitive", async () => {
    const base = tree({ "secrets/creds/SKILL.md": skillMd("creds") });
    const h = open({ skill_roots: [join(base, "secrets")] }, ["allow"]);
    expect((await h.call({ name: "creds" })).kind).toBe("ok");
    expect(h.hookCalls[0]?.metadata.reason).toBe("sensitive");
  });
  it("custom patterns replace the defaults; [] disables them", async () => {
    const base = tree({ "secrets/creds/SKILL.md": skillMd("creds"), "team/x/SKILL.md": skillMd("x") });
    expect(
      (await open({ skill_roots: [join(base, "secrets")], sensitive_patterns: [] }).call({ name: "creds" })).kind,
    ).toBe("ok");
    expectError(
      await open({ skill_roots: [join(base, "team")], sensitive_patterns: ["**/team/**"] }).call({ name: "x" }),
      "SENSITIVE",
    );
  });
});

describe("§4.3 disable-model-invocation", () => {
  const root = () => tree({ "manual/SKILL.md": skillMd("manual", "d", "disable-model-invocation: true\n") });
  it("model invocation → DISABLED (case 12)", async () => {
    expectError(await open({ skill_roots: [root()] }).call({ name: "manual" }, "model"), "DISABLED");
  });
  it("user invocation → ok (case 13)", async () => {
    expect((await open({ skill_roots: [root()] }).call({ name: "manual" }, "user")).kind).toBe("ok");
  });
});

describe("§5.5 trust gating with no hook (D5)", () => {
  it("untrusted + hook_required (default) → NOT_TRUSTED (case 14)", async () => {
    const r = plain();
    expectError(
      await open({ skill_roots: [r], skill_trust: { trusted_roots: [] } }).call({ name: "demo" }),
      "NOT_TRUSTED",
    );
  });
  it("skill_trust absent → every root untrusted", async () => {
    const s = createSession({ skill_roots: [plain()] });
    const r = await s.call({ name: "demo" }, { invocation: "model" });
    expect(r.kind === "error" && r.code).toBe("NOT_TRUSTED");
  });
  it("unsafeAllowSkillWithoutHook: true → ok (case 15)", async () => {
    const h = open({
      skill_roots: [plain()],
      skill_trust: { trusted_roots: [] },
      permission: { unsafeAllowSkillWithoutHook: true },
    });
    expect((await h.call({ name: "demo" })).kind).toBe("ok");
  });
  it("warn → ok with a warning; allow → ok without one", async () => {
    const w = await open({
      skill_roots: [plain()],
      skill_trust: { trusted_roots: [], untrusted_project_skills: "warn" },
    }).call({ name: "demo" });
    expect(w.kind === "ok" && w.warnings?.length).toBe(1);
    const a = await open({
      skill_roots: [plain()],
      skill_trust: { trusted_roots: [], untrusted_project_skills: "allow" },
    }).call({ name: "demo" });
    expect(a.kind === "ok" && a.warnings).toBeUndefined();
  });
  it("a trusted root with no hook activates", async () => {
    expect((await open({ skill_roots: [plain()] }).call({ name: "demo" })).kind).toBe("ok");
  });
});

describe("§5.6 the permission hook", () => {
  it("receives the §5.6 payload with allowed_tools", async () => {
    const r = plain();
    const h = open({ skill_roots: [r] }, ["allow"]);
    expect((await h.call({ name: "demo" })).kind).toBe("ok");
    expect(h.hookCalls).toHaveLength(1);
    const req = h.hookCalls[0];
    expect(req).toMatchObject({
      tool: "skill",
      action: "activate",
      path: join(r, "demo"),
      always_patterns: ["Skill(name:demo)"],
    });
    expect(req?.metadata).toMatchObject({ name: "demo", root_index: 0, reason: "normal" });
    expect(req?.metadata.frontmatter.allowed_tools).toEqual(["Read", "Bash(git:*)"]);
  });
  it.each(["deny", "ask"] as const)("%s on a trusted skill → PERMISSION_DENIED (cases 24, 25)", async (answer) => {
    expectError(await open({ skill_roots: [plain()] }, [answer]).call({ name: "demo" }), "PERMISSION_DENIED");
  });
  it.each(["deny", "ask"] as const)(
    "%s on an untrusted skill → NOT_TRUSTED, reason untrusted_project_skill",
    async (answer) => {
      const h = open({ skill_roots: [plain()], skill_trust: { trusted_roots: [] } }, [answer]);
      expectError(await h.call({ name: "demo" }), "NOT_TRUSTED");
      expect(h.hookCalls[0]?.metadata.reason).toBe("untrusted_project_skill");
    },
  );
  it("allow_once goes on", async () => {
    expect((await open({ skill_roots: [plain()] }, ["allow_once"]).call({ name: "demo" })).kind).toBe("ok");
  });
  it("a hook that throws is a deny (fail closed)", async () => {
    const root = plain();
    const s = createSession(
      { skill_roots: [root], skill_trust: { trusted_roots: [root] }, permission: { hook: true } },
      {
        hook: () => {
          throw new Error("boom");
        },
      },
    );
    const r = await s.call({ name: "demo" }, { invocation: "model" });
    expect(r.kind === "error" && r.code).toBe("PERMISSION_DENIED");
  });
  it("a denied first try does not block a later one; an ok is never re-asked (D4)", async () => {
    const h = open({ skill_roots: [plain()] }, ["deny", "allow", "allow"]);
    expectError(await h.call({ name: "demo" }), "PERMISSION_DENIED");
    expect((await h.call({ name: "demo" })).kind).toBe("ok");
    expect((await h.call({ name: "demo" })).kind).toBe("already_loaded");
    expect(h.hookCalls).toHaveLength(2);
  });
});

describe("D4 order of checks", () => {
  it("DISABLED comes before the trust gate and the hook", async () => {
    const root = tree({ "manual/SKILL.md": skillMd("manual", "d", "disable-model-invocation: true\n") });
    const h = open({ skill_roots: [root], skill_trust: { trusted_roots: [] } }, ["allow"]);
    expectError(await h.call({ name: "manual" }), "DISABLED");
    expect(h.hookCalls).toHaveLength(0);
  });
  it("OUTSIDE_WORKSPACE and not_found are answered without asking the hook", async () => {
    const outside = tree({ "evil/SKILL.md": skillMd("evil") });
    const root = plain();
    symlinkSync(join(outside, "evil"), join(root, "evil"));
    const h = open({ skill_roots: [root] }, ["allow"]);
    expect((await h.call({ name: "nope" })).kind).toBe("not_found");
    expectError(await h.call({ name: "evil" }), "OUTSIDE_WORKSPACE");
    expect(h.hookCalls).toHaveLength(0);
  });
});

describe("review fixes: DISABLED fails closed", () => {
  it("an invocation that is not exactly 'user' counts as the model's", async () => {
    const root = tree({ "dm/SKILL.md": skillMd("dm", "d", "disable-model-invocation: true\n") });
    const s = createSession({ skill_roots: [root], skill_trust: { trusted_roots: [root] } });
    for (const options of [{}, { invocation: "Model" }, { turn: 3 }]) {
      const r = await s.call({ name: "dm" }, options as never);
      expect(r.kind === "error" && r.code).toBe("DISABLED");
    }
  });
});
