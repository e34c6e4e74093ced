// Smoke check for a new implementation: handshake, one session over a one-skill temp tree, its catalog,
// one activation, close, and a clean shutdown. Each step reports ok/failed with a detail, so an
// implementer sees the first thing that breaks before running the whole matrix.
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check } from "../schemas/index.ts";
import type { Implementation, SessionHandle } from "../schemas/implementation.ts";
import { DriverError } from "./driver/errors.ts";
import type { SubprocessImplementation } from "./driver/subprocess.ts";

export interface SmokeStep {
  step: string;
  status: "ok" | "failed" | "not run";
  detail: string;
  ms: number;
}

export const SMOKE_SKILL = "smoke-check";
export const SMOKE_STEPS = [
  "initialize",
  "session/create",
  "session/catalog",
  "skill/call",
  "session/close",
  "shutdown",
] as const;

function isSubprocess(impl: Implementation): impl is SubprocessImplementation {
  return "exited" in impl && "pid" in impl;
}

function message(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // A driver fault carries the child's stderr: the first thing an implementer needs when it will not start.
  const stderr = err instanceof DriverError && err.stderr ? err.stderr.trim().slice(-1000) : "";
  return stderr && !text.includes(stderr)
    ? `${text}\n          stderr: ${stderr.replace(/\n/g, "\n          ")}`
    : text;
}

/**
 * `firstOpenMs`: the real time of the first open when it was made before smoke ran (a primed target): the initialize
 * step's time is that, not the instant the ready promise takes.
 */
export async function smoke(
  open: () => Promise<Implementation>,
  onStep?: (s: SmokeStep) => void,
  opts: { firstOpenMs?: number } = {},
): Promise<SmokeStep[]> {
  const steps: SmokeStep[] = [];
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "skill-smoke-")));
  const root = join(dir, "skills");
  mkdirSync(join(root, SMOKE_SKILL), { recursive: true });
  writeFileSync(
    join(root, SMOKE_SKILL, "SKILL.md"),
    `---\nname: ${SMOKE_SKILL}\ndescription: Used by the kit's smoke check.\n---\nSay "smoke ok".\n`,
  );

  let impl: Implementation | undefined;
  let session: SessionHandle | undefined;
  let failed = false;
  const step = async (name: string, fn: () => Promise<string>, always = false, ms?: number) => {
    if (failed && !always) {
      const s: SmokeStep = { step: name, status: "not run", detail: "an earlier step failed", ms: 0 };
      steps.push(s);
      onStep?.(s);
      return;
    }
    const t0 = performance.now();
    let s: SmokeStep;
    try {
      s = { step: name, status: "ok", detail: await fn(), ms: ms ?? performance.now() - t0 };
    } catch (err) {
      failed = true;
      s = { step: name, status: "failed", detail: message(err), ms: ms ?? performance.now() - t0 };
    }
    steps.push(s);
    onStep?.(s);
  };

  try {
    await step(
      "initialize",
      async () => {
        impl = await open();
        const i = impl.info.implementation;
        return `${i.name} ${i.version} (${i.language}), spec ${impl.info.specVersion}, capabilities ${JSON.stringify(impl.info.capabilities)}`;
      },
      false,
      opts.firstOpenMs,
    );
    await step("session/create", async () => {
      session = await impl!.createSession(
        { skill_roots: [root], skill_trust: { trusted_roots: [root] }, permission: { hook: false } },
        {},
      );
      return `one trusted root with skill ${SMOKE_SKILL}`;
    });
    await step("session/catalog", async () => {
      const catalog = await session!.catalog();
      const v = check("catalog.schema.json", catalog);
      if (!v.valid) throw new Error(`catalog does not validate: ${v.errors}`);
      const names = catalog.entries.map((e) => e.name);
      if (!names.includes(SMOKE_SKILL)) throw new Error(`catalog lists ${JSON.stringify(names)}, not ${SMOKE_SKILL}`);
      return `${names.length} entr${names.length === 1 ? "y" : "ies"}: ${names.join(", ")}`;
    });
    await step("skill/call", async () => {
      const result = await session!.call({ name: SMOKE_SKILL }, { invocation: "model" });
      const v = check("result.schema.json", result);
      if (!v.valid) throw new Error(`result does not validate: ${v.errors}`);
      if (result.kind !== "ok")
        throw new Error(
          `expected kind "ok" for a skill under a trusted root, got ${JSON.stringify(result.kind)}: ${result.output.slice(0, 200)}`,
        );
      return `kind ok, ${result.bytes} bytes`;
    });
    await step("session/close", async () => {
      await session!.close();
      return "closed";
    });
    await step(
      "shutdown",
      async () => {
        const it = impl!;
        impl = undefined;
        await it.dispose();
        if (isSubprocess(it)) {
          const e = await it.exited;
          if (e.killed) throw new Error("did not exit after shutdown and end of stdin: the kit had to SIGKILL it");
          if (e.code !== 0) throw new Error(`exited with ${e.signal ?? `code ${e.code}`} after shutdown`);
          return "exited with code 0";
        }
        return "disposed";
      },
      impl !== undefined,
    );
  } finally {
    await impl?.dispose().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  return steps;
}

export function formatSmokeStep(s: SmokeStep): string {
  const label = s.status === "ok" ? "ok     " : s.status === "failed" ? "FAILED " : "not run";
  return `${label} ${s.step.padEnd(16)} ${s.detail}${s.status === "not run" ? "" : `  (${Math.round(s.ms)} ms)`}`;
}
