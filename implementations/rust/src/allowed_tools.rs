//! allowed-tools normalised to a list (§4.5 rule 4, frontmatter-fields.md §4.2, R3): the string form is
//! split on top-level commas when there are any, else on top-level whitespace, never inside parentheses.
use crate::jsval::{is_js_space, js_trim};
use crate::messages::msg;
use serde_json::Value;

pub fn split(text: &str) -> Vec<String> {
    let mut depth = 0usize;
    let mut top_comma = false;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => top_comma = true,
            _ => {}
        }
    }
    let mut parts = Vec::new();
    let mut current = String::new();
    depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let sep = depth == 0 && if top_comma { c == ',' } else { is_js_space(c) };
        if sep {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    parts.push(current);
    parts
        .iter()
        .map(|p| js_trim(p))
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect()
}

/// The normalised list, or the reason the value has the wrong type.
pub fn normalize(value: &Value) -> Result<Vec<String>, String> {
    match value {
        Value::String(s) => Ok(split(s)),
        Value::Array(items) => {
            let mut tools = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let s = item
                    .as_str()
                    .ok_or_else(|| msg("fm.allowed_tools_item", &[("index", &i.to_string())]))?;
                let t = js_trim(s);
                if !t.is_empty() {
                    tools.push(t.to_string());
                }
            }
            Ok(tools)
        }
        _ => Err(msg("fm.allowed_tools_type", &[])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_win_over_spaces_and_parentheses_protect() {
        assert_eq!(
            split("Read, Grep, Bash(git log:*)"),
            ["Read", "Grep", "Bash(git log:*)"]
        );
        assert_eq!(
            split("Read Grep  Bash(git log:*)"),
            ["Read", "Grep", "Bash(git log:*)"]
        );
        assert_eq!(split(" , Read,,"), ["Read"]);
    }
}
