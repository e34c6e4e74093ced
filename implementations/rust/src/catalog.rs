//! The catalog the model sees (§2.2, §7 step 1, R9): the tool description followed by one escaped line per
//! installed skill, so a description cannot open a tag, start a line or hide text.
use crate::jsval::is_js_space;
use crate::limits::limits;
use crate::messages::{escape_unsafe, is_unsafe, msg};
use crate::registry::CatalogEntry;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// R9, as the reference does it: entities for & < > " ', then each run of spaces, tabs and line breaks (LF, CR,
/// U+2028, U+2029) holding a line break becomes one space, each tab left becomes a space, every other unsafe
/// character (R91) is shown as a \uXXXX escape, and spaces (U+0020 only) at both ends are removed.
pub fn escape_catalog_text(text: &str) -> String {
    if !text
        .chars()
        .any(|c| matches!(c, '&' | '<' | '>' | '"' | '\'') || is_unsafe(c))
    {
        return text.trim_matches(' ').to_string();
    }
    let entities = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;");
    let folded = fold_line_breaks(&entities).replace('\t', " ");
    escape_unsafe(&folded).trim_matches(' ').to_string()
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{2028}' | '\u{2029}')
}

/// Each run of spaces, tabs and line breaks that holds a line break becomes one space.
fn fold_line_breaks(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !(c == ' ' || c == '\t' || is_line_break(c)) {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i] == ' ' || chars[i] == '\t' || is_line_break(chars[i])) {
            i += 1;
        }
        if chars[start..i].iter().any(|c| is_line_break(*c)) {
            out.push(' ');
        } else {
            out.extend(&chars[start..i]);
        }
    }
    out
}

/// One unit of escaped text: an entity, a \uXXXX escape, or else one code point (R22 cuts only between units).
fn unit_len(s: &str) -> usize {
    for entity in ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"] {
        if s.starts_with(entity) {
            return entity.len();
        }
    }
    let escape = |b: &[u8]| {
        b.len() >= 6
            && b[0] == b'\\'
            && b[1] == b'u'
            && b[2..6]
                .iter()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
    };
    let b = s.as_bytes();
    if escape(b) {
        // R147: an escaped surrogate pair (a character above U+FFFF) is one unit.
        let high = b[2] == b'd' && matches!(b[3], b'8'..=b'9' | b'a'..=b'b');
        if high && escape(&b[6..]) && b[8] == b'd' && matches!(b[9], b'c'..=b'f') {
            return 12;
        }
        return 6;
    }
    s.chars().next().map_or(1, char::len_utf8)
}

/// End of the longest run of whole units of escaped[start..] within `max` bytes.
fn units_within(escaped: &str, start: usize, max: usize) -> usize {
    let mut end = start;
    while end < escaped.len() {
        let n = unit_len(&escaped[end..]);
        if end + n - start > max {
            break;
        }
        end += n;
    }
    end
}

/// R95: the phrase that says when to use a skill, case-insensitive (ASCII, as JavaScript's /i without u).
fn trigger() -> &'static regex::Regex {
    static T: OnceLock<regex::Regex> = OnceLock::new();
    T.get_or_init(|| {
        regex::Regex::new(r"(?i-u)\b(?:use (?:this skill |this |it )?(?:when|whenever|for|if|before|after)\b|should be used (?:when|whenever|for|if|before|at)\b|when (?:the )?users?\b|whenever\b|triggers? (?:on|when)\b)").expect("trigger pattern")
    })
}

/// The sentence holding the first trigger match: [start, end), end after its closing '.', '!' or '?' (one followed
/// by JavaScript whitespace or the end of the text).
fn trigger_sentence(escaped: &str) -> Option<(usize, usize)> {
    let m = trigger().find(escaped)?;
    let (mut start, mut end) = (0, escaped.len());
    for (i, c) in escaped.char_indices() {
        if !matches!(c, '.' | '!' | '?')
            || !escaped[i + 1..].chars().next().map_or(true, is_js_space)
        {
            continue;
        }
        if i < m.start() {
            start = i + 1;
        } else if i >= m.end() {
            end = i + 1;
            break;
        }
    }
    while start < m.start() && escaped.as_bytes()[start] == b' ' {
        start += 1;
    }
    Some((start, end))
}

/// R22, R95: the escaped description cut to catalog_entry_description_max_bytes of whole units, then "…", so a
/// catalog line stays within the token budget; when that cut would lose the sentence saying when to use the skill
/// (it starts after the first character and ends past the cut), the sentence is kept. R161: when the whole head and
/// catalog_trigger_sentence_max_bytes of the sentence fit, that is the plain cut (the sentence gets the room the head
/// leaves); only a head that must be cut is shown cut, then "… " and the sentence (cut to
/// catalog_trigger_sentence_max_bytes), then "…" if text follows. The entry keeps the full description.
pub fn shown_description(escaped: &str) -> String {
    let lim = limits();
    let max = lim.catalog_entry_description_max_bytes;
    if escaped.len() <= max {
        return escaped.to_string();
    }
    let plain_end = units_within(escaped, 0, max);
    let cut = |head: &str| msg("format.catalog_cut", &[("head", head)]);
    let Some((start, end)) = trigger_sentence(escaped).filter(|(s, e)| *s > 0 && *e > plain_end)
    else {
        return cut(&escaped[..plain_end]);
    };
    let sentence_end = end.min(units_within(
        escaped,
        start,
        lim.catalog_trigger_sentence_max_bytes,
    ));
    let sentence = &escaped[start..sentence_end];
    // The whole head and the sentence's share fit: the plain cut shows them, and as much more of the sentence as fits.
    if start + sentence.len() <= max {
        return cut(&escaped[..plain_end]);
    }
    let room = max.saturating_sub(
        sentence.len()
            + msg(
                "format.catalog_cut_trigger",
                &[("head", ""), ("trigger", "")],
            )
            .len(),
    );
    let head = escaped[..units_within(escaped, 0, room.min(start))].trim_end_matches(' ');
    if head == escaped[..start].trim_end_matches(' ') {
        // Only spaces before the sentence are left out: no cut mark there; one space, and the sentence gets the rest.
        let end = end.min(units_within(escaped, start, max - head.len() - 1));
        let joined = format!("{head} {}", &escaped[start..end]);
        return if end < escaped.len() {
            cut(&joined)
        } else {
            joined
        };
    }
    let shown = msg(
        "format.catalog_cut_trigger",
        &[("head", head), ("trigger", sentence)],
    );
    if sentence_end < escaped.len() {
        cut(&shown)
    } else {
        shown
    }
}

pub fn catalog_line(e: &CatalogEntry) -> String {
    let user_only =
        if e.entry.frontmatter.get("disable-model-invocation") == Some(&Value::Bool(true)) {
            msg("catalog.user_only", &[])
        } else {
            String::new()
        };
    format!(
        "<skill name=\"{}\"{}>{}</skill>",
        escape_catalog_text(&e.entry.name),
        user_only,
        shown_description(&escape_catalog_text(&e.entry.description))
    )
}

pub fn tool_description(entries: &[CatalogEntry]) -> String {
    let lines: Vec<String> = entries.iter().map(catalog_line).collect();
    let list = if lines.is_empty() {
        "<available_skills>\n</available_skills>".to_string()
    } else {
        format!(
            "<available_skills>\n{}\n</available_skills>",
            lines.join("\n")
        )
    };
    msg(
        "tool_description.layout",
        &[
            ("guidance", msg("tool_description.guidance", &[]).as_str()),
            ("available_skills", &list),
        ],
    )
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
        assert_eq!(
            esc("a</skill>\n\n  <skill name=\"x\">"),
            "a&lt;/skill&gt; &lt;skill name=&quot;x&quot;&gt;"
        );
        assert_eq!(
            esc("tab\there\u{1b}[31m\u{202e}"),
            "tab here\\u001b[31m\\u202e"
        );
    }

    #[test]
    fn a_head_that_fits_whole_is_not_marked_cut_and_the_sentence_gets_its_room() {
        // R161: the plain cut, one "…" at the end, more than 192 bytes of the trigger sentence.
        let head = "Reviews Django code for performance problems. ";
        let text = format!(
            "{head}Use when {}and more.",
            "the user asks about slow views, N+1 queries, missing indexes and caching, ".repeat(4)
        );
        let shown = super::shown_description(&text);
        assert_eq!(shown, format!("{}…", &text[..292]));
        assert_eq!(shown.matches('…').count(), 1);
    }
}
