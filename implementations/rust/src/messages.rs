//! Every piece of model-facing prose comes from one place: the contract's table, schemas/messages.json
//! (R30), read at build time, with `{placeholder}` templates; the few texts it does not hold yet are in
//! LOCAL below. The renderer fills placeholders in one left-to-right pass; any other brace is literal.
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

const CONTRACT_JSON: &str = include_str!("../../../schemas/messages.json");

/// Texts the contract's table does not hold: the reference parser's words for the YAML failures this crate
/// detects itself, and catalog marks.
const LOCAL: &[(&str, &str)] = &[
    // YAML failures this crate detects itself, worded as the reference's parser words them.
    ("yaml.aliases", "Excessive alias count indicates a resource exhaustion attack"),
    ("yaml.too_deep", "Maximum call stack size exceeded"),
    ("yaml.duplicate_key", "Map keys must be unique"),
    ("yaml.unclosed_quote", "Missing closing {quote}quote"),
    ("yaml.complex_key", "Nested mappings or sequences as keys are not supported"),
    ("yaml.multiple_documents", "Source contains multiple documents; please use YAML.parseAllDocuments()"),
    ("yaml.tab_indent", "Tabs are not allowed as indentation"),
    ("yaml.compact_mapping", "Nested mappings are not allowed in compact mappings"),
    ("yaml.flow_sequence", "Flow sequence in block collection must be sufficiently indented and end with a ]"),
    ("yaml.flow_map", "Flow map in block collection must be sufficiently indented and end with a }"),
    ("yaml.reserved", "Plain value cannot start with reserved character {char}"),
    // Catalog mark and the literal reason of a NOT_TRUSTED result.
    ("catalog.user_only", " user-only=\"true\""),
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
    LOCAL.iter().find(|(k, _)| *k == id).map(|(_, t)| *t).unwrap_or_else(|| panic!("no message template {id}"))
}

/// Render `template` with `args`: each `{word}` naming an argument is replaced, everything else is kept.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}');
        let value = close
            .filter(|c| *c > 0 && after[..*c].bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
            .and_then(|c| args.iter().find(|(k, _)| *k == &after[..c]).map(|(_, v)| (c, *v)));
        match value {
            Some((c, v)) => {
                out.push_str(v);
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
        assert_eq!(fill("e.g. {example}.", &[("example", "{\"a\": \"...\"}")]), "e.g. {\"a\": \"...\"}.");
        assert_eq!(fill("{\"name\": x} {name}", &[("name", "hi")]), "{\"name\": x} hi");
        assert_eq!(fill("{missing} {", &[]), "{missing} {");
    }

    #[test]
    fn local_texts_do_not_shadow_the_contract() {
        for (id, _) in LOCAL {
            assert!(!contract().contains_key(*id), "{id} is in schemas/messages.json now: drop it from LOCAL");
        }
        assert!(template("tool_description.guidance").starts_with("Activate an installed skill by name."));
    }
}
