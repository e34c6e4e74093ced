//! The catalog the model sees (§2.2, §7 step 1, R9): the tool description followed by one escaped line per
//! installed skill, so a description cannot open a tag, start a line or hide text.
use crate::jsval::{is_js_space, js_trim};
use crate::limits::limits;
use crate::messages::msg;
use crate::registry::CatalogEntry;
use serde_json::{json, Value};

fn needs_escape(c: char) -> bool {
    matches!(c, '&' | '<' | '>' | '"' | '\'' | '\t' | '\r' | '\n' | '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{2028}' | '\u{2029}')
}

fn shown_as_escape(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Fold every run of whitespace that holds a line break into one space.
fn fold_lines(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if is_js_space(chars[i]) {
            let start = i;
            while i < chars.len() && is_js_space(chars[i]) {
                i += 1;
            }
            if chars[start..i].iter().any(|c| is_line_break(*c)) {
                out.push(' ');
            } else {
                out.extend(&chars[start..i]);
            }
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

pub fn escape_catalog_text(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return js_trim(text).to_string();
    }
    let entities = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;");
    let folded = fold_lines(&entities).replace('\t', " ");
    let mut out = String::with_capacity(folded.len());
    for c in folded.chars() {
        if shown_as_escape(c) {
            out += &format!("\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    js_trim(&out).to_string()
}

/// One unit of escaped text: an entity, a \uXXXX escape, or else one code point (R22 cuts only between units).
fn unit_len(s: &str) -> usize {
    for entity in ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"] {
        if s.starts_with(entity) {
            return entity.len();
        }
    }
    let b = s.as_bytes();
    if b.len() >= 6 && b[0] == b'\\' && b[1] == b'u' && b[2..6].iter().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c)) {
        return 6;
    }
    s.chars().next().map_or(1, char::len_utf8)
}

/// R22: the escaped description cut to catalog_entry_description_max_bytes of whole units, then "…", so a
/// catalog line stays within the token budget. The entry and the activation keep the full description.
pub fn shown_description(escaped: &str) -> String {
    let max = limits().catalog_entry_description_max_bytes;
    if escaped.len() <= max {
        return escaped.to_string();
    }
    let mut end = 0;
    while end < escaped.len() {
        let n = unit_len(&escaped[end..]);
        if end + n > max {
            break;
        }
        end += n;
    }
    msg("format.catalog_cut", &[("head", &escaped[..end])])
}

pub fn catalog_line(e: &CatalogEntry) -> String {
    let user_only = if e.entry.frontmatter.get("disable-model-invocation") == Some(&Value::Bool(true)) { msg("catalog.user_only", &[]) } else { String::new() };
    format!("<skill name=\"{}\"{}>{}</skill>", escape_catalog_text(&e.entry.name), user_only, shown_description(&escape_catalog_text(&e.entry.description)))
}

pub fn tool_description(entries: &[CatalogEntry]) -> String {
    let lines: Vec<String> = entries.iter().map(catalog_line).collect();
    let list = if lines.is_empty() { "<available_skills>\n</available_skills>".to_string() } else { format!("<available_skills>\n{}\n</available_skills>", lines.join("\n")) };
    msg("tool_description.layout", &[("guidance", msg("tool_description.guidance", &[]).as_str()), ("available_skills", &list)])
}

/// The catalog as JSON text, `{tool_description, entries, warnings}`, written one entry at a time: the
/// JSON value of only one entry exists at once, not a second tree of every frontmatter.
fn text(value: &Value) -> String {
    serde_json::to_string(value).expect("JSON serialises")
}

pub fn catalog_json(entries: &[CatalogEntry], warnings: &[String]) -> String {
    let mut out = String::with_capacity(entries.len() * 1024 + 4096);
    out.push_str(r#"{"tool_description":"#);
    out.push_str(&text(&Value::String(tool_description(entries))));
    out.push_str(r#","entries":["#);
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&e.json_text());
    }
    out.push_str(r#"],"warnings":"#);
    out.push_str(&text(&json!(warnings)));
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::escape_catalog_text as esc;

    #[test]
    fn descriptions_cannot_inject_markup_or_lines() {
        assert_eq!(esc("  plain  "), "plain");
        assert_eq!(esc("a</skill>\n\n  <skill name=\"x\">"), "a&lt;/skill&gt; &lt;skill name=&quot;x&quot;&gt;");
        assert_eq!(esc("tab\there\u{1b}[31m\u{202e}"), "tab here\\u001b[31m\\u202e");
    }
}
