// The text the model sees (§3.1–§3.3, R1): the <skill> block byte for byte, and the one-line notes
// of already_loaded and not_found.
import type { SkillFrontmatter } from "../schemas/index.ts";
import { emitYaml } from "./emit-yaml.ts";
import type { ResourceListing } from "./resources.ts";

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function section(tag: string, content: string): string {
  return `<${tag}>\n${content}${content.endsWith("\n") ? "" : "\n"}</${tag}>\n`;
}

export function renderSkill(skill: {
  name: string;
  dir: string;
  frontmatter: SkillFrontmatter;
  body: string;
  listing: ResourceListing;
  bytes: number;
}): string {
  let out = `<skill name="${escapeXml(skill.name)}" dir="${escapeXml(skill.dir)}">\n`;
  out += section("frontmatter", emitYaml(skill.frontmatter));
  out += section("instructions", skill.body);
  if (skill.listing.groups.length > 0) {
    const lines: string[] = [];
    for (const g of skill.listing.groups) {
      lines.push(...g.names);
      if (g.omitted > 0) lines.push(`(... ${g.omitted} more)`);
    }
    out += section("resources", lines.join("\n"));
  }
  out += "</skill>\n";
  out +=
    `(Skill "${skill.name}" activated. Body is ${skill.bytes} bytes. ` +
    `Scripts available via bash(${skill.dir}/scripts/<name>). References via read(${skill.dir}/references/<name>).)`;
  return out;
}

export function renderAlreadyLoaded(name: string, turn: number): string {
  return `(Skill "${name}" is already active in this session. Body was loaded at turn ${turn}. No new content was added.)`;
}

export function renderNotFound(name: string, siblings: readonly string[]): string {
  const hint = siblings.length > 0 ? ` Did you mean: ${siblings.join(", ")}?` : "";
  return `(No skill matches "${name}".${hint} Run with a listed name from the catalog.)`;
}
