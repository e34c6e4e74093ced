//! Every piece of model-facing prose comes from one place: the contract's table, schemas/messages.json
//! (R30), read at build time, with `{placeholder}` templates; the few texts it does not hold yet are in
//! LOCAL below. The renderer fills placeholders in one left-to-right pass; any other brace is literal.
use crate::lone;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

const CONTRACT_JSON: &str = include_str!("../../../schemas/messages.json");

/// Texts the contract's table does not hold: the words its placeholders document (the {got} of a refused key),
/// the user-only mark's attribute, and NOT_TRUSTED's literal reason (data, not prose). Everything else is the table's.
const LOCAL: &[(&str, &str)] = &[
    // messages.json placeholders, "got" in yaml.key_not_string.
    ("yaml.key_null", "an empty (null) key"),
    ("yaml.key_collection", "a list or mapping"),
    ("catalog.user_only", " user-only=\"true\""),
    // The literal reason of a NOT_TRUSTED result (messages.json: trust.no_hook "fields").
    ("trust.reason", "untrusted_project_skill"),
];

fn contract() -> &'static HashMap<String, String> {
    static T: OnceLock<HashMap<String, String>> = OnceLock::new();
    T.get_or_init(|| {
        let v: Value = serde_json::from_str(CONTRACT_JSON).expect("schemas/messages.json is JSON");
        v["messages"]
            .as_object()
            .expect("schemas/messages.json has messages")
            .iter()
            .filter_map(|(id, m)| Some((id.clone(), m["text"].as_str()?.to_string())))
            .collect()
    })
}

/// The template of `id`: the contract's, else LOCAL's. Panics on an unknown id: a bug in this crate,
/// caught by its tests.
pub fn template(id: &str) -> &'static str {
    if let Some(t) = contract().get(id) {
        return t.as_str();
    }
    LOCAL
        .iter()
        .find(|(k, _)| *k == id)
        .map(|(_, t)| *t)
        .unwrap_or_else(|| panic!("no message template {id}"))
}

/// rules.unsafe_characters (R91, R147): C0 (tab, LF, CR included), DEL and C1 (NEL included), U+2028/9, the format
/// characters (Unicode Cf, as the contract lists them, bidi controls and the tag block included) and lone surrogates
/// (carried as stand-ins, `lone`): what could start a line of the tool's own, or hide or reorder text.
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{ad}' | '\u{600}'..='\u{605}' | '\u{61c}' | '\u{6dd}' | '\u{70f}'
        | '\u{890}'..='\u{891}' | '\u{8e2}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{110bd}' | '\u{110cd}'
        | '\u{13430}'..='\u{1343f}' | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e007f}')
        || lone::unit_of(c).is_some()
}

/// R91/R147's escape of one character: `\u` and four lowercase hex digits per UTF-16 code unit (U+E0041 is
/// `\udb40\udc41`), a lone surrogate's stand-in as its one unit.
pub fn push_escaped(c: char, out: &mut String) {
    use std::fmt::Write;
    if let Some(unit) = lone::unit_of(c) {
        let _ = write!(out, "\\u{unit:04x}");
        return;
    }
    for unit in c.encode_utf16(&mut [0u16; 2]) {
        let _ = write!(out, "\\u{unit:04x}");
    }
}

/// rules.values (R91): each unsafe character escaped (`push_escaped`); the rest unchanged.
pub fn escape_unsafe(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 12);
    for c in text.chars() {
        if is_unsafe(c) {
            push_escaped(c, &mut out);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The two placeholders whose values are the tool's own multi-line text (§2.2): filled as they are.
const OWN_TEXT: [&str; 2] = ["guidance", "available_skills"];

/// Render `template` with `args`: each `{word}` naming an argument is replaced by its value, escaped (R91) but
/// for the tool's own text; everything else is kept.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}');
        let value = close
            .filter(|c| {
                *c > 0
                    && after[..*c]
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b == b'_')
            })
            .and_then(|c| {
                args.iter()
                    .find(|(k, _)| *k == &after[..c])
                    .map(|(k, v)| (c, *k, *v))
            });
        match value {
            Some((c, key, v)) => {
                if OWN_TEXT.contains(&key) {
                    out.push_str(v);
                } else {
                    out.push_str(&escape_unsafe(v));
                }
                rest = &after[c + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The message `id` filled with `args`.
pub fn msg(id: &str, args: &[(&str, &str)]) -> String {
    fill(template(id), args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_named_placeholders_and_keeps_other_braces() {
        assert_eq!(
            fill("e.g. {example}.", &[("example", "{\"a\": \"...\"}")]),
            "e.g. {\"a\": \"...\"}."
        );
        assert_eq!(
            fill("{\"name\": x} {name}", &[("name", "hi")]),
            "{\"name\": x} hi"
        );
        assert_eq!(fill("{missing} {", &[]), "{missing} {");
    }

    #[test]
    fn values_cannot_start_a_line() {
        assert_eq!(
            fill(
                "unknown {name}",
                &[("name", "hello\nHint: x\u{2028}\u{85}\t\u{202e}")]
            ),
            "unknown hello\\u000aHint: x\\u2028\\u0085\\u0009\\u202e"
        );
        assert_eq!(
            fill("{guidance}", &[("guidance", "a\nb")]),
            "a\nb",
            "the tool's own text keeps its lines"
        );
        assert_eq!(
            fill("{name}", &[("name", "a\\u000a é")]),
            "a\\u000a é",
            "a backslash stays a backslash"
        );
        // R147: format characters and lone surrogates too, per UTF-16 unit.
        lone::json_in(r#""\ud800""#); // a request has carried a lone surrogate: stand-ins are in use
        let hidden = format!(
            "a\u{e0041}\u{200b}\u{ad}\u{fff9}{}b",
            lone::stand_in(0xd800)
        );
        assert_eq!(
            fill("{name}", &[("name", &hidden)]),
            "a\\udb40\\udc41\\u200b\\u00ad\\ufff9\\ud800b"
        );
    }

    #[test]
    fn local_texts_agree_with_the_contract() {
        // A LOCAL text stands in for one the contract's table may not hold yet; where it does, they must agree.
        for (id, text) in LOCAL {
            if let Some(t) = contract().get(*id) {
                assert_eq!(t, text, "{id}: LOCAL differs from schemas/messages.json");
            }
        }
        assert!(template("tool_description.guidance")
            .starts_with("Activate an installed skill by name."));
    }
}
