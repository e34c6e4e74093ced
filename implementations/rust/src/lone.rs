//! Lone surrogates (R147, X10). A JSON string can carry a UTF-16 code unit U+D800–U+DFFF that is not part of a
//! pair (`"\ud800"`); a Rust string cannot hold one. The driver carries each such unit as a stand-in code point,
//! U+10F800 + (unit − 0xD800), the last 2,048 of Supplementary Private Use Area-B: read in by `json_in`, escaped
//! like any unsafe character in model-facing text (messages.rs), written back as the unit by `json_out`, so the
//! kit sees the same JSON the reference writes. Once a request has carried one, a genuine character of that range
//! is read as the surrogate it stands for (written down in X10); before, the range is ordinary text.
use std::sync::atomic::{AtomicBool, Ordering};

const FIRST: u32 = 0x10F800;

/// The stand-in of a surrogate code unit.
pub fn stand_in(unit: u16) -> char {
    char::from_u32(FIRST + (unit as u32 - 0xD800)).expect("the stand-in range is valid")
}

/// Set once a request has carried a lone surrogate: until then the range is ordinary characters (a SKILL.md's
/// U+10F800 stays itself), after it every character of the range is a stand-in.
static CARRIED: AtomicBool = AtomicBool::new(false);

/// The surrogate unit `c` stands for, if it is a stand-in.
pub fn unit_of(c: char) -> Option<u16> {
    let v = c as u32;
    (v >= FIRST && CARRIED.load(Ordering::Relaxed)).then(|| (0xD800 + (v - FIRST)) as u16)
}

/// Buffer.byteLength: UTF-8 bytes, a lone surrogate counted as the 3 bytes of the U+FFFD it is encoded as.
pub fn utf8_len(s: &str) -> usize {
    s.len() - s.chars().filter(|c| unit_of(*c).is_some()).count()
}

fn hex4(b: &[u8]) -> Option<u16> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    u16::from_str_radix(s, 16)
        .ok()
        .filter(|_| s.bytes().all(|c| c.is_ascii_hexdigit()))
}

/// JSON text with each lone surrogate escape (`\uD800` not in a pair) rewritten as its stand-in's escaped pair, so
/// a JSON parser reads it; every other byte as it was. Escaped backslashes are skipped as pairs.
pub fn json_in(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains("\\u") {
        return line.into();
    }
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let (mut i, mut copied) = (0, 0);
    while i + 1 < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let unit = if b[i + 1] == b'u' {
            hex4(&b[i + 2..])
        } else {
            None
        };
        let Some(u) = unit.filter(|u| (0xD800..=0xDFFF).contains(u)) else {
            i += 2; // `\\`, `\"`, `\n`, or an escape that is not a surrogate
            continue;
        };
        let low = b.get(i + 6) == Some(&b'\\')
            && b.get(i + 7) == Some(&b'u')
            && hex4(&b[i + 8..]).is_some_and(|l| (0xDC00..=0xDFFF).contains(&l));
        if u <= 0xDBFF && low {
            i += 12; // a well-formed pair
            continue;
        }
        CARRIED.store(true, Ordering::Relaxed);
        out.push_str(&line[copied..i]);
        for unit in stand_in(u).encode_utf16(&mut [0u16; 2]) {
            out.push_str(&format!("\\u{unit:04x}"));
        }
        i += 6;
        copied = i;
    }
    if copied == 0 {
        return line.into();
    }
    out.push_str(&line[copied..]);
    out.into()
}

/// JSON text with each stand-in written back as its surrogate's escape (stand-ins only occur inside strings).
pub fn json_out(text: &str) -> std::borrow::Cow<'_, str> {
    // Every stand-in's UTF-8 starts with 0xF4: most texts have none and are passed through.
    if !text.as_bytes().contains(&0xF4) || !text.chars().any(|c| unit_of(c).is_some()) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match unit_of(c) {
            Some(u) => out.push_str(&format!("\\u{u:04x}")),
            None => out.push(c),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_round_trip_through_json() {
        let line = r#"{"a":"x\ud800y","b":"\ud83d\ude00","c":"\\ud800","d":"\udc00"}"#;
        let v: serde_json::Value = serde_json::from_str(&json_in(line)).unwrap();
        assert_eq!(v["a"].as_str().unwrap(), format!("x{}y", stand_in(0xd800)));
        assert_eq!(v["b"], "😀", "a pair stays a pair");
        assert_eq!(v["c"], "\\ud800", "an escaped backslash is text");
        assert_eq!(
            json_out(&serde_json::to_string(&v).unwrap()),
            r#"{"a":"x\ud800y","b":"😀","c":"\\ud800","d":"\udc00"}"#
        );
    }
}
