// The reference implementation's public face: what an in-process driver loads (createSession,
// implementationInfo) and the pieces a TS harness may reuse. Nothing else is public.
import { KIT_VERSION, SPEC_VERSION } from "../schemas/index.ts";
import type { InitializeResult, SessionConfig } from "../schemas/index.ts";
import type { SessionHandle, SessionOptions } from "../schemas/implementation.ts";
import { SkillSession } from "./session.ts";

export const implementationInfo: InitializeResult = {
  implementation: { name: "skill-tool-reference", version: KIT_VERSION, language: "typescript" },
  specVersion: SPEC_VERSION,
  capabilities: { symlinks: true, file_modes: true, user_invocation: true, permission_hook: true },
};

export function createSession(config: SessionConfig, options: SessionOptions = {}): SessionHandle {
  return new SkillSession(config, options);
}

export { SkillSession } from "./session.ts";
export { FilesystemSkillRegistry, type SkillRegistry, type SkillEntry, type LoadedSkill } from "./registry.ts";
export { parseSkillMd } from "./frontmatter.ts";
export { catalogSize, toolDescription, TOOL_GUIDANCE } from "./catalog.ts";
