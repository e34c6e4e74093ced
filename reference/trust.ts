// Trust gating (§5.5, D5): which skills count as trusted, and what the gate does without a hook.
import type { SessionConfig } from "../schemas/index.ts";
import { isInside } from "./fence.ts";

export type TrustPolicy = "hook_required" | "warn" | "allow";

export function trustPolicy(config: SessionConfig): TrustPolicy {
  return config.skill_trust?.untrusted_project_skills ?? "hook_required";
}

/** Trusted iff the skill's real dir lies in a trusted root (real paths; an absent list trusts nothing). */
export function isTrusted(realDir: string, realTrustedRoots: readonly string[]): boolean {
  return isInside(realDir, realTrustedRoots);
}

/** The gate with no hook configured: null to go on, else why not. */
export function gateWithoutHook(trusted: boolean, config: SessionConfig): "refuse" | "warn" | null {
  if (trusted || config.permission?.unsafeAllowSkillWithoutHook === true) return null;
  const policy = trustPolicy(config);
  return policy === "hook_required" ? "refuse" : policy === "warn" ? "warn" : null;
}
