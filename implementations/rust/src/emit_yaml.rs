//! Re-serialises parsed frontmatter for the <frontmatter> section (§3.1, R1) by fixed rules any language
//! can reproduce: block mappings with two-space indents, block lists of scalars, a string bare when it
//! reads back unchanged and JSON-quoted otherwise, lists and maps inside lists in JSON flow style, {} and
//! [] for empty ones.
use crate::jsval::{is_js_space, js_number, json_string, stringify};
use crate::messages::{is_unsafe, push_escaped};
use crate::yaml::resolve_plain;
use serde_json::{Map, Value};

fn printable(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}')
}

/// True when `s`, written bare, reads back as exactly the string `s`.
pub fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if !s.chars().all(printable) || "-?:,[]{}#&*!|>'\"%@`+.".contains(first) || is_js_space(first) {
        return false;
    }
    if s.ends_with(' ')
        || s.ends_with(':')
        || s.contains(": ")
        || s.contains(" #")
        || s.contains('\t')
    {
        return false;
    }
    // Anything the core schema reads as a non-string (true, null, 12, 0x1F, …) must be quoted.
    matches!(resolve_plain(s), Ok(Value::String(_)))
}

/// JSON text of a string, with the characters the contract refuses raw (DEL, C1, U+FEFF, U+FFFE/F) escaped too (R17).
fn quote(s: &str) -> String {
    let json = json_string(s);
    if !json.chars().any(refused_raw) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 12);
    for c in json.chars() {
        if refused_raw(c) && (c as u32) > 0xFFFF && crate::lone::unit_of(c).is_none() {
            // R147: above U+FFFF, YAML's \U and eight hex digits: the contract reads no \u surrogate pair back (R13, R17).
            out.push_str(&format!("\\U{:08x}", c as u32));
        } else if refused_raw(c) {
            push_escaped(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// Refused raw in frontmatter (R13), or unsafe in the <frontmatter> the model reads (R91, R147).
fn refused_raw(c: char) -> bool {
    matches!(
        c,
        '\u{7f}'..='\u{9f}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
    ) || is_unsafe(c)
}

/// Number#toString, with ".0" on an integral value beyond ±(2^53−1), which can only have been a float (R17).
fn number_text(f: f64) -> String {
    let t = js_number(f);
    let integral = t
        .trim_start_matches('-')
        .bytes()
        .all(|b| b.is_ascii_digit());
    if f.abs() > 9_007_199_254_740_991.0 && integral {
        format!("{t}.0")
    } else {
        t
    }
}

/// JSON flow style for a list or mapping inside a list, with the same escapes as quoted scalars.
fn flow(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            format!("[{}]", items.iter().map(flow).collect::<Vec<_>>().join(","))
        }
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, x)| format!("{}:{}", quote(k), flow(x)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        Value::String(s) => quote(s),
        other => scalar_text(other),
    }
}

fn scalar_text(v: &Value) -> String {
    match v {
        // R1/R92: bare when it reads back unchanged and holds no unsafe character (R91); JSON-quoted otherwise.
        Value::String(s) if is_plain_safe(s) && !s.chars().any(is_unsafe) => s.clone(),
        Value::String(s) => quote(s),
        Value::Number(n) => n.as_f64().map(number_text).unwrap_or_else(|| n.to_string()),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        other => stringify(other),
    }
}

fn key_text(k: &str) -> String {
    let mut chars = k.chars();
    let safe_start = chars
        .next()
        .map_or(false, |c| c.is_ascii_alphanumeric() || c == '_');
    if safe_start
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && is_plain_safe(k)
    {
        k.to_string()
    } else {
        quote(k)
    }
}

fn emit_map(map: &Map<String, Value>, indent: &str, out: &mut Vec<String>) {
    for (k, v) in map {
        let key = format!("{indent}{}:", key_text(k));
        match v {
            Value::Object(m) if !m.is_empty() => {
                out.push(key);
                emit_map(m, &format!("{indent}  "), out);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push(key);
                for item in items {
                    let text = if item.is_object() || item.is_array() {
                        flow(item)
                    } else {
                        scalar_text(item)
                    };
                    out.push(format!("{indent}  - {text}"));
                }
            }
            Value::Object(_) => out.push(format!("{key} {{}}")),
            Value::Array(_) => out.push(format!("{key} []")),
            scalar => out.push(format!("{key} {}", scalar_text(scalar))),
        }
    }
}

pub fn emit_yaml(frontmatter: &Map<String, Value>) -> String {
    let mut out = Vec::new();
    emit_map(frontmatter, "", &mut out);
    if out.is_empty() {
        "{}\n".into()
    } else {
        format!("{}\n", out.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_are_bare_only_when_they_read_back() {
        for (s, bare) in [
            ("hello", true),
            ("true", false),
            ("12", false),
            ("a: b", false),
            ("-x", false),
            ("x:", false),
            ("ok go", true),
            ("é", true),
            ("😀", false),
            ("", false),
        ] {
            assert_eq!(is_plain_safe(s), bare, "{s}");
        }
    }

    #[test]
    fn emits_blocks_lists_and_flow() {
        let fm = json!({"name": "a", "metadata": {"owner": "x", "n": 1.5}, "allowed-tools": ["Read", "Bash(git:*)"], "e": [], "m": {}, "l": [{"k": 1}], "q": "yes: no"});
        let text = emit_yaml(fm.as_object().unwrap());
        assert_eq!(text, "name: a\nmetadata:\n  owner: x\n  n: 1.5\nallowed-tools:\n  - Read\n  - Bash(git:*)\ne: []\nm: {}\nl:\n  - {\"k\":1}\nq: \"yes: no\"\n");
    }

    #[test]
    fn invisible_characters_are_quoted_and_escaped() {
        // R147: a string holding one is quoted; above U+FFFF as \U (YAML reads it back), else \u per unit.
        let fm = json!({"a": "x\u{200b}y", "b": "t\u{e0041}"});
        assert_eq!(
            emit_yaml(fm.as_object().unwrap()),
            "a: \"x\\u200by\"\nb: \"t\\U000e0041\"\n"
        );
    }
}
