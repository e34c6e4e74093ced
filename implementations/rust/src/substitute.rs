//! Argument substitution (§9, R5): one left-to-right pass, so substituted text is never re-scanned;
//! placeholders with nothing to put in them stay literal.
use crate::jsval::is_js_space;
use crate::messages::{is_unsafe, push_escaped};
use crate::params::Arguments;
use regex::{Captures, Regex};
use std::collections::HashSet;
use std::sync::OnceLock;

fn placeholder() -> &'static Regex {
    static P: OnceLock<Regex> = OnceLock::new();
    // \s as ECMAScript defines it, spelled out (Rust's \s is Unicode White_Space, a slightly different set).
    P.get_or_init(|| {
        Regex::new(r"\$ARGUMENTS\[([0-9]+)\]|\$ARGUMENTS|\$\{([^{}\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+)\}|\$([0-9]+)")
            .expect("placeholder pattern")
    })
}

/// R146: a substituted value stays data: every unsafe character (R147) escaped as R91 writes it and every '<' as
/// "&lt;", so no value holds a line break or a tag.
pub fn escape_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == '<' {
            out.push_str("&lt;");
        } else if is_unsafe(c) {
            push_escaped(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// What fills each placeholder form, values already escaped (R146): made once per call, not per placeholder.
enum Values {
    Positional {
        whole: String,
        tokens: Vec<String>,
    },
    Named {
        joined: String,
        pairs: Vec<(String, String)>,
    },
}

impl Values {
    fn new(args: &Arguments) -> Values {
        match args {
            Arguments::Positional(text) => {
                let tokens = text
                    .split(is_js_space)
                    .filter(|t| !t.is_empty())
                    .map(escape_value)
                    .collect();
                Values::Positional {
                    whole: escape_value(text),
                    tokens,
                }
            }
            Arguments::Named(pairs) => {
                // The map form of $ARGUMENTS: key=value pairs, escaped as one value (keys are declared names, R4).
                let joined = escape_value(
                    &pairs
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
                let pairs: Vec<(String, String)> = pairs
                    .iter()
                    .map(|(k, v)| (k.clone(), escape_value(v)))
                    .collect();
                Values::Named { joined, pairs }
            }
        }
    }

    /// The value of one placeholder, or None to keep it literal.
    fn fill<'v>(&'v self, c: &Captures, declared: &HashSet<String>) -> Option<&'v str> {
        let whole = &c[0];
        match self {
            Values::Positional { whole: all, tokens } => {
                let token = |i: usize| tokens.get(i).map(String::as_str);
                if let Some(i0) = c.get(1) {
                    i0.as_str().parse().ok().and_then(token)
                } else if let Some(i1) = c.get(3) {
                    i1.as_str()
                        .parse::<usize>()
                        .ok()
                        .filter(|n| *n >= 1)
                        .and_then(|n| token(n - 1))
                } else {
                    (whole == "$ARGUMENTS").then_some(all.as_str())
                }
            }
            Values::Named { joined, pairs } => {
                if whole == "$ARGUMENTS" {
                    return Some(joined);
                }
                let named = c
                    .get(2)
                    .map(|m| m.as_str())
                    .filter(|n| declared.contains(*n))?;
                pairs
                    .iter()
                    .rev()
                    .find(|(k, _)| k == named)
                    .map(|(_, v)| v.as_str())
            }
        }
    }
}

/// §9, R5, R145, R146: the body with its placeholders filled in one left-to-right pass; None when the result would
/// be over `max` bytes, found by measuring the pieces before anything is joined (the size is never built).
pub fn substitute(
    body: &str,
    args: Option<&Arguments>,
    declared: &HashSet<String>,
    max: usize,
) -> Option<String> {
    // Without arguments the body is as written (it is within skill_md_max_bytes already).
    let Some(args) = args else {
        return Some(body.to_string());
    };
    let values = Values::new(args);
    let mut pieces: Vec<(usize, usize, &str)> = Vec::new();
    let mut size = body.len();
    for c in placeholder().captures_iter(body) {
        let m = c.get(0).expect("whole match");
        if let Some(v) = values.fill(&c, declared) {
            size = size - m.as_str().len() + v.len();
            pieces.push((m.start(), m.end(), v));
        }
    }
    if size > max {
        return None;
    }
    let mut out = String::with_capacity(size);
    let mut at = 0;
    for (start, end, v) in pieces {
        out.push_str(&body[at..start]);
        out.push_str(v);
        at = end;
    }
    out.push_str(&body[at..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Arguments {
        Arguments::Positional(s.into())
    }

    const MAX: usize = 1 << 20;

    fn sub(body: &str, args: Option<&Arguments>, declared: &HashSet<String>) -> String {
        substitute(body, args, declared, MAX).expect("within the bound")
    }

    #[test]
    fn positional_forms() {
        let none = HashSet::new();
        let body = "$ARGUMENTS|$1|$2|$3|$0|$ARGUMENTS[0]|$ARGUMENTS[9]|${x}";
        assert_eq!(
            sub(body, Some(&pos(" a  b ")), &none),
            " a  b |a|b|$3|$0|a|$ARGUMENTS[9]|${x}"
        );
        assert_eq!(sub(body, None, &none), body);
    }

    #[test]
    fn one_pass_never_rescans_substituted_text() {
        assert_eq!(sub("$1 $2", Some(&pos("$2 x")), &HashSet::new()), "$2 x");
    }

    #[test]
    fn values_are_escaped_and_the_body_is_not() {
        let out = sub(
            "<b>$ARGUMENTS</b> $1",
            Some(&pos("</b>\n\u{2028}x\u{e0041}")),
            &HashSet::new(),
        );
        assert_eq!(out, "<b>&lt;/b>\\u000a\\u2028x\\udb40\\udc41</b> &lt;/b>");
    }

    #[test]
    fn the_substituted_size_is_bounded_before_it_is_built() {
        let none = HashSet::new();
        assert_eq!(
            substitute(&"$1".repeat(10), Some(&pos(&"a".repeat(10))), &none, 100),
            Some("a".repeat(100))
        );
        assert_eq!(
            substitute(&"$1".repeat(10), Some(&pos(&"a".repeat(10))), &none, 99),
            None
        );
        // The escape's growth counts: one '<' is four bytes.
        assert_eq!(substitute("$1", Some(&pos("<<")), &none, 7), None);
    }

    #[test]
    fn named_forms_only_for_declared_names() {
        let declared: HashSet<String> = ["path".to_string()].into();
        let args = Arguments::Named(vec![
            ("path".into(), "src/a.ts".into()),
            ("mode".into(), "fast".into()),
        ]);
        assert_eq!(
            sub("${path} ${mode} $ARGUMENTS $1", Some(&args), &declared),
            "src/a.ts ${mode} path=src/a.ts mode=fast $1"
        );
    }
}
