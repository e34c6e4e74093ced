//! Frontmatter YAML to JSON values under the contract's rules, not the YAML library's: the YAML 1.2 core
//! schema (null, booleans, ints, floats; everything else a string), map keys as strings, key order kept,
//! duplicate keys refused, alias expansion bounded (D11) and nesting bounded, so a hostile file costs
//! little and never overflows the stack. yaml-rust supplies the events; this module builds the values
//! itself, iteratively, and records the line of every top-level key for error reports.
use crate::jsval::{js_number, number_value};
use crate::limits::limits;
use crate::messages::msg;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use yaml_rust::parser::{Event, Parser};
use yaml_rust::scanner::{Marker, ScanError, TScalarStyle, TokenType};

#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    pub reason: String,
    /// 1-based line within the YAML text, when known.
    pub line: Option<usize>,
}

#[derive(Debug)]
pub struct Document {
    /// The document's value; None for an empty document.
    pub root: Option<Value>,
    /// 1-based line (within the YAML text) of each top-level key.
    pub key_lines: HashMap<String, usize>,
}

enum Frame {
    Seq { items: Vec<Value>, anchor: usize, aliases: u64 },
    Map { map: Map<String, Value>, anchor: usize, aliases: u64, key: Option<String>, seen: HashSet<(u8, String)> },
}

struct Builder {
    stack: Vec<Frame>,
    root: Option<Value>,
    anchors: HashMap<usize, (Value, u64)>,
    alias_total: u64,
    key_lines: HashMap<String, usize>,
}

fn err(id: &str, mark: Option<&Marker>) -> YamlError {
    YamlError { reason: msg(id, &[]), line: mark.map(|m| m.line()) }
}

/// A yaml-rust error in the contract's words. An unclosed quote is reported where the text ends (where the
/// reader found out), not where the quote opened.
fn scan_error(e: ScanError, text: &str) -> YamlError {
    #[allow(deprecated)]
    let info = std::error::Error::description(&e).to_string();
    match info.as_str() {
        "while scanning a quoted scalar, found unexpected end of stream" => {
            let quote = if text.chars().nth(e.marker().index()) == Some('\'') { "'" } else { "\"" };
            YamlError { reason: msg("yaml.unclosed_quote", &[("quote", quote)]), line: Some(text.matches('\n').count() + 1) }
        }
        "did not find expected <document start>" => YamlError { reason: msg("yaml.multiple_documents", &[]), line: Some(e.marker().line()) },
        "recursion limit exceeded" => YamlError { reason: msg("yaml.too_deep", &[]), line: Some(e.marker().line()) },
        "mapping values are not allowed in this context" => YamlError { reason: msg("yaml.compact_mapping", &[]), line: Some(e.marker().line()) },
        "while parsing a flow sequence, expected ',' or ']'" => YamlError { reason: msg("yaml.flow_sequence", &[]), line: Some(e.marker().line()) },
        "while parsing a flow mapping, did not find expected ',' or '}'" => YamlError { reason: msg("yaml.flow_map", &[]), line: Some(e.marker().line()) },
        _ => match info.strip_prefix("unexpected character: `").and_then(|rest| rest.strip_suffix('\'')) {
            Some(c @ ("@" | "`")) => YamlError { reason: msg("yaml.reserved", &[("char", c)]), line: Some(e.marker().line()) },
            _ => YamlError { reason: info, line: Some(e.marker().line()) },
        },
    }
}

/// A scalar key as the JS object key it becomes, and its identity for the duplicate check.
fn key_of(v: &Value) -> Option<(String, (u8, String))> {
    match v {
        Value::String(s) => Some((s.clone(), (0, s.clone()))),
        Value::Null => Some((String::new(), (1, String::new()))),
        Value::Bool(b) => Some((b.to_string(), (2, b.to_string()))),
        Value::Number(n) => {
            let s = n.as_f64().map(js_number).unwrap_or_else(|| n.to_string());
            Some((s.clone(), (3, s)))
        }
        _ => None,
    }
}

impl Builder {
    fn push(&mut self, v: Value, cost: u64, anchor: usize, mark: &Marker) -> Result<(), YamlError> {
        if anchor > 0 {
            self.anchors.insert(anchor, (v.clone(), cost));
        }
        let top_level = self.stack.len() == 1;
        match self.stack.last_mut() {
            None => {
                if self.root.is_some() {
                    return Err(err("yaml.multiple_documents", Some(mark)));
                }
                self.root = Some(v);
            }
            Some(Frame::Seq { items, aliases, .. }) => {
                items.push(v);
                *aliases += cost;
            }
            Some(Frame::Map { map, aliases, key, seen, .. }) => {
                *aliases += cost;
                match key.take() {
                    Some(k) => {
                        map.insert(k, v);
                    }
                    None => {
                        let (k, id) = key_of(&v).ok_or_else(|| err("yaml.complex_key", Some(mark)))?;
                        if !seen.insert(id) {
                            return Err(err("yaml.duplicate_key", Some(mark)));
                        }
                        if top_level {
                            self.key_lines.entry(k.clone()).or_insert(mark.line());
                        }
                        *key = Some(k);
                    }
                }
            }
        }
        Ok(())
    }

    fn open(&mut self, frame: Frame, mark: &Marker) -> Result<(), YamlError> {
        if let Some(Frame::Map { key: None, .. }) = self.stack.last() {
            return Err(err("yaml.complex_key", Some(mark)));
        }
        if self.stack.len() >= limits().yaml_max_depth {
            return Err(err("yaml.too_deep", Some(mark)));
        }
        self.stack.push(frame);
        Ok(())
    }

    fn close(&mut self, mark: &Marker) -> Result<(), YamlError> {
        let (v, anchor, cost) = match self.stack.pop() {
            Some(Frame::Seq { items, anchor, aliases }) => (Value::Array(items), anchor, aliases),
            Some(Frame::Map { map, anchor, aliases, .. }) => (Value::Object(map), anchor, aliases),
            None => return Ok(()),
        };
        self.push(v, cost, anchor, mark)
    }

    fn alias(&mut self, id: usize, mark: &Marker) -> Result<(), YamlError> {
        let (v, inner) = match self.anchors.get(&id) {
            Some((v, inner)) => (v, *inner),
            None => return Err(YamlError { reason: "Aliased anchor not found".into(), line: Some(mark.line()) }),
        };
        // An alias costs itself plus every alias inside what it points at: the size of its expansion in aliases.
        let cost = 1 + inner;
        self.alias_total = self.alias_total.saturating_add(cost);
        if self.alias_total > limits().yaml_max_aliases {
            return Err(YamlError { reason: msg("yaml.aliases", &[]), line: None });
        }
        let v = v.clone();
        self.push(v, cost, 0, mark)
    }
}

/// Parse one YAML document. Never panics on any input.
pub fn parse(text: &str) -> Result<Document, YamlError> {
    let mut parser = Parser::new(text.chars());
    let mut b = Builder { stack: Vec::new(), root: None, anchors: HashMap::new(), alias_total: 0, key_lines: HashMap::new() };
    let mut documents = 0;
    loop {
        let (event, mark) = parser.next().map_err(|e| scan_error(e, text))?;
        match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(err("yaml.multiple_documents", Some(&mark)));
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                // A plain scalar never starts with whitespace: yaml-rust let a tab-indented line through.
                if style == TScalarStyle::Plain && value.starts_with(['\t', ' ']) {
                    return Err(err("yaml.tab_indent", Some(&mark)));
                }
                b.push(resolve(value, style, tag), 0, anchor, &mark)?
            }
            Event::Alias(id) => b.alias(id, &mark)?,
            Event::SequenceStart(anchor) => b.open(Frame::Seq { items: Vec::new(), anchor, aliases: 0 }, &mark)?,
            Event::MappingStart(anchor) => {
                b.open(Frame::Map { map: Map::new(), anchor, aliases: 0, key: None, seen: HashSet::new() }, &mark)?
            }
            Event::SequenceEnd | Event::MappingEnd => b.close(&mark)?,
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
        }
    }
    Ok(Document { root: b.root, key_lines: b.key_lines })
}

fn core_patterns() -> &'static [regex::Regex; 5] {
    static P: OnceLock<[regex::Regex; 5]> = OnceLock::new();
    P.get_or_init(|| {
        let r = |s: &str| regex::Regex::new(s).expect("core schema pattern");
        [
            r(r"^[-+]?[0-9]+$"),
            r(r"^0o[0-7]+$"),
            r(r"^0x[0-9a-fA-F]+$"),
            r(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$"),
            r(r"^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
        ]
    })
}

/// The double nearest to the integer `digits` in `base` (as parseInt gives it).
fn radix(digits: &str, base: u32) -> f64 {
    if base == 10 {
        return digits.parse::<f64>().unwrap_or(f64::NAN);
    }
    match u128::from_str_radix(digits, base) {
        Ok(n) => n as f64,
        Err(_) => digits.chars().fold(0.0, |acc, c| acc * base as f64 + c.to_digit(base).unwrap_or(0) as f64),
    }
}

/// The YAML 1.2 core schema's reading of a plain scalar.
pub fn resolve_plain(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let [int, oct, hex, float, special] = core_patterns();
    if int.is_match(s) {
        let (neg, digits) = match s.as_bytes()[0] {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let v = radix(digits, 10);
        return number_value(if neg { -v } else { v });
    }
    if oct.is_match(s) {
        return number_value(radix(&s[2..], 8));
    }
    if hex.is_match(s) {
        return number_value(radix(&s[2..], 16));
    }
    if float.is_match(s) {
        return s.parse::<f64>().map(number_value).unwrap_or_else(|_| Value::String(s.into()));
    }
    if special.is_match(s) {
        // JSON has no Infinity or NaN: they travel as null, as JSON.stringify writes them.
        return Value::Null;
    }
    Value::String(s.to_string())
}

fn resolve(value: String, style: TScalarStyle, tag: Option<TokenType>) -> Value {
    match tag {
        // An explicit core tag applies only when the text fits that type; otherwise it stays a string.
        Some(TokenType::Tag(handle, suffix)) if handle == "!!" => {
            let v = resolve_plain(&value);
            let fits = match suffix.as_str() {
                "int" => v.is_number() && core_patterns()[..3].iter().any(|p| p.is_match(&value)),
                "float" => core_patterns()[3..].iter().any(|p| p.is_match(&value)) && !core_patterns()[0].is_match(&value),
                "bool" => v.is_boolean(),
                "null" => v.is_null(),
                _ => false,
            };
            if fits {
                v
            } else {
                Value::String(value)
            }
        }
        Some(_) => Value::String(value),
        None if style == TScalarStyle::Plain => resolve_plain(&value),
        None => Value::String(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root(text: &str) -> Value {
        parse(text).expect("parses").root.expect("has a root")
    }

    #[test]
    fn core_schema_scalars() {
        let v = root("a: yes\nb: True\nc: 0x1F\nd: 0o17\ne: 1.50\nf: ~\ng: '1'\nh: 007\ni: 1e3\n");
        assert_eq!(v, json!({"a": "yes", "b": true, "c": 31, "d": 15, "e": 1.5, "f": null, "g": "1", "h": 7, "i": 1000}));
    }

    #[test]
    fn key_order_and_lines_are_kept() {
        let d = parse("zeta: 1\nalpha:\n  x: [a, b]\n").unwrap();
        assert_eq!(serde_json::to_string(&d.root.unwrap()).unwrap(), r#"{"zeta":1,"alpha":{"x":["a","b"]}}"#);
        assert_eq!(d.key_lines["alpha"], 2);
    }

    #[test]
    fn duplicate_keys_are_refused_with_their_line() {
        assert_eq!(parse("a: 1\nb: 2\na: 3\n").unwrap_err(), YamlError { reason: "Map keys must be unique".into(), line: Some(3) });
        assert!(parse("1: a\n\"1\": b\n").is_ok(), "a number key and a string key are different keys");
    }

    #[test]
    fn alias_expansion_is_bounded() {
        let few = "a: &x {k: v}\nb: *x\nc: *x\n";
        assert_eq!(root(few)["c"], json!({"k": "v"}));
        let many: String = std::iter::once("a: &x v\nl:\n".to_string()).chain((0..150).map(|_| "  - *x\n".to_string())).collect();
        assert_eq!(parse(&many).unwrap_err().reason, "Excessive alias count indicates a resource exhaustion attack");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("a: {}{}\n", "[".repeat(20000), "]".repeat(20000));
        assert!(parse(&deep).is_err());
        let block = format!("a:\n  {}x\n", "- ".repeat(20000));
        assert!(parse(&block).is_err());
    }

    #[test]
    fn an_unclosed_quote_is_reported_at_the_end() {
        let e = parse("name: x\ndescription: \"open\n  more\n").unwrap_err();
        assert_eq!(e, YamlError { reason: "Missing closing \"quote".into(), line: Some(4) });
    }
}
