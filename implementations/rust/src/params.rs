//! Tool-input validation (§2, §2.1, D3, R4): alias pushback first, then unknown keys, then the name,
//! then the shape of `arguments`. Pure; any JSON value in, parameters or an INVALID_PARAM result out.
use crate::errors::{error_result, Detail};
use crate::jsval::{clip, type_name, utf16_len};
use crate::limits::{aliases, limits};
use crate::lone::utf8_len;
use crate::messages::msg;
use serde_json::Value;

/// `arguments`: a string, or named string values in the order the caller wrote them.
#[derive(Clone, Debug, PartialEq)]
pub enum Arguments {
    Positional(String),
    Named(Vec<(String, String)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToolParams {
    pub name: String,
    pub arguments: Option<Arguments>,
}

fn invalid(message: String, name: Option<&str>) -> Value {
    error_result(
        "INVALID_PARAM",
        &message,
        Detail {
            hint: Some(msg("param.hint", &[])),
            name: name.map(String::from),
            ..Detail::default()
        },
    )
}

pub fn parse_params(raw: &Value) -> Result<ToolParams, Value> {
    let obj = match raw {
        Value::Object(o) => o,
        other => {
            return Err(invalid(
                msg("param.not_object", &[("got", type_name(other))]),
                None,
            ))
        }
    };
    for key in obj.keys() {
        if let Some(alias) = aliases().iter().find(|a| &a.alias == key) {
            let id = if alias.rename {
                "param.alias_rename"
            } else {
                "param.alias_drop"
            };
            return Err(invalid(
                msg(id, &[("key", key), ("note", &alias.note)]),
                None,
            ));
        }
    }
    if let Some(key) = obj.keys().find(|k| *k != "name" && *k != "arguments") {
        return Err(invalid(
            msg("param.unknown", &[("key", &clip(key, 64))]),
            None,
        ));
    }
    let name = match obj.get("name") {
        None => return Err(invalid(msg("param.name_missing", &[]), None)),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(invalid(
                msg("param.name_type", &[("got", type_name(other))]),
                None,
            ))
        }
    };
    let lim = limits();
    if name.is_empty() {
        return Err(invalid(msg("param.name_empty", &[]), None));
    }
    let length = utf16_len(&name);
    if length > lim.name_max_length {
        // The bound is on UTF-16 units (String#length) as the reference checks it; the message counts code points.
        let (max, got) = (
            lim.name_max_length.to_string(),
            name.chars().count().to_string(),
        );
        return Err(invalid(
            msg("param.name_too_long", &[("max", &max), ("length", &got)]),
            None,
        ));
    }
    if !lim.name_pattern.is_match(&name) {
        return Err(invalid(msg("param.name_pattern", &[("name", &name)]), None));
    }
    let arguments = match obj.get("arguments") {
        None => None,
        Some(Value::String(s)) => Some(Arguments::Positional(s.clone())),
        Some(Value::Object(map)) => {
            let mut named = Vec::with_capacity(map.len());
            for (k, v) in map {
                match v {
                    Value::String(s) => named.push((k.clone(), s.clone())),
                    _ => {
                        return Err(invalid(
                            msg(
                                "param.argument_type",
                                &[("key", &clip(k, 64)), ("name", &name)],
                            ),
                            Some(&name),
                        ))
                    }
                }
            }
            Some(Arguments::Named(named))
        }
        Some(other) => {
            return Err(invalid(
                msg("param.arguments_type", &[("got", type_name(other))]),
                Some(&name),
            ))
        }
    };
    if let Some(refusal) = arguments.as_ref().and_then(|a| too_large(a, &name)) {
        return Err(refusal);
    }
    Ok(ToolParams { name, arguments })
}

/// R144: the arguments' size bound, the last parameter check: a string's UTF-8 bytes, a map's keys and values summed.
fn too_large(args: &Arguments, name: &str) -> Option<Value> {
    let size = match args {
        Arguments::Positional(s) => utf8_len(s),
        Arguments::Named(pairs) => pairs.iter().map(|(k, v)| utf8_len(k) + utf8_len(v)).sum(),
    };
    let limit = limits().arguments_max_bytes;
    (size > limit).then(|| {
        let message = msg(
            "param.arguments_too_large",
            &[("size", &size.to_string()), ("limit", &limit.to_string())],
        );
        error_result(
            "INVALID_PARAM",
            &message,
            Detail {
                name: Some(name.into()),
                hint: Some(msg("args.too_large_hint", &[])),
                ..Detail::default()
            },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(v: Value) -> String {
        let err = parse_params(&v).expect_err("should be refused");
        assert_eq!(err["code"], "INVALID_PARAM");
        err["message"].as_str().unwrap().to_string()
    }

    #[test]
    fn aliases_are_refused_before_anything_else() {
        assert_eq!(
            message(json!({"skill_name": "x"})),
            "unknown parameter \"skill_name\": use \"name\""
        );
        assert!(message(json!({"name": "hello", "reload": true}))
            .starts_with("parameter \"reload\" is not supported"));
    }

    #[test]
    fn names_are_checked_for_type_length_and_pattern() {
        assert_eq!(message(json!({"name": ""})), "\"name\" must not be empty");
        assert_eq!(
            message(json!({"name": 3})),
            "\"name\" must be a string; got number"
        );
        assert_eq!(
            message(json!({"name": "a".repeat(65)})),
            "skill name must be at most 64 characters; got 65"
        );
        assert_eq!(
            message(json!({"name": "Hello"})),
            "skill name must be lowercase-kebab-case; got \"Hello\""
        );
        // R91: a value cannot start a line: the line feed is written \u000a, and the message stays one line.
        assert_eq!(
            message(json!({"name": "hello\n"})),
            "skill name must be lowercase-kebab-case; got \"hello\\u000a\""
        );
        assert_eq!(
            message(json!(null)),
            "skill input must be a JSON object with a \"name\"; got null"
        );
    }

    #[test]
    fn arguments_are_a_string_or_an_object_of_strings() {
        let ok = parse_params(&json!({"name": "a-b", "arguments": {"z": "1", "a": "2"}})).unwrap();
        assert_eq!(
            ok.arguments,
            Some(Arguments::Named(vec![
                ("z".into(), "1".into()),
                ("a".into(), "2".into())
            ]))
        );
        assert_eq!(
            message(json!({"name": "a", "arguments": [1]})),
            "\"arguments\" must be a string or an object of strings; got an array"
        );
        assert_eq!(
            message(json!({"name": "a", "arguments": {"k": 1}})),
            "argument \"k\" of skill a must be a string; v1 arguments are strings only"
        );
    }
}
