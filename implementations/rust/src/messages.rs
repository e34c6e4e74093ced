//! Every piece of model-facing prose comes from one place: the contract's table, schemas/messages.json
//! (R30), read at build time, with `{placeholder}` templates; the few texts it does not hold yet are in
//! LOCAL below. The renderer fills placeholders in one left-to-right pass; any other brace is literal.
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

const CONTRACT_JSON: &str = include_str!("../../../schemas/messages.json");

/// Texts the contract's table does not hold (yet): the frontmatter contract's refusals and leniency
/// warnings (R12–R22), the reference parser's words for common YAML syntax errors, and catalog marks.
const LOCAL: &[(&str, &str)] = &[
    // YAML refusals of the frontmatter contract (R12–R16), and the reference parser's words for common syntax errors.
    ("yaml.forbidden_char", "frontmatter contains the character {char}; only printable text, tabs and line feeds are allowed"),
    ("yaml.lone_cr", "frontmatter contains a carriage return not followed by a line feed; only printable text, tabs and line feeds are allowed"),
    ("yaml.directive", "YAML directives (%YAML, %TAG) are not allowed in frontmatter: it is always YAML 1.2, core schema"),
    ("yaml.second_document", "frontmatter holds more than one YAML document (a '--- ' or '...' line inside it); quote the text or remove the marker"),
    ("yaml.tag", "a YAML tag ({tag}) is not allowed: frontmatter values are JSON data; quote the value if it is text"),
    ("yaml.key_not_string", "mapping keys must be strings; got {got} (quote it)"),
    ("yaml.key_null", "an empty (null) key"),
    ("yaml.key_collection", "a list or mapping"),
    ("yaml.key_too_long", "a mapping key is {length} characters long; the limit is {max}"),
    ("yaml.duplicate_key", "duplicate key '{key}'"),
    ("yaml.too_deep", "frontmatter nests deeper than {max} levels of lists and mappings"),
    ("yaml.too_deep_expanded", "frontmatter nests deeper than {max} levels of lists and mappings (aliases expanded)"),
    ("yaml.too_many_aliases", "frontmatter expands more than {max} YAML aliases (counting aliases inside expanded ones)"),
    ("yaml.too_many_values", "frontmatter holds more than {max} values (aliases expanded)"),
    ("yaml.strings_too_large", "frontmatter strings exceed {max} bytes once aliases are expanded"),
    ("yaml.unknown_alias", "alias *{anchor} refers to no earlier anchor &{anchor}"),
    ("yaml.surrogate_escape", "a \\u escape in the surrogate range (D800–DFFF) is not a character; write the character itself or use \\U with 8 digits"),
    ("yaml.unsafe_integer", "the integer {number} is outside ±9007199254740991 and would change (quote it to keep it as text)"),
    ("yaml.not_finite", "{number} is not a JSON number (quote it to keep it as text)"),
    ("yaml.unclosed_quote", "Missing closing {quote}quote"),
    ("yaml.tab_indent", "Tabs are not allowed as indentation"),
    ("yaml.compact_mapping", "Nested mappings are not allowed in compact mappings"),
    ("yaml.flow_sequence", "Flow sequence in block collection must be sufficiently indented and end with a ]"),
    ("yaml.flow_map", "Flow map in block collection must be sufficiently indented and end with a }"),
    ("yaml.reserved", "Plain value cannot start with reserved character {char}"),
    // A '%' line inside an open document: yaml-rust's scanner reads a directive, the reference's parser a plain value.
    ("yaml.directive_in_document", "Plain value cannot start with directive indicator character %"),
    // Fields accepted leniently (R19, R20): catalog warnings.
    ("fm.blank_ignored", "field '{field}' is empty{at}; ignored"),
    ("fm.disable_model_invocation_empty", "field 'disable-model-invocation' is empty; write true or false"),
    ("fm.kept_not_string", "field '{field}' should be a string; got {got}{at}; kept as written"),
    ("fm.kept_list", "field '{field}' should be a string; got {got}{at} (YAML reads [..] as a list; quote it: {field}: \"[...]\"); kept as written"),
    ("format.at_line", " (line {line})"),
    ("fm.argument_hint_as_text", "field 'argument-hint' is not valid YAML as written (line {line}); read as the text {text} (quote it)"),
    ("warning.skill_lenient", "skill {dir}: {leniency}"),
    ("catalog.user_only", " user-only=\"true\""),
    ("format.catalog_cut", "{head}…"),
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
