// The text the model sees (§3.1–§3.3, R1): the <skill> block byte for byte, and the one-line notes
// of already_loaded and not_found. The wording of every line is schemas/messages.json's (R30).
import { escapeUnsafe, message } from "../schemas/messages.ts";
import type { SkillFrontmatter } from "../schemas/index.ts";
import { emitYaml } from "./emit-yaml.ts";
import type { ResourceListing } from "./resources.ts";

const XML_SPECIAL = /[&<>"]/;

/** An attribute's value (R1): &, <, >, " as entities, then every unsafe character as \uXXXX (R91), so it cannot end the attribute or start a line. */
export function escapeXml(text: string): string {
  if (!XML_SPECIAL.test(text)) return escapeUnsafe(text); // the common case: one scan instead of four
  return escapeUnsafe(text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"));
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
    // A resource's name is a file name from the skill's tree: one line each, its unsafe characters escaped (R91).
    for (const g of skill.listing.groups) for (const n of g.names) lines.push(escapeUnsafe(n));
    // One marker after the last listed name, counting every file not listed (R31; §13.1 case 23).
    const omitted = skill.listing.groups.reduce((n, g) => n + g.omitted, 0);
    if (omitted > 0) lines.push(message("output.resources_more", { count: omitted }));
    out += section("resources", lines.join("\n"));
  }
  out += "</skill>\n";
  out += message("output.ok_note", { name: skill.name, bytes: skill.bytes, dir: skill.dir });
  return out;
}

export function renderAlreadyLoaded(name: string, turn: number): string {
  return message("output.already_loaded", { name, turn });
}

export function renderNotFound(name: string, siblings: readonly string[]): string {
  return siblings.length > 0
    ? message("output.not_found", { name, siblings: siblings.join(", ") })
    : message("output.not_found_no_siblings", { name });
}
