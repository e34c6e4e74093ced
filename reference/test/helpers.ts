// Test helpers: build skill trees in temp dirs, and a session whose every result is checked against
// schemas/result.schema.json (issue #2: every result the reference returns in tests is validated).
import { mkdtempSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect } from "vitest";
import { check } from "../../schemas/index.ts";
import type { SessionConfig, SkillResult, PermissionRequest, PermissionDecision } from "../../schemas/index.ts";
import { createSession } from "../index.ts";

const made: string[] = [];
afterEach(() => {
  while (made.length > 0) rmSync(made.pop() as string, { recursive: true, force: true });
});

export type Tree = Record<string, string | Buffer | { symlink: string }>;

/** Write a tree under a fresh temp dir (real path) and return that dir. */
export function tree(files: Tree): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "skill-ref-")));
  made.push(root);
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    if (typeof content === "object" && !Buffer.isBuffer(content)) symlinkSync(content.symlink, p);
    else if (rel.endsWith("/")) mkdirSync(p, { recursive: true });
    else writeFileSync(p, content);
  }
  return root;
}

export function skillMd(
  name: string,
  description = `The ${name} skill.`,
  extra = "",
  body = `# ${name}\nDo the ${name} thing.\n`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;
}

export interface Harness {
  call(params: unknown, invocation?: "model" | "user", turn?: number): Promise<SkillResult>;
  hookCalls: PermissionRequest[];
  session: ReturnType<typeof createSession>;
}

/** A session with trusted roots by default (so tests of other rules are not gated), results schema-checked. */
export function open(
  config: Partial<SessionConfig> & { skill_roots: string[] },
  answers?: PermissionDecision[],
): Harness {
  const hookCalls: PermissionRequest[] = [];
  const full: SessionConfig = { skill_trust: { trusted_roots: config.skill_roots }, ...config };
  const hook = answers
    ? (req: PermissionRequest): PermissionDecision => {
        hookCalls.push(req);
        return answers[Math.min(hookCalls.length - 1, answers.length - 1)] ?? "deny";
      }
    : undefined;
  if (answers) full.permission = { ...full.permission, hook: true };
  const session = createSession(full, hook ? { hook } : {});
  return {
    session,
    hookCalls,
    async call(params, invocation = "model", turn) {
      const r = await session.call(params, { invocation, ...(turn !== undefined ? { turn } : {}) });
      const v = check("result.schema.json", r);
      expect(v.valid ? "" : v.errors, "result validates against result.schema.json").toBe("");
      if (answers) {
        for (const req of hookCalls) {
          const rv = check("permission-request.schema.json", req);
          expect(rv.valid ? "" : rv.errors).toBe("");
        }
      }
      return r;
    },
  };
}

export function expectError(r: SkillResult, code: string): asserts r is Extract<SkillResult, { kind: "error" }> {
  expect(r.kind).toBe("error");
  if (r.kind === "error") expect(r.code).toBe(code);
}
