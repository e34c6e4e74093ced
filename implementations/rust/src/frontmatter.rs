//! SKILL.md parsing (§4.5, frontmatter-fields.md, R2): split the `---` fenced YAML from the body, parse it
//! (yaml.rs), validate every known field, normalise allowed-tools. Pure: text in, a parsed skill or a
//! located failure out.
use crate::allowed_tools;
use crate::jsval::{clip, js_trim, json_string, stringify, utf16_len};
use crate::limits::limits;
use crate::messages::msg;
use crate::yaml;
use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FailureKind {
    /// The YAML itself is malformed.
    Yaml,
    /// A field breaks its rule.
    Field,
    /// The `---` lines are missing.
    Fence,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ParseFailure {
    /// INVALID_FRONTMATTER or NAME_MISMATCH.
    pub code: &'static str,
    pub kind: FailureKind,
    pub reason: String,
    /// 1-based line in SKILL.md.
    pub line: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ParsedSkill {
    pub frontmatter: Map<String, Value>,
    pub body: String,
    /// What was accepted leniently (R19, R20): shown as catalog warnings at discovery.
    pub warnings: Vec<String>,
}

/// The optional fields of §4.2–§4.3, in the order their blank form is reported (R20).
const OPTIONAL_FIELDS: [&str; 9] = [
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "version",
    "argument-hint",
    "disable-model-invocation",
    "user-invocable",
    "arguments",
];

fn fail(kind: FailureKind, reason: String, line: Option<u64>) -> ParseFailure {
    ParseFailure {
        code: "INVALID_FRONTMATTER",
        kind,
        reason,
        line,
    }
}

fn is_fence(line: &str) -> bool {
    line.strip_prefix("---")
        .map_or(false, |rest| rest.bytes().all(|b| b == b' '))
}

/// Split SKILL.md text into (YAML text, body), after dropping a BOM and reading CRLF as LF (R2).
pub fn split(raw: &str) -> Result<(String, String), ParseFailure> {
    let unbommed = raw.strip_prefix('\u{feff}').unwrap_or(raw);
    let text = if unbommed.contains('\r') {
        unbommed.replace("\r\n", "\n")
    } else {
        unbommed.to_string()
    };
    let first_end = text.find('\n');
    let first_line = &text[..first_end.unwrap_or(text.len())];
    if !is_fence(first_line) {
        return Err(fail(
            FailureKind::Fence,
            msg("fm.no_frontmatter", &[]),
            Some(1),
        ));
    }
    let not_closed = || fail(FailureKind::Fence, msg("fm.not_closed", &[]), Some(1));
    let yaml_start = first_end.ok_or_else(not_closed)? + 1;
    let mut pos = yaml_start;
    loop {
        let end = text[pos..].find('\n').map(|i| pos + i);
        if is_fence(&text[pos..end.unwrap_or(text.len())]) {
            let body_start = end.map_or(text.len(), |e| e + 1);
            return Ok((
                text[yaml_start..pos].to_string(),
                text[body_start..].to_string(),
            ));
        }
        match end {
            Some(e) => pos = e + 1,
            None => return Err(not_closed()),
        }
    }
}

/// R19: when the first YAML error is on a top-level `argument-hint: <value>` line whose value is not quoted
/// (`[pr-number] [priority]`, `[--flag] <file>`), that line rewritten as the JSON string of the value.
/// Returns (the new YAML text, the 1-based line, the value).
fn hint_as_text(yaml_text: &str, error_line: Option<usize>) -> Option<(String, usize, String)> {
    let line = error_line?;
    let mut lines: Vec<&str> = yaml_text.split('\n').collect();
    let rest = lines
        .get(line.checked_sub(1)?)?
        .strip_prefix("argument-hint:")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let value = rest.trim_matches([' ', '\t']);
    if value.is_empty() || value.starts_with(['"', '\'']) || yaml::forbidden_char(value).is_some() {
        return None;
    }
    let rewritten = format!("argument-hint: {}", json_string(value));
    lines[line - 1] = &rewritten;
    Some((lines.join("\n"), line, value.to_string()))
}

/// How the reference describes a value of the wrong type ("a list", "string \"x\"", …).
fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
        Value::String(_) => format!("string {}", clip(&stringify(v), 40)),
        Value::Number(_) => format!("number {}", clip(&stringify(v), 40)),
        Value::Bool(_) => format!("boolean {}", stringify(v)),
    }
}

pub fn parse_skill_md(text: &str, dir_name: &str) -> Result<ParsedSkill, ParseFailure> {
    let (yaml_text, body) = split(text)?;
    let mut leniency = Vec::new();
    let doc = match yaml::parse_text_fields(&yaml_text) {
        Ok(doc) => Ok(doc),
        Err(first) => match hint_as_text(&yaml_text, first.line) {
            // R19: an unquoted, non-YAML argument-hint line is read as its text, and the whole read again.
            Some((text, line, value)) => yaml::parse_text_fields(&text)
                .map(|doc| {
                    let at = (line + 1).to_string();
                    leniency.push(msg(
                        "fm.argument_hint_as_text",
                        &[("line", &at), ("text", &json_string(&value))],
                    ));
                    doc
                })
                .map_err(|_| first),
            None => Err(first),
        },
    }
    .map_err(|e| {
        fail(
            FailureKind::Yaml,
            clip(&e.reason, 200),
            e.line.map(|l| l as u64 + 1),
        )
    })?;
    let data = match doc.root {
        None | Some(Value::Null) => {
            return Err(fail(FailureKind::Field, msg("fm.empty", &[]), Some(2)))
        }
        Some(Value::Object(m)) => m,
        Some(other) => {
            let got = match other {
                Value::Array(_) => "a list",
                Value::String(_) => "string",
                Value::Number(_) => "number",
                _ => "boolean",
            };
            return Err(fail(
                FailureKind::Field,
                msg("fm.not_mapping", &[("got", got)]),
                Some(2),
            ));
        }
    };
    // +1: the opening --- is line 1 of SKILL.md.
    let key_line = |key: &str| doc.key_lines.get(key).map(|l| *l as u64 + 1);
    let field = |key: &str, reason: String| {
        fail(FailureKind::Field, reason, Some(key_line(key).unwrap_or(2)))
    };
    validate(&data, dir_name, &key_line, &field)?;
    let mut frontmatter = data;
    let mut warnings = leniency;
    let at = |key: &str| {
        key_line(key)
            .map(|l| msg("format.at_line", &[("line", &l.to_string())]))
            .unwrap_or_default()
    };
    // R20: a blank optional field (`license:` reads as null) is as if absent: dropped, with a warning;
    // a blank disable-model-invocation cannot be read as consent (fail closed).
    for key in OPTIONAL_FIELDS {
        if frontmatter.get(key) != Some(&Value::Null) {
            continue;
        }
        if key == "disable-model-invocation" {
            return Err(field(key, msg("fm.disable_model_invocation_empty", &[])));
        }
        frontmatter.retain(|k, _| k != key);
        warnings.push(msg("fm.blank_ignored", &[("field", key), ("at", &at(key))]));
    }
    // R93: what was read as its source text says so, in document order, with what YAML would have read.
    for note in &doc.as_text {
        let at = msg("format.at_line", &[("line", &(note.line + 1).to_string())]);
        warnings.push(msg(
            "fm.kept_as_text",
            &[
                ("field", &note.field),
                ("source", &clip(&note.source, 40)),
                ("read", &clip(&note.read, 40)),
                ("at", &at),
            ],
        ));
    }
    // R19: informational fields nothing in the tool acts on are kept as authored, whatever their JSON type.
    for key in ["license", "version", "argument-hint"] {
        match frontmatter.get(key) {
            None | Some(Value::String(_)) => {}
            Some(v) => {
                let id = if v.is_array() {
                    "fm.kept_list"
                } else {
                    "fm.kept_not_string"
                };
                warnings.push(msg(
                    id,
                    &[("field", key), ("got", &describe(v)), ("at", &at(key))],
                ));
            }
        }
    }
    if let Some(authored) = frontmatter.get("allowed-tools").cloned() {
        let tools = allowed_tools::normalize(&authored).map_err(|r| field("allowed-tools", r))?;
        let split = authored.is_string() && tools.len() > 1;
        frontmatter.insert("allowed-tools".into(), Value::from(tools));
        // R94: bounds apply after normalisation. A string split into a list holds one value per tool plus the list:
        // the frontmatter as kept must stay within R16's value bound, or its <frontmatter> would not read back (R17).
        let max = limits().yaml_max_nodes;
        if split && value_count(&frontmatter, max) > max {
            return Err(field(
                "allowed-tools",
                msg("fm.allowed_tools_too_many", &[("max", &max.to_string())]),
            ));
        }
    }
    Ok(ParsedSkill {
        frontmatter,
        body,
        warnings,
    })
}

/// R16's count of a mapping as a JSON value (every mapping, list and scalar, keys included), stopping past `max`.
fn value_count(root: &Map<String, Value>, max: u64) -> u64 {
    let mut n = 1 + root.len() as u64;
    let mut stack: Vec<&Value> = root.values().collect();
    while let Some(v) = stack.pop() {
        if n > max {
            break;
        }
        n += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(m) => {
                n += m.len() as u64;
                stack.extend(m.values());
            }
            _ => {}
        }
    }
    n
}

fn validate(
    data: &Map<String, Value>,
    dir_name: &str,
    key_line: &dyn Fn(&str) -> Option<u64>,
    field: &dyn Fn(&str, String) -> ParseFailure,
) -> Result<(), ParseFailure> {
    let lim = limits();
    let name = match data.get("name") {
        None => {
            return Err(fail(
                FailureKind::Field,
                msg("fm.missing", &[("field", "name")]),
                Some(2),
            ))
        }
        Some(Value::String(s)) => s,
        // R20: a blank (null) name is missing too, at its key's line.
        Some(Value::Null) => return Err(field("name", msg("fm.missing", &[("field", "name")]))),
        Some(v) => {
            return Err(field(
                "name",
                msg("fm.not_string", &[("field", "name"), ("got", &describe(v))]),
            ))
        }
    };
    let length = utf16_len(name);
    if length == 0 || length > lim.name_max_length {
        let points = name.chars().count().to_string();
        return Err(field(
            "name",
            msg(
                "fm.name_length",
                &[
                    ("max", &lim.name_max_length.to_string()),
                    ("length", &points),
                ],
            ),
        ));
    }
    if !lim.name_pattern.is_match(name) {
        return Err(field(
            "name",
            msg("fm.name_pattern", &[("value", &clip(name, 64))]),
        ));
    }
    let description = match data.get("description") {
        None => {
            return Err(fail(
                FailureKind::Field,
                msg("fm.missing", &[("field", "description")]),
                Some(2),
            ))
        }
        Some(Value::String(s)) => s,
        Some(Value::Null) => {
            return Err(field(
                "description",
                msg("fm.missing", &[("field", "description")]),
            ))
        }
        Some(v) => {
            return Err(field(
                "description",
                msg(
                    "fm.not_string",
                    &[("field", "description"), ("got", &describe(v))],
                ),
            ))
        }
    };
    if js_trim(description).is_empty() {
        return Err(field("description", msg("fm.description_empty", &[])));
    }
    let chars = description.chars().count();
    if chars > lim.description_max_length {
        let (max, got) = (lim.description_max_length.to_string(), chars.to_string());
        return Err(field(
            "description",
            msg("fm.description_length", &[("max", &max), ("length", &got)]),
        ));
    }
    if name != dir_name {
        return Err(ParseFailure {
            code: "NAME_MISMATCH",
            kind: FailureKind::Field,
            reason: msg(
                "fm.name_mismatch",
                &[("value", name), ("dir_name", &clip(dir_name, 64))],
            ),
            line: key_line("name"),
        });
    }
    validate_optional(data, field)
}

/// Type rules of the optional fields the tool acts on; a blank (null) one is left to the R20 pass.
fn validate_optional(
    data: &Map<String, Value>,
    field: &dyn Fn(&str, String) -> ParseFailure,
) -> Result<(), ParseFailure> {
    let lim = limits();
    match data.get("compatibility") {
        None | Some(Value::Null) => {}
        Some(Value::String(s))
            if !s.is_empty() && s.chars().count() <= lim.compatibility_max_length => {}
        Some(_) => {
            return Err(field(
                "compatibility",
                msg(
                    "fm.compatibility",
                    &[("max", &lim.compatibility_max_length.to_string())],
                ),
            ))
        }
    }
    match data.get("metadata") {
        None | Some(Value::Null) | Some(Value::Object(_)) => {}
        Some(v) => {
            return Err(field(
                "metadata",
                msg("fm.metadata", &[("got", &describe(v))]),
            ))
        }
    }
    for key in ["disable-model-invocation", "user-invocable"] {
        match data.get(key) {
            None | Some(Value::Null) | Some(Value::Bool(_)) => {}
            Some(v) => {
                return Err(field(
                    key,
                    msg("fm.boolean", &[("field", key), ("got", &describe(v))]),
                ))
            }
        }
    }
    match data.get("arguments") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Object(args)) => {
            for (arg_name, decl) in args {
                let arg = clip(arg_name, 64);
                let decl = match decl {
                    Value::Object(d) => d,
                    _ => {
                        return Err(field(
                            "arguments",
                            msg("fm.argument_mapping", &[("arg", &arg)]),
                        ))
                    }
                };
                match decl.get("type") {
                    None => {}
                    Some(Value::String(t)) if t == "string" => {}
                    Some(t) => {
                        return Err(field(
                            "arguments",
                            msg("fm.argument_type", &[("arg", &arg), ("got", &describe(t))]),
                        ))
                    }
                }
                if !matches!(decl.get("required"), None | Some(Value::Bool(_))) {
                    return Err(field(
                        "arguments",
                        msg("fm.argument_required", &[("arg", &arg)]),
                    ));
                }
                if !matches!(decl.get("description"), None | Some(Value::String(_))) {
                    return Err(field(
                        "arguments",
                        msg("fm.argument_description", &[("arg", &arg)]),
                    ));
                }
            }
            Ok(())
        }
        Some(v) => Err(field(
            "arguments",
            msg("fm.arguments", &[("got", &describe(v))]),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_the_first_fence_pair_and_keeps_the_body_verbatim() {
        let (yaml, body) = split("---\nname: a\n---  \nBody\n---\nmore\n").unwrap();
        assert_eq!(yaml, "name: a\n");
        assert_eq!(body, "Body\n---\nmore\n");
    }

    #[test]
    fn crlf_and_bom_read_as_lf() {
        assert_eq!(
            split("\u{feff}---\r\nname: a\r\n---\r\nB\r\n").unwrap(),
            ("name: a\n".to_string(), "B\n".to_string())
        );
    }

    #[test]
    fn missing_fences_are_located_on_line_one() {
        assert_eq!(split("no fence\n").unwrap_err().line, Some(1));
        assert_eq!(
            split("---\nname: a\n").unwrap_err().reason,
            "frontmatter is not closed: no --- line after the opening one"
        );
        assert!(split("---").is_err());
    }

    #[test]
    fn validates_fields_and_normalises_allowed_tools() {
        let ok = parse_skill_md(
            "---\nname: a\ndescription: d\nallowed-tools: Read, Grep\nhooks: x\n---\nB\n",
            "a",
        )
        .unwrap();
        assert_eq!(
            ok.frontmatter["allowed-tools"],
            serde_json::json!(["Read", "Grep"])
        );
        assert_eq!(ok.frontmatter["hooks"], "x");
        let bad = parse_skill_md(
            "---\nname: a\ndescription: d\ndisable-model-invocation: \"yes\"\n---\n",
            "a",
        )
        .unwrap_err();
        assert_eq!((bad.reason.as_str(), bad.line), ("field 'disable-model-invocation' must be a boolean (true or false); got string \"yes\"", Some(4)));
        let mismatch = parse_skill_md("---\nname: foo\ndescription: d\n---\n", "bar").unwrap_err();
        assert_eq!((mismatch.code, mismatch.line), ("NAME_MISMATCH", Some(2)));
    }

    #[test]
    fn an_unquoted_non_yaml_argument_hint_is_read_as_text() {
        let ok = parse_skill_md(
            "---\nname: a\ndescription: d\nargument-hint: [pr-number] [priority]\n---\nB\n",
            "a",
        )
        .unwrap();
        assert_eq!(ok.frontmatter["argument-hint"], "[pr-number] [priority]");
        assert_eq!(ok.warnings, ["field 'argument-hint' is not valid YAML as written (line 4); read as the text \"[pr-number] [priority]\" (quote it)"]);
        assert!(
            parse_skill_md("---\nname: a\ndescription: d\nother: [x] [y]\n---\n", "a").is_err(),
            "only argument-hint is read leniently"
        );
    }

    #[test]
    fn numbers_inside_a_text_fields_list_or_mapping_keep_their_text() {
        // R160: version: [1.10] is ["1.10"], metadata {v: [1.10]} too; an alias elsewhere copies what YAML reads.
        let ok = parse_skill_md("---\nname: a\ndescription: d\nversion: &v [1.10]\nmetadata: {v: [1.10, {k: true}]}\nx-other: *v\n---\nB\n", "a").unwrap();
        assert_eq!(ok.frontmatter["version"], serde_json::json!(["1.10"]));
        assert_eq!(
            ok.frontmatter["metadata"],
            serde_json::json!({"v": ["1.10", {"k": "true"}]})
        );
        assert_eq!(ok.frontmatter["x-other"], serde_json::json!([1.1]));
        assert_eq!(ok.warnings[0], "field 'version[0]' is written 1.10, which YAML reads as the number 1.1; kept as the string \"1.10\" (line 4)");
        assert_eq!(ok.warnings[2], "field 'metadata.v[1].k' is written true, which YAML reads as the boolean true; kept as the string \"true\" (line 5)");
    }
}
