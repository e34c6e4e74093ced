//! The JavaScript-compatible text conventions the contract's outputs are written in (the reference is
//! TypeScript, and exact parity means the same bytes): numbers as Number#toString prints them, JSON as
//! JSON.stringify writes it, string lengths in UTF-16 units, trim and \s as ECMAScript defines them.
use serde_json::{Map, Value};

/// A key that is a canonical array index ("0", or digits without a leading zero, at most 2^32 − 2).
fn array_index(k: &str) -> Option<u32> {
    if k.is_empty()
        || k.len() > 10
        || (k.len() > 1 && k.starts_with('0'))
        || !k.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    k.parse::<u64>()
        .ok()
        .filter(|n| *n <= 4_294_967_294)
        .map(|n| n as u32)
}

/// R24: a mapping's keys in the order a JavaScript object (and so JSON.parse of any reply) keeps them:
/// canonical array indices first, ascending, then every other key in authored order.
pub fn js_key_order(map: Map<String, Value>) -> Map<String, Value> {
    if !map.keys().any(|k| array_index(k).is_some()) {
        return map;
    }
    let mut entries: Vec<_> = map.into_iter().collect();
    // Stable: u32::MAX is never a canonical index, so every other key keeps its authored place after them.
    entries.sort_by_key(|(k, _)| array_index(k).unwrap_or(u32::MAX));
    entries.into_iter().collect()
}

/// ECMAScript WhiteSpace + LineTerminator (what `\s` and String#trim use).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// String#length: UTF-16 code units (a lone surrogate's stand-in is its one unit).
pub fn utf16_len(s: &str) -> usize {
    s.chars()
        .map(|c| {
            if crate::lone::unit_of(c).is_some() {
                1
            } else {
                c.len_utf16()
            }
        })
        .sum()
}

/// Keep model-facing text bounded (messages.json rules.clip): at most `max` code points, else the first
/// `max` and the whole length (format.clip).
pub fn clip(text: &str, max: usize) -> String {
    let length = text.chars().count();
    if length <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max).collect();
    crate::messages::msg(
        "format.clip",
        &[("head", &head), ("length", &length.to_string())],
    )
}

/// Number#toString for a finite or non-finite double.
pub fn js_number(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    if f == 0.0 {
        return "0".into();
    }
    let sign = if f < 0.0 { "-" } else { "" };
    // Rust's {:e} prints the shortest round-tripping digits, as ECMAScript requires.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i32;
    let n = exp.parse::<i32>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{}{}", digits, "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{}", "0".repeat((-n) as usize), digits)
    } else {
        let e = n - 1;
        let es = if e >= 0 {
            format!("+{e}")
        } else {
            format!("{e}")
        };
        if k == 1 {
            format!("{digits}e{es}")
        } else {
            format!("{}.{}e{}", &digits[..1], &digits[1..], es)
        }
    };
    format!("{sign}{body}")
}

/// A JSON number the way the contract holds numbers (JavaScript doubles): integral values as integers.
pub fn number_value(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 {
        Value::from(f as i64)
    } else {
        serde_json::Number::from_f64(f)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

/// JSON.stringify of a string.
pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// JSON.stringify of a value (compact; numbers as Number#toString).
pub fn stringify(v: &Value) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

fn write_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            out.push_str(&n.as_f64().map(js_number).unwrap_or_else(|| n.to_string()))
        }
        Value::String(s) => out.push_str(&json_string(s)),
        Value::Array(a) => {
            out.push('[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&json_string(k));
                out.push(':');
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

/// How the reference names a JSON value's type in a message ("null", "an array", "string", …).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Array(_) => "an array",
        Value::Object(_) => "object",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (f, s) in [
            (1.0, "1"),
            (1.5, "1.5"),
            (-0.25, "-0.25"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (123456.0, "123456"),
            (0.000001, "0.000001"),
            (1e20, "100000000000000000000"),
        ] {
            assert_eq!(js_number(f), s);
        }
    }

    #[test]
    fn clip_counts_code_points() {
        assert_eq!(clip("😀😀", 2), "😀😀");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcd", 3), "abc… (4 chars)");
    }
}
