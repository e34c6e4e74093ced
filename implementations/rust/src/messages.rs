//! Every piece of model-facing prose comes from one place: the contract's table, schemas/messages.json
//! (R30), read at build time, with `{placeholder}` templates; the few texts it does not hold yet are in
//! LOCAL below. The renderer fills placeholders in one left-to-right pass; any other brace is literal.
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
    fn local_texts_agree_with_the_contract() {
        // A LOCAL text stands in for one the contract's table may not hold yet; where it does, they must agree.
        for (id, text) in LOCAL {
            if let Some(t) = contract().get(*id) {
                assert_eq!(t, text, "{id}: LOCAL differs from schemas/messages.json");
            }
        }
        assert!(template("tool_description.guidance").starts_with("Activate an installed skill by name."));
    }
}
