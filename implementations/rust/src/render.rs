//! The text the model sees (§3.1–§3.3, R1): the <skill> block byte for byte, and the one-line notes of
//! already_loaded and not_found.
use crate::emit_yaml::emit_yaml;
use crate::messages::{escape_unsafe, msg};
use crate::resources::Listing;
use serde_json::{Map, Value};

/// An attribute's value (R1): &, <, >, " as entities, then every unsafe character as \uXXXX (R91), so it cannot end
/// the attribute or start a line.
pub fn escape_xml(text: &str) -> String {
    escape_unsafe(
        &text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;"),
    )
    .into_owned()
}

fn section(tag: &str, content: &str) -> String {
    let newline = if content.ends_with('\n') { "" } else { "\n" };
    format!("<{tag}>\n{content}{newline}</{tag}>\n")
}

pub fn render_skill(
    name: &str,
    dir: &str,
    frontmatter: &Map<String, Value>,
    body: &str,
    listing: &Listing,
    bytes: usize,
) -> String {
    let mut out = format!(
        "<skill name=\"{}\" dir=\"{}\">\n",
        escape_xml(name),
        escape_xml(dir)
    );
    out += &section("frontmatter", &emit_yaml(frontmatter));
    out += &section("instructions", body);
    if !listing.groups.is_empty() {
        let mut lines: Vec<String> = Vec::new();
        for g in &listing.groups {
            // A resource's name is a file name from the skill's tree: one line each, its unsafe characters escaped (R91).
            lines.extend(g.names.iter().map(|n| escape_unsafe(n).into_owned()));
        }
        // One marker after the last listed name, counting every file not listed (R31; §13.1 case 23).
        let omitted: usize = listing.groups.iter().map(|g| g.omitted).sum();
        if omitted > 0 {
            lines.push(msg(
                "output.resources_more",
                &[("count", &omitted.to_string())],
            ));
        }
        out += &section("resources", &lines.join("\n"));
    }
    out += "</skill>\n";
    out += &msg(
        "output.ok_note",
        &[("name", name), ("bytes", &bytes.to_string()), ("dir", dir)],
    );
    out
}

pub fn render_already_loaded(name: &str, turn: u64) -> String {
    msg(
        "output.already_loaded",
        &[("name", name), ("turn", &turn.to_string())],
    )
}

pub fn render_not_found(name: &str, siblings: &[String]) -> String {
    if siblings.is_empty() {
        msg("output.not_found_no_siblings", &[("name", name)])
    } else {
        msg(
            "output.not_found",
            &[("name", name), ("siblings", &siblings.join(", "))],
        )
    }
}
