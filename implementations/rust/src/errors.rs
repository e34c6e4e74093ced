//! Error results (§3.4): a stable code, a one-line message, and the `Error [CODE]: message` text with
//! Path / Reason / Hint lines the model reads (messages.json output.error*, rules.error_output).
use crate::messages::msg;
use serde_json::{json, Map, Value};

#[derive(Default, Clone)]
pub struct Detail {
    pub name: Option<String>,
    pub path: Option<String>,
    pub reason: Option<String>,
    pub line: Option<u64>,
    pub hint: Option<String>,
    pub warnings: Vec<String>,
}

pub fn error_result(code: &str, message: &str, d: Detail) -> Value {
    let mut lines = vec![msg("output.error", &[("code", code), ("message", message)])];
    if let Some(p) = &d.path {
        lines.push(msg("output.error_path", &[("path", p)]));
    }
    if let Some(r) = &d.reason {
        lines.push(msg("output.error_reason", &[("reason", r)]));
    }
    if let Some(h) = &d.hint {
        lines.push(msg("output.error_hint", &[("hint", h)]));
    }
    let mut out = Map::new();
    out.insert("kind".into(), json!("error"));
    out.insert("code".into(), json!(code));
    out.insert("message".into(), json!(message));
    out.insert("output".into(), json!(lines.join("\n")));
    if let Some(v) = d.name {
        out.insert("name".into(), json!(v));
    }
    if let Some(v) = d.path {
        out.insert("path".into(), json!(v));
    }
    if let Some(v) = d.reason {
        out.insert("reason".into(), json!(v));
    }
    if let Some(v) = d.line {
        out.insert("line".into(), json!(v));
    }
    if let Some(v) = d.hint {
        out.insert("hint".into(), json!(v));
    }
    if !d.warnings.is_empty() {
        out.insert("warnings".into(), json!(d.warnings));
    }
    Value::Object(out)
}
