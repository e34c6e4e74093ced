// Discovery and the fence from the spec alone (§5.1–§5.3, §8): immediate subdirectories of the configured roots
// only, SKILL.md or skip, broken skills logged and kept out of the catalog, lower-index roots shadow, every skill
// dir resolved inside a root; resources listed by name, never read. Part of the spec-alone implementation.
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { parseSkillMd } from "./skill-md.ts";

export interface Skill {
  name: string;
  dir: string;
  root_index: number;
  frontmatter: Record<string, unknown>;
  shadowed: string[];
}

export interface Broken {
  name: string;
  dir: string;
  code: string;
  reason: string;
}

const real = (p: string): string | undefined => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

/** §5.3: a path resolved inside one of the roots (as resolved). */
export function inside(path: string, roots: readonly string[]): boolean {
  const r = real(path);
  if (r === undefined) return false;
  return roots.some((root) => {
    const rr = real(root);
    if (rr === undefined) return false;
    const rel = relative(rr, r);
    return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep) && !rel.includes(`..${sep}`);
  });
}

/** Choice S3: the text of a SKILL.md is UTF-8; bytes that are not are refused, never decoded lossily. */
export function readText(path: string): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** Read and check one skill (§4.5): a loaded skill or why it is broken. */
export function readSkill(
  name: string,
  dir: string,
  roots: readonly string[],
): { frontmatter: Record<string, unknown>; body: string } | Broken {
  const file = join(dir, "SKILL.md");
  if (!inside(dir, roots) || !inside(file, roots))
    return { name, dir, code: "OUTSIDE_WORKSPACE", reason: "the skill resolves outside every configured root" };
  const text = readText(file);
  if (text === undefined) return { name, dir, code: "INVALID_FRONTMATTER", reason: "SKILL.md is not UTF-8 text" };
  const parsed = parseSkillMd(text);
  if (!parsed.ok) return { name, dir, code: parsed.code, reason: parsed.reason };
  if (parsed.frontmatter.name !== name)
    return {
      name,
      dir,
      code: "NAME_MISMATCH",
      reason: `frontmatter name "${String(parsed.frontmatter.name)}" is not the directory's name "${name}"`,
    };
  return parsed;
}

export function discover(roots: readonly string[]): {
  skills: Skill[];
  broken: Map<string, Broken>;
  warnings: string[];
} {
  const byName = new Map<string, Skill>();
  const broken = new Map<string, Broken>();
  const warnings: string[] = [];
  roots.forEach((root, root_index) => {
    let names: string[] = [];
    try {
      names = readdirSync(root);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const dir = join(root, name);
      try {
        if (!statSync(dir).isDirectory() || !statSync(join(dir, "SKILL.md")).isFile()) continue;
      } catch {
        continue; // §5.2 step 2: no SKILL.md, not a skill
      }
      const got = readSkill(name, dir, roots);
      const seen = byName.get(name);
      if ("code" in got) {
        // §5.2 step 3: logged, omitted; the error comes back when the model asks for it by name.
        if (!seen && !broken.has(name)) broken.set(name, got);
        warnings.push(`skipped skill ${JSON.stringify(name)} at ${dir}: ${got.code}: ${got.reason}`);
        continue;
      }
      if (seen) {
        seen.shadowed.push(dir); // §5.1: the lower index wins, silently
        continue;
      }
      if (broken.has(name)) continue;
      byName.set(name, { name, dir, root_index, frontmatter: got.frontmatter, shadowed: [] });
    }
  });
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, broken, warnings };
}

/** §8: up to 10 file names, folder after folder, recursively; choice S4: sorted by code unit, hidden files included. */
export function listResources(dir: string, roots: readonly string[]): { resources: string[]; more: number } {
  const all: string[] = [];
  const walk = (abs: string, rel: string, depth: number): void => {
    if (depth > 8 || !inside(abs, roots)) return;
    let entries: string[] = [];
    try {
      entries = readdirSync(abs).sort();
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(abs, e);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p, `${rel}/${e}`, depth + 1);
      else if (st.isFile() && inside(p, roots)) all.push(`${rel}/${e}`);
    }
  };
  for (const folder of ["scripts", "references", "assets"]) walk(join(dir, folder), folder, 0);
  return { resources: all.slice(0, 10), more: Math.max(0, all.length - 10) };
}
