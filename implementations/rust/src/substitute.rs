//! Argument substitution (§9, R5): one left-to-right pass, so substituted text is never re-scanned;
//! placeholders with nothing to put in them stay literal.
use crate::jsval::is_js_space;
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

pub fn substitute(body: &str, args: Option<&Arguments>, declared: &HashSet<String>) -> String {
    match args {
        None => body.to_string(),
        Some(Arguments::Positional(text)) => {
            let tokens: Vec<&str> = text.split(is_js_space).filter(|t| !t.is_empty()).collect();
            let token = |i: Option<usize>| i.and_then(|i| tokens.get(i)).map(|t| t.to_string());
            placeholder()
                .replace_all(body, |c: &Captures| {
                    let whole = c[0].to_string();
                    if let Some(i0) = c.get(1) {
                        token(i0.as_str().parse().ok()).unwrap_or(whole)
                    } else if let Some(i1) = c.get(3) {
                        match i1.as_str().parse::<usize>() {
                            Ok(n) if n >= 1 => token(Some(n - 1)).unwrap_or(whole),
                            _ => whole,
                        }
                    } else if whole == "$ARGUMENTS" {
                        text.clone()
                    } else {
                        whole
                    }
                })
                .into_owned()
        }
        Some(Arguments::Named(pairs)) => {
            let joined = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
            placeholder()
                .replace_all(body, |c: &Captures| {
                    let whole = &c[0];
                    if whole == "$ARGUMENTS" {
                        return joined.clone();
                    }
                    if let Some(named) = c.get(2).map(|m| m.as_str()).filter(|n| declared.contains(*n)) {
                        if let Some((_, v)) = pairs.iter().rev().find(|(k, _)| k == named) {
                            return v.clone();
                        }
                    }
                    whole.to_string()
                })
                .into_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Arguments {
        Arguments::Positional(s.into())
    }

    #[test]
    fn positional_forms() {
        let none = HashSet::new();
        let body = "$ARGUMENTS|$1|$2|$3|$0|$ARGUMENTS[0]|$ARGUMENTS[9]|${x}";
        assert_eq!(substitute(body, Some(&pos(" a  b ")), &none), " a  b |a|b|$3|$0|a|$ARGUMENTS[9]|${x}");
        assert_eq!(substitute(body, None, &none), body);
    }

    #[test]
    fn one_pass_never_rescans_substituted_text() {
        assert_eq!(substitute("$1 $2", Some(&pos("$2 x")), &HashSet::new()), "$2 x");
    }

    #[test]
    fn named_forms_only_for_declared_names() {
        let declared: HashSet<String> = ["path".to_string()].into();
        let args = Arguments::Named(vec![("path".into(), "src/a.ts".into()), ("mode".into(), "fast".into())]);
        assert_eq!(substitute("${path} ${mode} $ARGUMENTS $1", Some(&args), &declared), "src/a.ts ${mode} path=src/a.ts mode=fast $1");
    }
}
