// Helpers shared by the SK1–SK8 checkers and policies: session configs, "did the agent read or run a skill's files",
// and short renderings of calls for reason lines.
import { relative } from "node:path";
import type { SessionConfig } from "../../schemas/index.ts";
import { bashCommand, inputName, type ToolEvent, type Trial } from "../transcript.ts";

/** Every root trusted, no hook: activation needs no approval (the scenario is about something else). */
export function trustedConfig(roots: string[]): SessionConfig {
  return { skill_roots: roots, skill_trust: { trusted_roots: [...roots], untrusted_project_skills: "hook_required" } };
}

/** JSON of a call's input, shortened for a reason line. */
export function show(input: unknown, max = 80): string {
  const s = JSON.stringify(input) ?? String(input);
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

export function showCmd(cmd: string, max = 80): string {
  const one = cmd.replace(/\s+/g, " ").trim();
  return "`" + (one.length > max ? one.slice(0, max - 1) + "…" : one) + "`";
}

/** The first ok activation of a skill, if any. */
export function firstOk(t: Trial, name: string): ToolEvent | undefined {
  return t.skillCalls().find((e) => e.skill?.kind === "ok" && e.skill.name === name);
}

/** The skill's dir: from its catalog entry, else from an ok result. */
export function skillDir(t: Trial, name: string): string | undefined {
  return t.catalog?.entries.find((e) => e.name === name)?.dir ?? (firstOk(t, name)?.skill as { dir?: string } | undefined)?.dir;
}

/**
 * Tool calls that read or run a skill's files behind the skill tool's back: a read inside its dir, or a bash
 * command naming its dir, its SKILL.md, or one of the given script names. `since` limits to events after it.
 */
export function skillFileAccess(t: Trial, name: string, scripts: string[] = [], since?: ToolEvent): ToolEvent[] {
  const dir = skillDir(t, name);
  const start = since ? t.indexOf(since) : -1;
  const rel = dir ? relative(t.meta.cwd, dir) : undefined;
  return t.tools().filter((e) => {
    if (t.indexOf(e) <= start) return false;
    if (e.tool === "read") {
      const p = e.read?.resolved ?? "";
      return dir !== undefined && (p === dir || p.startsWith(dir + "/"));
    }
    if (e.tool === "bash") {
      const cmd = bashCommand(e);
      if (dir && cmd.includes(dir)) return true;
      if (rel && cmd.includes(rel)) return true;
      if (cmd.includes(`${name}/SKILL.md`)) return true;
      return scripts.some((s) => cmd.includes(s));
    }
    return false;
  });
}

/** `name` of each skill call, for reason lines: `pr-reviewer → pr-review`. */
export function skillTrail(t: Trial): string {
  return t
    .skillCalls()
    .map((e) => `${inputName(e.input) ?? show(e.input, 40)} (${e.skill ? (e.skill.kind === "error" ? e.skill.code : e.skill.kind) : "?"})`)
    .join(" → ");
}

/** The last assistant text of a user turn (1-based). */
export function answerOf(t: Trial, turn: number): string {
  const texts = t.assistantTurns().filter((a) => a.turn === turn && a.text.trim() !== "");
  return texts[texts.length - 1]?.text ?? "";
}

export const pass = (reason: string) => ({ pass: true, reason });
export const fail = (reason: string) => ({ pass: false, reason });
