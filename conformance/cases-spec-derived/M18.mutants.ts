// M18's mutant: discovery that descends one level further than §5.2's immediate subdirectories.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { SessionConfig } from "../../schemas/index.ts";
import { isDir, type MutantRow } from "../mutants/wrap.ts";

function subdirs(root: string): string[] {
  try {
    return readdirSync(root).map((n) => join(root, n)).filter(isDir);
  } catch {
    return [];
  }
}

function deeper(c: SessionConfig): SessionConfig {
  const extra = c.skill_roots.flatMap(subdirs);
  return { ...c, skill_roots: [...c.skill_roots, ...extra], skill_trust: { ...c.skill_trust, trusted_roots: [...(c.skill_trust?.trusted_roots ?? []), ...extra] } };
}

const mutants: MutantRow[] = [
  {
    kills: "M18", rule: "discovery.immediate-subdirs", id: "discovers-two-levels",
    description: "Every subdirectory of a root is scanned as a root too, so a SKILL.md two levels down is a skill.",
    mutation: { config: deeper },
  },
];

export default mutants;
