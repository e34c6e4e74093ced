//! Frontmatter YAML read under the contract (R12–R16), not under the YAML library's rules: one YAML 1.2
//! document, core schema, read into JSON data only. yaml-rust supplies the tokens and events; this module
//! builds the values itself, iteratively, and refuses with a located reason: characters outside the
//! allowed set (R13), directives, tags, a second document (R12), keys that are not strings, too long or
//! duplicated, integers beyond ±(2^53−1), non-finite floats (R14), nesting past yaml_max_depth (R15), more
//! alias expansions, values or string bytes than the bounds (R16). It records each top-level key's line.
use crate::jsval::{js_number, number_value};
use crate::limits::limits;
use crate::messages::msg;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use yaml_rust::parser::{Event, Parser};
use yaml_rust::scanner::{Marker, ScanError, Scanner, TScalarStyle, Token, TokenType};

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
    /// R93: the values read as their source text, in document order (only with `parse_text_fields`).
    pub as_text: Vec<TextNote>,
}

/// R93: a plain scalar written where the contract types a string, which YAML's core schema reads as a number or a
/// boolean, kept as its source text.
#[derive(Debug, Clone, PartialEq)]
pub struct TextNote {
    /// The field: a top-level key, or `metadata.<key>`.
    pub field: String,
    pub source: String,
    /// What the core schema reads: "the number 1.1", "the boolean true".
    pub read: String,
    /// 1-based line within the YAML text.
    pub line: usize,
}

/// R93: the top-level fields the contract types as strings, and the mappings whose values are strings.
const TEXT_TOP: [&str; 6] = [
    "name",
    "description",
    "compatibility",
    "license",
    "version",
    "argument-hint",
];
const TEXT_WITHIN: [&str; 1] = ["metadata"];

/// What a value costs once aliases are expanded: alias expansions, nodes, collection levels, string bytes.
#[derive(Debug, Clone, Copy, Default)]
struct Cost {
    aliases: u64,
    nodes: u64,
    height: usize,
    bytes: u64,
}

impl Cost {
    fn add(&mut self, child: &Cost) {
        self.aliases += child.aliases;
        self.nodes += child.nodes;
        self.bytes += child.bytes;
        self.height = self.height.max(child.height);
    }
}

enum Frame {
    /// `core`: as the Map's, by index (R160: a list inside a text field keeps its scalars as text too).
    Seq {
        items: Vec<Value>,
        anchor: usize,
        cost: Cost,
        core: Vec<(usize, Value, u64)>,
    },
    /// `core`: the values read as text (R93, R160) as the core schema reads them, with their source bytes (a
    /// collection's: every text its copy drops): what an alias of this mapping copies (a copy is not at a text
    /// field's place).
    Map {
        map: Map<String, Value>,
        anchor: usize,
        cost: Cost,
        key: Option<String>,
        seen: HashSet<String>,
        core: Vec<(String, Value, u64)>,
    },
}

/// Why the builder stopped: a refusal after which the rest is read for syntax only, or R15's depth bound met
/// where a collection opens, final on its line (R26): nothing after it is read.
enum Refused {
    Content(YamlError),
    Deep(YamlError),
}

impl From<YamlError> for Refused {
    fn from(e: YamlError) -> Self {
        Refused::Content(e)
    }
}

struct Builder<'t> {
    text: &'t str,
    /// The char index of the last event read (where an empty key's `?` may be found after).
    prev: usize,
    stack: Vec<Frame>,
    root: Option<Value>,
    /// Each anchor's value as the core schema reads it, its cost, and for a plain scalar YAML reads as a number or
    /// a boolean its source text (R93: an alias of it at a text field's place is that text).
    anchors: HashMap<usize, (Value, Cost, Option<String>)>,
    total: Cost,
    key_lines: HashMap<String, usize>,
    /// R93 applies (the frontmatter's reading), and what it kept as text.
    text_fields: bool,
    as_text: Vec<TextNote>,
}

fn at(reason: String, mark: &Marker) -> YamlError {
    YamlError {
        reason,
        line: Some(mark.line()),
    }
}

fn clip_chars(s: &str, max: usize) -> String {
    if s.chars().count() > max {
        format!("{}…", s.chars().take(max).collect::<String>())
    } else {
        s.to_string()
    }
}

/// The anchor name an alias at `index` (a char index) spells: the text after `*` up to a separator.
fn alias_name(text: &str, index: usize) -> String {
    text.chars()
        .skip(index + 1)
        .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
        .collect()
}

/// A yaml-rust error in the contract's words where it has them; otherwise yaml-rust's own (R12 leaves
/// a parser's wording of a syntax error to the implementation). The flag says it is one of the contract's own
/// refusals, which yaml-rust raises as errors (R26 orders those as refusals, not as syntax errors).
fn scan_error(e: ScanError, text: &str) -> (YamlError, bool) {
    let info = info(&e);
    let mark = e.marker();
    let refusal = |reason: String| (at(reason, mark), true);
    let reason = match info.as_str() {
        "while scanning a quoted scalar, found unexpected end of stream" => {
            let quote = if text.chars().nth(mark.index()) == Some('\'') {
                "'"
            } else {
                "\""
            };
            return (
                YamlError {
                    reason: msg("yaml.unclosed_quote", &[("quote", quote)]),
                    line: Some(text.matches('\n').count() + 1),
                },
                false,
            );
        }
        // prescan keeps yaml-rust's parser below its flow nesting limit; this stays in case it ever is not.
        "recursion limit exceeded" => return refusal(too_deep(mark).reason),
        "did not find expected <document start>" => {
            return refusal(msg("yaml.second_document", &[]))
        }
        "while parsing node, found unknown anchor" => {
            return refusal(msg(
                "yaml.unknown_alias",
                &[("anchor", &alias_name(text, mark.index()))],
            ))
        }
        "while parsing a quoted scalar, found invalid Unicode character escape code"
            if surrogate_escape(text) =>
        {
            return refusal(msg("yaml.surrogate_escape", &[]));
        }
        // yaml-rust reports a tab-indented continuation line at the scalar it would continue; the contract's
        // reader reports the line that holds the tab.
        "while scanning a plain scalar, found a tab" => {
            return (
                YamlError {
                    reason: msg("yaml.tab_indent", &[]),
                    line: Some(indent_tab_line(text, mark)),
                },
                false,
            );
        }
        "mapping values are not allowed in this context" => msg("yaml.compact_mapping", &[]),
        "while parsing a flow sequence, expected ',' or ']'" => msg("yaml.flow_sequence", &[]),
        "while parsing a flow mapping, did not find expected ',' or '}'" => {
            msg("yaml.flow_map", &[])
        }
        _ => match info
            .strip_prefix("unexpected character: `")
            .and_then(|rest| rest.strip_suffix('\''))
        {
            Some(c @ ("@" | "`")) => msg("yaml.reserved", &[("indicator", c)]),
            _ => info,
        },
    };
    (at(reason, mark), false)
}

/// The 1-based line of the first line after `mark` whose indentation holds a tab (the mark's line if none).
fn indent_tab_line(text: &str, mark: &Marker) -> usize {
    text.split('\n')
        .enumerate()
        .skip(mark.line())
        .find(|(_, l)| l.trim_start_matches(' ').starts_with('\t'))
        .map_or(mark.line(), |(i, _)| i + 1)
}

fn surrogate_escape(text: &str) -> bool {
    static P: OnceLock<regex::Regex> = OnceLock::new();
    P.get_or_init(|| regex::Regex::new(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}").expect("pattern"))
        .is_match(text)
}

/// R13: the first character a frontmatter may not hold, with its line.
pub fn forbidden_char(text: &str) -> Option<YamlError> {
    let mut line = 1;
    for c in text.chars() {
        match c {
            '\n' => line += 1,
            '\t' => {}
            '\r' => {
                return Some(YamlError {
                    reason: msg("yaml.lone_cr", &[]),
                    line: Some(line),
                })
            }
            '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}' => {
                let code = format!("U+{:04X}", c as u32);
                return Some(YamlError {
                    reason: msg("yaml.forbidden_char", &[("char", &code)]),
                    line: Some(line),
                });
            }
            _ => {}
        }
    }
    None
}

fn tag_text(handle: &str, suffix: &str) -> String {
    if handle.is_empty() {
        suffix.to_string()
    } else {
        format!("{handle}{suffix}")
    }
}

/// A refusal no event of yaml-rust's carries, met at its char index: a tag (a collection's is on no event, R14),
/// a directive (R12), or a '%' line inside an open document, a syntax error (yaml-rust's scanner takes any '%' at
/// a line's start for a directive; YAML 1.2 has one only before a document or after a '...' line).
#[derive(Clone)]
struct Pending {
    error: YamlError,
    index: usize,
    syntax: bool,
}

/// What one pass over yaml-rust's tokens finds before any value is built (R26: each is met where it stands).
struct Scan {
    /// The first `Pending`; `read` refuses it at the first event past it.
    first: Option<Pending>,
    /// R15 met at token level: the depth refusal and the byte length of the text to read (through the
    /// too-deep collection's start; depth is final there, nothing after it counts).
    deep: Option<(YamlError, usize)>,
}

fn too_deep(mark: &Marker) -> YamlError {
    at(
        msg(
            "yaml.too_deep",
            &[("max", &limits().yaml_max_depth.to_string())],
        ),
        mark,
    )
}

/// Where an empty key is: the explicit key's `?` between the event before it (`after`, a char index) and its
/// empty scalar, when there is one; else the scalar. Scanned again only when such a key is refused.
fn empty_key_mark(text: &str, after: usize, scalar: &Marker) -> Marker {
    Scanner::new(text.chars())
        .take_while(|Token(m, _)| m.index() < scalar.index())
        .filter(|Token(m, t)| matches!(t, TokenType::Key) && m.index() >= after)
        .last()
        .map_or(*scalar, |Token(m, _)| m)
}

/// The byte offset of char index `index` in `text` (yaml-rust's marks count chars).
fn byte_at(text: &str, index: usize) -> usize {
    text.char_indices()
        .nth(index)
        .map_or(text.len(), |(b, _)| b)
}

/// The byte offset just past 1-based line `line` (its line feed included).
fn line_end(text: &str, line: usize) -> usize {
    text.match_indices('\n')
        .nth(line.saturating_sub(1))
        .map_or(text.len(), |(b, _)| b + 1)
}

/// yaml-rust's own wording of a scanner error.
fn info(e: &ScanError) -> String {
    #[allow(deprecated)]
    std::error::Error::description(e).to_string()
}

/// The first directive or tag, and where token-level collection nesting first passes yaml_max_depth. Open
/// collections are counted from the tokens (flow starts and block starts open, flow ends and block ends close):
/// a lower bound of the value's depth, so nothing the depth rule accepts is refused, and yaml-rust's parser
/// is never given more than yaml_max_depth + 1 open brackets (its scanner fails at 256).
fn prescan(text: &str) -> Scan {
    if !needs_prescan(text) {
        return Scan {
            first: None,
            deep: None,
        };
    }
    let mut tokens = Scanner::new(text.chars());
    let scan = walk(&mut tokens, text);
    let Some(e) = tokens
        .get_error()
        .filter(|e| scan.deep.is_none() && info(e) == "recursion limit exceeded")
    else {
        return scan;
    };
    // yaml-rust's simple-key lookahead runs up to 1,024 characters ahead on a line, so 256 brackets there fail
    // the scan before the tokens ahead of them come out (a tag before them, the 65th bracket). The text before
    // the failing bracket nests 255 deep, so read alone it passes the bound and gives up those tokens.
    let end = byte_at(text, e.marker().index());
    let mut again = walk(&mut Scanner::new(text[..end].chars()), &text[..end]);
    // Never expected; still, nothing past yaml-rust's limit is read.
    again.deep = again.deep.or_else(|| Some((too_deep(e.marker()), end)));
    again
}

/// Whether `prescan` can find anything in `text`: a tag needs a '!', a directive a '%', a second '...' a '...' line,
/// and every token that opens
/// a collection comes from one character: '[' or '{', or a '-', '?' or ':' followed by a blank, a line break or the
/// end (yaml-rust's block entry, key and block value indicators; each rolls at most one indentation level). When
/// there is neither '!' nor '%' and fewer such characters than the depth bound, the token pass is skipped: for
/// ordinary frontmatter it was a second full scan of the text, 37% of discovery's instructions.
fn needs_prescan(text: &str) -> bool {
    // R148: a '...' line may be followed by another, which only the token pass sees.
    if text.starts_with("...") || text.contains("\n...") {
        return true;
    }
    let bytes = text.as_bytes();
    let blank_after = |i: usize| {
        matches!(
            bytes.get(i + 1),
            None | Some(b' ' | b'\t' | b'\r' | b'\n' | 0)
        )
    };
    let mut openers = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'!' | b'%' => return true,
            b'[' | b'{' => openers += 1,
            b'-' | b'?' | b':' if blank_after(i) => openers += 1,
            _ => continue,
        }
        if openers > limits().yaml_max_depth {
            return true;
        }
    }
    false
}

/// One pass of `prescan` over `text`'s tokens, stopping where nesting passes the bound.
fn walk(tokens: &mut Scanner<std::str::Chars<'_>>, text: &str) -> Scan {
    let max = limits().yaml_max_depth;
    let (mut flow, mut block, mut first, mut open, mut ended) =
        (0usize, 0usize, None, false, false);
    while let Some(Token(mark, token)) = tokens.next() {
        let pending = |error, syntax| {
            Some(Pending {
                error: at(error, &mark),
                index: mark.index(),
                syntax,
            })
        };
        match &token {
            TokenType::FlowSequenceStart | TokenType::FlowMappingStart => flow += 1,
            TokenType::BlockSequenceStart | TokenType::BlockMappingStart => block += 1,
            TokenType::FlowSequenceEnd | TokenType::FlowMappingEnd => flow = flow.saturating_sub(1),
            TokenType::BlockEnd => block = block.saturating_sub(1),
            TokenType::VersionDirective(..) | TokenType::TagDirective(..) if first.is_none() => {
                first = if open {
                    pending(msg("yaml.directive_in_document", &[]), true)
                } else {
                    pending(msg("yaml.directive", &[]), false)
                };
            }
            TokenType::Tag(handle, suffix) if first.is_none() => {
                first = pending(
                    msg("yaml.tag", &[("tag", &tag_text(handle, suffix))]),
                    false,
                )
            }
            // R148: after a '...' line only blanks and comments may follow; another '...' is a second document's
            // content (yaml-rust skips it silently).
            TokenType::DocumentEnd if ended && !open && first.is_none() => {
                first = pending(msg("yaml.second_document", &[]), false)
            }
            _ => {}
        }
        ended |= matches!(token, TokenType::DocumentEnd);
        // A document is open from its first token to a '...' line.
        open = match token {
            TokenType::DocumentEnd => false,
            TokenType::StreamStart(..)
            | TokenType::StreamEnd
            | TokenType::VersionDirective(..)
            | TokenType::TagDirective(..) => open,
            _ => true,
        };
        if flow + block > max {
            // A flow collection is read through its bracket; a block one through its line (a key's ':' comes after
            // the start), or up to where the scanner stops on that line.
            let end = match token {
                TokenType::FlowSequenceStart | TokenType::FlowMappingStart => {
                    byte_at(text, mark.index()) + 1
                }
                _ => block_line_end(tokens, text, mark.line()),
            };
            return Scan {
                first,
                deep: Some((too_deep(&mark), end)),
            };
        }
    }
    Scan { first, deep: None }
}

/// The end of `line`, or, when the scanner fails on it, where it fails.
fn block_line_end(tokens: &mut Scanner<std::str::Chars<'_>>, text: &str, line: usize) -> usize {
    if tokens.by_ref().any(|Token(m, _)| m.line() > line) {
        return line_end(text, line);
    }
    match tokens.get_error() {
        Some(e) if e.marker().line() == line => byte_at(text, e.marker().index()),
        _ => line_end(text, line),
    }
}

impl<'t> Builder<'t> {
    fn check_totals(&self, mark: &Marker) -> Result<(), YamlError> {
        let lim = limits();
        if self.total.aliases > lim.yaml_max_aliases {
            return Err(at(
                msg(
                    "yaml.too_many_aliases",
                    &[("max", &lim.yaml_max_aliases.to_string())],
                ),
                mark,
            ));
        }
        if self.total.nodes > lim.yaml_max_nodes {
            return Err(at(
                msg(
                    "yaml.too_many_values",
                    &[("max", &lim.yaml_max_nodes.to_string())],
                ),
                mark,
            ));
        }
        if self.total.bytes > lim.skill_md_max_bytes {
            return Err(at(
                msg(
                    "yaml.strings_too_large",
                    &[("max", &lim.skill_md_max_bytes.to_string())],
                ),
                mark,
            ));
        }
        Ok(())
    }

    fn key_of(&self, v: &Value, mark: &Marker) -> Result<String, YamlError> {
        let shown = match v {
            Value::String(s) => {
                let length = s.chars().count();
                let max = limits().yaml_max_key_length;
                if length > max {
                    return Err(at(
                        msg(
                            "yaml.key_too_long",
                            &[("length", &length.to_string()), ("max", &max.to_string())],
                        ),
                        mark,
                    ));
                }
                return Ok(s.clone());
            }
            Value::Null => msg("yaml.key_null", &[]),
            Value::Bool(b) => format!("boolean {b}"),
            Value::Number(n) => format!(
                "number {}",
                n.as_f64().map(js_number).unwrap_or_else(|| n.to_string())
            ),
            _ => msg("yaml.key_collection", &[]),
        };
        // An empty key is where the `?` that opens it is (R26); yaml-rust places its empty scalar at the next token.
        let mark = if v.is_null() {
            empty_key_mark(self.text, self.prev, mark)
        } else {
            *mark
        };
        Err(at(msg("yaml.key_not_string", &[("got", &shown)]), &mark))
    }

    /// Put a finished value where it belongs: the root, a list, a key, or a key's value.
    fn push(&mut self, v: Value, cost: Cost, mark: &Marker) -> Result<(), Refused> {
        self.push_core(v, cost, mark, None)
    }

    /// `push`, and when the value holds text R93/R160 kept, its core-schema reading and the bytes that reading drops:
    /// the parent's copy for an alias is patched with it.
    fn push_core(
        &mut self,
        v: Value,
        cost: Cost,
        mark: &Marker,
        core: Option<(Value, u64)>,
    ) -> Result<(), Refused> {
        match (self.stack.last_mut(), core) {
            (
                Some(Frame::Seq {
                    items,
                    core: overrides,
                    ..
                }),
                Some((c, bytes)),
            ) => overrides.push((items.len(), c, bytes)),
            (
                Some(Frame::Map {
                    key: Some(key),
                    core: overrides,
                    ..
                }),
                Some((c, bytes)),
            ) => overrides.push((key.clone(), c, bytes)),
            _ => {}
        }
        let top_level = self.stack.len() == 1;
        let key = match self.stack.last() {
            Some(Frame::Map { key: None, .. }) => Some(self.key_of(&v, mark)?),
            _ => None,
        };
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some(Frame::Seq { items, cost: c, .. }) => {
                items.push(v);
                c.add(&cost);
            }
            Some(Frame::Map {
                map,
                cost: c,
                key: pending,
                seen,
                ..
            }) => {
                c.add(&cost);
                match key {
                    None => {
                        map.insert(pending.take().unwrap_or_default(), v);
                    }
                    Some(k) => {
                        if !seen.insert(k.clone()) {
                            return Err(at(
                                msg("yaml.duplicate_key", &[("key", &clip_chars(&k, 64))]),
                                mark,
                            )
                            .into());
                        }
                        if top_level {
                            self.key_lines.entry(k.clone()).or_insert(mark.line());
                        }
                        *pending = Some(k);
                    }
                }
            }
        }
        Ok(())
    }

    fn open(&mut self, frame: Frame, mark: &Marker) -> Result<(), Refused> {
        // R26: depth is checked where a collection opens, before what it is for (a key past the bound is depth).
        if self.stack.len() >= limits().yaml_max_depth {
            return Err(Refused::Deep(too_deep(mark)));
        }
        if let Some(Frame::Map { key: None, .. }) = self.stack.last() {
            return Err(at(
                msg(
                    "yaml.key_not_string",
                    &[("got", &msg("yaml.key_collection", &[]))],
                ),
                mark,
            )
            .into());
        }
        self.total.nodes += 1;
        self.check_totals(mark)?;
        self.stack.push(frame);
        Ok(())
    }

    fn close(&mut self, mark: &Marker) -> Result<(), Refused> {
        let (v, anchor, mut cost, by_key, by_index) = match self.stack.pop() {
            Some(Frame::Seq {
                items,
                anchor,
                cost,
                core,
            }) => (Value::Array(items), anchor, cost, Vec::new(), core),
            Some(Frame::Map {
                map,
                anchor,
                cost,
                core,
                ..
            }) => (
                Value::Object(crate::jsval::js_key_order(map)),
                anchor,
                cost,
                core,
                Vec::new(),
            ),
            None => return Ok(()),
        };
        cost.nodes += 1;
        cost.height += 1;
        if by_key.is_empty() && by_index.is_empty() {
            if anchor > 0 {
                self.anchors.insert(anchor, (v.clone(), cost, None));
            }
            return self.push(v, cost, mark);
        }
        // An alias copies what the core schema reads (R93 keeps text only at a text field's own place), at any depth.
        let (mut copy, mut dropped) = (v.clone(), 0u64);
        for (key, value, bytes) in by_key {
            copy[key.as_str()] = value;
            dropped += bytes;
        }
        for (index, value, bytes) in by_index {
            copy[index] = value;
            dropped += bytes;
        }
        if anchor > 0 {
            self.anchors.insert(
                anchor,
                (
                    copy.clone(),
                    Cost {
                        bytes: cost.bytes - dropped,
                        ..cost
                    },
                    None,
                ),
            );
        }
        self.push_core(v, cost, mark, Some((copy, dropped)))
    }

    /// R93: the field a value pushed now would be, when the contract types it as a string: a top-level key of
    /// TEXT_TOP, or `metadata.<key>` for a key of a TEXT_WITHIN mapping; R160: also anywhere inside a list or
    /// mapping there (`version[0]`, `metadata.v[0].k`). None elsewhere, for a key, and outside the frontmatter.
    fn text_field(&self) -> Option<String> {
        if !self.text_fields {
            return None;
        }
        let Some(Frame::Map { key: Some(top), .. }) = self.stack.first() else {
            return None;
        };
        let (mut path, from) = if TEXT_TOP.contains(&top.as_str()) {
            (top.clone(), 1)
        } else if TEXT_WITHIN.contains(&top.as_str()) {
            match self.stack.get(1) {
                Some(Frame::Map { key: Some(key), .. }) => (format!("{top}.{key}"), 2),
                _ => return None,
            }
        } else {
            return None;
        };
        for frame in self.stack.iter().skip(from) {
            match frame {
                Frame::Seq { items, .. } => path.push_str(&format!("[{}]", items.len())),
                Frame::Map { key: Some(key), .. } => {
                    path.push('.');
                    path.push_str(key);
                }
                Frame::Map { key: None, .. } => return None,
            }
        }
        Some(path)
    }

    /// R93: keep `source` as the value of `field`, note it, and remember the core schema's reading for an alias of
    /// the mapping it is in.
    fn push_text(
        &mut self,
        field: String,
        source: &str,
        read: String,
        core: Option<Value>,
        cost: Cost,
        mark: &Marker,
    ) -> Result<(), Refused> {
        self.total.nodes += cost.nodes;
        self.total.bytes += source.len() as u64;
        self.total.aliases += cost.aliases;
        self.check_totals(mark)?;
        self.as_text.push(TextNote {
            field,
            source: source.to_string(),
            read,
            line: mark.line(),
        });
        self.push_core(
            Value::String(source.to_string()),
            Cost {
                bytes: source.len() as u64,
                ..cost
            },
            mark,
            core.map(|c| (c, source.len() as u64)),
        )
    }

    fn scalar(
        &mut self,
        value: String,
        style: TScalarStyle,
        tag: Option<TokenType>,
        anchor: usize,
        mark: &Marker,
    ) -> Result<(), Refused> {
        if let Some(TokenType::Tag(handle, suffix)) = tag {
            return Err(at(
                msg("yaml.tag", &[("tag", &tag_text(&handle, &suffix))]),
                mark,
            )
            .into());
        }
        // A plain scalar never starts with whitespace: yaml-rust lets a tab-indented line through as one.
        if style == TScalarStyle::Plain && value.starts_with(['\t', ' ']) {
            return Err(at(msg("yaml.tab_indent", &[]), mark).into());
        }
        let plain = style == TScalarStyle::Plain;
        let words = if plain { read_as_words(&value) } else { None };
        if let (Some(read), Some(field)) = (&words, self.text_field()) {
            // R93: a number or boolean where the contract types a string is its source text.
            let core = resolve_plain(&value).ok();
            if anchor > 0 {
                self.anchors.insert(
                    anchor,
                    (
                        core.clone().unwrap_or(Value::Null),
                        Cost {
                            nodes: 1,
                            ..Cost::default()
                        },
                        Some(value.clone()),
                    ),
                );
            }
            return self.push_text(
                field,
                &value,
                read.clone(),
                core,
                Cost {
                    nodes: 1,
                    ..Cost::default()
                },
                mark,
            );
        }
        let v = if plain {
            resolve_plain(&value).map_err(|r| at(r, mark))?
        } else {
            Value::String(value.clone())
        };
        let bytes = v.as_str().map_or(0, |s| s.len() as u64);
        self.total.nodes += 1;
        self.total.bytes += bytes;
        self.check_totals(mark)?;
        let cost = Cost {
            nodes: 1,
            bytes,
            ..Cost::default()
        };
        if anchor > 0 {
            self.anchors
                .insert(anchor, (v.clone(), cost, words.map(|_| value)));
        }
        self.push(v, cost, mark)
    }

    fn alias(&mut self, id: usize, mark: &Marker) -> Result<(), Refused> {
        let Some((v, inner, source)) = self.anchors.get(&id) else {
            // yaml-rust knows the anchor but its node is not complete yet: an alias inside its own anchor.
            return Err(at(
                msg(
                    "yaml.unknown_alias",
                    &[("anchor", &alias_name(self.text, mark.index()))],
                ),
                mark,
            )
            .into());
        };
        // R93: an alias of a plain scalar YAML reads as a number or boolean, at a text field's place, is its text.
        if let (Some(source), Some(field)) = (source.clone(), self.text_field()) {
            let (core, read) = (
                Some(v.clone()).filter(|c| !c.is_null()),
                read_as_words(&source).unwrap_or_default(),
            );
            return self.push_text(
                field,
                &source,
                read,
                core,
                Cost {
                    aliases: 1,
                    nodes: 1,
                    ..Cost::default()
                },
                mark,
            );
        }
        // Every alias counts one, and so does each alias met again inside the copy it makes (R16).
        let cost = Cost {
            aliases: 1 + inner.aliases,
            ..*inner
        };
        self.total.aliases += cost.aliases;
        self.total.nodes += cost.nodes;
        self.total.bytes += cost.bytes;
        self.check_totals(mark)?;
        let max = limits().yaml_max_depth;
        if self.stack.len() + cost.height > max {
            return Err(at(
                msg("yaml.too_deep_expanded", &[("max", &max.to_string())]),
                mark,
            )
            .into());
        }
        let v = v.clone();
        self.push(v, cost, mark)
    }
}

/// The first syntax error the parser meets reading on (values no longer built: linear), if any. A refusal the
/// parser raises itself comes after the one that stopped the building: that one stands.
fn syntax_on(mut parser: Parser<std::str::Chars<'_>>, text: &str) -> Option<YamlError> {
    loop {
        match parser.next() {
            Err(e) => {
                return Some(scan_error(e, text))
                    .filter(|(_, refusal)| !refusal)
                    .map(|(s, _)| s)
            }
            Ok((Event::StreamEnd, _)) => return None,
            Ok(_) => {}
        }
    }
}

/// Parse one YAML document under the contract. Never panics and never recurses on the input's shape.
/// R25/R26: every refusal of the contract and a syntax error are weighed by line; the refusal wins only on an
/// earlier line (a depth refusal also on its own line).
pub fn parse(text: &str) -> Result<Document, YamlError> {
    parse_fields(text, false)
}

/// `parse`, with R93's text fields read as their source text (the frontmatter's reading).
pub fn parse_text_fields(text: &str) -> Result<Document, YamlError> {
    parse_fields(text, true)
}

fn parse_fields(text: &str, fields: bool) -> Result<Document, YamlError> {
    // R13's characters are checked on the whole text before it is read as YAML: one anywhere wins.
    if let Some(e) = forbidden_char(text) {
        return Err(e);
    }
    let Scan { first, deep } = prescan(text);
    let Some((depth, end)) = deep else {
        return settle(text, read(text, first, fields), usize::MAX, fields);
    };
    // R15/R26: depth is final on its own line. Only the text through the too-deep collection's start is read,
    // and a syntax error on that line, the cut's own included (an unclosed bracket), never counts: the answer is
    // a refusal on an earlier line, a tag or directive before the collection on its line, or depth.
    let line = depth.line.unwrap_or(1);
    let prefix = &text[..end];
    match read(prefix, first.clone(), fields) {
        Err(Stop::Syntax(s)) if s.line.unwrap_or(1) >= line => Err(earlier(prefix, line, fields)
            .or(first.filter(|p| !p.syntax).map(|p| p.error))
            .unwrap_or(depth)),
        // Never expected: yaml-rust's events nest at least as deep as its tokens.
        Ok(_) => Err(depth),
        stop => settle(prefix, stop, line, fields),
    }
}

/// R25/R26: the answer once a reading has stopped. Syntax errors on line `limit` or later (depth's) never count.
fn settle<'t>(
    text: &'t str,
    stop: Result<Document, Stop<'t>>,
    limit: usize,
    fields: bool,
) -> Result<Document, YamlError> {
    match stop {
        Ok(doc) => Ok(doc),
        Err(Stop::Final(e)) => Err(e),
        // Past a refusal the values stop being built; the rest is read for syntax only (linear), and a syntax
        // error on the refusal's line or before it is the answer.
        Err(Stop::Content(refusal, parser)) => Err(match syntax_on(parser, text) {
            Some(s)
                if s.line.unwrap_or(0) <= refusal.line.unwrap_or(0)
                    && s.line.unwrap_or(0) < limit =>
            {
                s
            }
            _ => refusal,
        }),
        Err(Stop::Syntax(e) | Stop::Refused(e)) => {
            Err(earlier(text, e.line.unwrap_or(1), fields).unwrap_or(e))
        }
    }
}

/// A refusal on a line before `line`, found by reading the lines before it again, alone: the reader stops at a
/// syntax error maybe before it has built the values of the lines before it (yaml-rust scans ahead).
fn earlier(text: &str, line: usize, fields: bool) -> Option<YamlError> {
    let cut = if line > 1 {
        line_end(text, line - 1)
    } else {
        0
    };
    if cut == 0 || cut >= text.len() {
        return None;
    }
    parse_fields(&text[..cut], fields)
        .err()
        .filter(|e| e.line.is_some_and(|l| l < line))
}

/// Where a reading stopped: at a refusal of the contract (with the parser, to read on for syntax), at a syntax
/// error, at a refusal the parser raised itself (no reading on), or at a refusal nothing after it can outweigh
/// (depth; a tag or directive before a syntax error's line).
enum Stop<'t> {
    Content(YamlError, Parser<std::str::Chars<'t>>),
    Syntax(YamlError),
    Refused(YamlError),
    Final(YamlError),
}

/// Build the document from yaml-rust's events; `first` (prescan's first tag or directive) is refused at the
/// first event past its place.
fn read(text: &str, first: Option<Pending>, text_fields: bool) -> Result<Document, Stop<'_>> {
    let mut parser = Parser::new(text.chars());
    let mut b = Builder {
        text,
        prev: 0,
        stack: Vec::new(),
        root: None,
        anchors: HashMap::new(),
        total: Cost::default(),
        key_lines: HashMap::new(),
        text_fields,
        as_text: Vec::new(),
    };
    let mut documents = 0;
    loop {
        let (event, mark) = match parser.next() {
            Ok(next) => next,
            Err(e) => {
                let index = e.marker().index();
                let (error, refusal) = scan_error(e, text);
                // R26: a tag or directive on a line before a syntax error's, or before a refusal the parser raises,
                // was met first (yaml-rust may stop before the event past it: it reads ahead); a '%' line in a
                // document (a syntax error at a line's start), on the error's line too.
                return Err(match first {
                    Some(p) if p.syntax && p.error.line <= error.line => Stop::Syntax(p.error),
                    Some(p)
                        if !p.syntax
                            && (p.error.line < error.line || (refusal && p.index < index)) =>
                    {
                        Stop::Final(p.error)
                    }
                    _ if refusal => Stop::Refused(error),
                    _ => Stop::Syntax(error),
                });
            }
        };
        // R26: a tag is met at its property, before the node it belongs to (yaml-rust's events carry no
        // collection's tag), a directive where it stands: the first event past its place is where it is refused.
        if let Some(p) = first.as_ref().filter(|p| mark.index() > p.index) {
            return Err(if p.syntax {
                Stop::Syntax(p.error.clone())
            } else {
                Stop::Content(p.error.clone(), parser)
            });
        }
        let step = match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    Err(at(msg("yaml.second_document", &[]), &mark).into())
                } else {
                    Ok(())
                }
            }
            Event::Scalar(value, style, anchor, tag) => b.scalar(value, style, tag, anchor, &mark),
            Event::Alias(id) => b.alias(id, &mark),
            Event::SequenceStart(anchor) => b.open(
                Frame::Seq {
                    items: Vec::new(),
                    anchor,
                    cost: Cost::default(),
                    core: Vec::new(),
                },
                &mark,
            ),
            Event::MappingStart(anchor) => b.open(
                Frame::Map {
                    map: Map::new(),
                    anchor,
                    cost: Cost::default(),
                    key: None,
                    seen: HashSet::new(),
                    core: Vec::new(),
                },
                &mark,
            ),
            Event::SequenceEnd | Event::MappingEnd => b.close(&mark),
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => Ok(()),
        };
        match step {
            Ok(()) => {}
            Err(Refused::Deep(e)) => return Err(Stop::Final(e)),
            Err(Refused::Content(e)) => return Err(Stop::Content(e, parser)),
        }
        b.prev = mark.index();
    }
    Ok(Document {
        root: b.root,
        key_lines: b.key_lines,
        as_text: b.as_text,
    })
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
        Err(_) => digits.chars().fold(0.0, |acc, c| {
            acc * base as f64 + c.to_digit(base).unwrap_or(0) as f64
        }),
    }
}

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The YAML 1.2 core schema's reading of a plain scalar, as JSON data (R12, R14): an integer beyond
/// ±(2^53−1) or a non-finite float is refused rather than changed.
pub fn resolve_plain(s: &str) -> Result<Value, String> {
    match core_read(s) {
        None => Ok(Value::String(s.to_string())),
        Some(Core::Null) => Ok(Value::Null),
        Some(Core::Bool(b)) => Ok(Value::Bool(b)),
        Some(Core::Int(v)) if v.abs() > MAX_SAFE_INTEGER => Err(msg(
            "yaml.unsafe_integer",
            &[("number", &clip_chars(s, 40))],
        )),
        Some(Core::Float(v)) if !v.is_finite() => Err(msg("yaml.not_finite", &[("number", s)])),
        Some(Core::Int(v) | Core::Float(v)) => Ok(number_value(v)),
    }
}

/// A plain scalar as YAML 1.2's core schema reads it; None for a string.
enum Core {
    Null,
    Bool(bool),
    Int(f64),
    Float(f64),
}

fn core_read(s: &str) -> Option<Core> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Core::Null),
        "true" | "True" | "TRUE" => return Some(Core::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Core::Bool(false)),
        _ => {}
    }
    // Every number pattern below starts with a sign, a '.' or a digit: most plain scalars are words and skip them.
    if !matches!(s.as_bytes()[0], b'-' | b'+' | b'.' | b'0'..=b'9') {
        return None;
    }
    let [int, oct, hex, float, special] = core_patterns();
    if int.is_match(s) {
        let (neg, digits) = match s.as_bytes()[0] {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        // Correctly rounded, as JavaScript's parseInt(…, 10) reads a long decimal (the yaml package's core int).
        let v = digits.parse::<f64>().unwrap_or_else(|_| radix(digits, 10));
        Some(Core::Int(if neg { -v } else { v }))
    } else if oct.is_match(s) {
        Some(Core::Int(radix(&s[2..], 8)))
    } else if hex.is_match(s) {
        Some(Core::Int(radix(&s[2..], 16)))
    } else if special.is_match(s) {
        Some(Core::Float(if s.contains(['n', 'N']) {
            f64::NAN
        } else if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }))
    } else if float.is_match(s) {
        Some(Core::Float(s.parse::<f64>().unwrap_or(f64::NAN)))
    } else {
        None
    }
}

/// R93: what the core schema reads a plain scalar as, in words, when that is a number or a boolean: "the number " and
/// the value as JavaScript's String() writes it (1.1, 1e+21, Infinity), or "the boolean true"; None otherwise.
fn read_as_words(s: &str) -> Option<String> {
    match core_read(s)? {
        Core::Null => None,
        Core::Bool(b) => Some(format!("the boolean {b}")),
        Core::Int(v) | Core::Float(v) => Some(format!("the number {}", js_number(v))),
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root(text: &str) -> Value {
        parse(text).expect("parses").root.expect("has a root")
    }

    fn refused(text: &str) -> (String, Option<usize>) {
        let e = parse(text).expect_err("should be refused");
        (e.reason, e.line)
    }

    #[test]
    fn core_schema_scalars() {
        let v = root(
            "a: yes\nb: True\nc: 0x1F\nd: 0o17\ne: 1.50\nf: ~\ng: '1'\nh: 007\ni: 1e3\nj: -0\n",
        );
        assert_eq!(
            v,
            json!({"a": "yes", "b": true, "c": 31, "d": 15, "e": 1.5, "f": null, "g": "1", "h": 7, "i": 1000, "j": 0})
        );
    }

    #[test]
    fn key_order_and_lines_are_kept() {
        let d = parse("zeta: 1\nalpha:\n  x: [a, b]\n").unwrap();
        assert_eq!(
            serde_json::to_string(&d.root.unwrap()).unwrap(),
            r#"{"zeta":1,"alpha":{"x":["a","b"]}}"#
        );
        assert_eq!(d.key_lines["alpha"], 2);
    }

    #[test]
    fn keys_are_unique_strings_of_bounded_length() {
        assert_eq!(
            refused("a: 1\nb: 2\n\"a\": 3\n"),
            ("duplicate key 'a'".into(), Some(3))
        );
        assert_eq!(
            refused("a: 1\n1: x\n").0,
            "mapping keys must be strings; got number 1 (quote it)"
        );
        assert_eq!(
            refused("~: x\n").0,
            "mapping keys must be strings; got an empty (null) key (quote it)"
        );
        assert_eq!(
            refused("[a]: x\n").0,
            "mapping keys must be strings; got a list or mapping (quote it)"
        );
        assert!(refused(&format!("{}: x\n", "k".repeat(129)))
            .0
            .starts_with("a mapping key is 129 characters long"));
    }

    #[test]
    fn json_data_only() {
        assert_eq!(refused("a: 1\nb: !!str 123\n"), ("a YAML tag (!!str) is not allowed: frontmatter values are JSON data; quote the value if it is text".into(), Some(2)));
        assert!(refused("a: !!set {x}\n")
            .0
            .starts_with("a YAML tag (!!set)"));
        assert!(refused("a: 9007199254740992\n")
            .0
            .starts_with("the integer 9007199254740992 is outside"));
        assert_eq!(
            root("a: 9007199254740991\n")["a"],
            json!(9007199254740991i64)
        );
        assert_eq!(
            refused("a: .inf\n").0,
            ".inf is not a JSON number (quote it to keep it as text)"
        );
        assert_eq!(
            refused("a: 1e400\n").0,
            "1e400 is not a JSON number (quote it to keep it as text)"
        );
        assert_eq!(refused("%YAML 1.2\n---\na: 1\n").1, Some(1));
        assert_eq!(refused("a: 1\n--- x\n").0, "frontmatter holds more than one YAML document (a '--- ' or '...' line inside it); quote the text or remove the marker");
    }

    #[test]
    fn integer_like_keys_come_first_as_in_a_javascript_object() {
        let v = root("b: 1\n'2024': x\n'10': y\n'01': z\na: 2\n");
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["10", "2024", "b", "01", "a"]);
    }

    #[test]
    fn a_tab_indented_line_is_reported_where_the_tab_is() {
        // As the contract's reader (the TS reference) locates it: the line holding the tab, not the scalar before it.
        assert_eq!(
            refused("a: b\nc: d\n\te: 1\n"),
            ("Tabs are not allowed as indentation".into(), Some(3))
        );
    }

    #[test]
    fn forbidden_characters_are_located() {
        assert_eq!(refused("a: 1\nb: x\u{7f}\n"), ("frontmatter contains the character U+007F; only printable text, tabs and line feeds are allowed".into(), Some(2)));
        assert_eq!(refused("a: x\ry\n").0, "frontmatter contains a carriage return not followed by a line feed; only printable text, tabs and line feeds are allowed");
        assert_eq!(root("a: \"\u{a0}x\u{3000}\"\n")["a"], "\u{a0}x\u{3000}");
    }

    #[test]
    fn alias_expansion_is_bounded() {
        let few = "a: &x {k: v}\nb: *x\nc: *x\n";
        assert_eq!(root(few)["c"], json!({"k": "v"}));
        let many: String = std::iter::once("a: &x v\nl:\n".to_string())
            .chain((0..150).map(|_| "  - *x\n".to_string()))
            .collect();
        assert_eq!(refused(&many), ("frontmatter expands more than 100 YAML aliases (counting aliases inside expanded ones)".into(), Some(103)));
        // 10 uses of an anchor holding 10 aliases count 10 + 100.
        let nested = "a: &a x\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b]\n";
        assert!(parse(nested).is_ok(), "8 × 11 + 10 = 98 expansions");
        assert!(
            parse(&nested.replace("*b]", "*b, *b]")).is_err(),
            "9 × 11 + 10 = 109 expansions"
        );
    }

    #[test]
    fn the_prescan_is_skipped_only_where_it_would_find_nothing() {
        let texts = [
            "name: a\ndescription: b\n".to_string(),
            "a: !!str x\n".into(),
            "%YAML 1.2\n---\na: 1\n".into(),
            "a:\n  - [x, {y: z}]\n  - ? k\n    : v\n".into(),
            format!("a:\n  {}x\n", "- ".repeat(63)),
            format!("a:\n  {}x\n", "- ".repeat(64)),
            format!("a: {}{}\n", "[".repeat(64), "]".repeat(64)),
            format!("a: {}\n", "[{".repeat(40)),
            (1..=70)
                .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
                .collect(),
            (1..=63)
                .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
                .collect(),
            "allowed-tools: Bash(git log:*) Read\nurl: http://x.y/a-b\n".into(),
        ];
        for t in &texts {
            let full = walk(&mut Scanner::new(t.chars()), t);
            if !needs_prescan(t) {
                assert!(
                    full.first.is_none() && full.deep.is_none(),
                    "skipped a prescan that finds something: {t:?}"
                );
            }
        }
        assert!(
            !needs_prescan(&texts[0]) && !needs_prescan(&texts[10]),
            "ordinary frontmatter skips it"
        );
        assert!(
            needs_prescan(&texts[1])
                && needs_prescan(&texts[2])
                && needs_prescan(&texts[5])
                && needs_prescan(&texts[8])
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("a: {}{}\n", "[".repeat(20000), "]".repeat(20000));
        assert!(parse(&deep).is_err());
        let block = format!("a:\n  {}x\n", "- ".repeat(20000));
        assert_eq!(
            refused(&block).0,
            "frontmatter nests deeper than 64 levels of lists and mappings"
        );
        let at_bound = format!("a: {}{}\n", "[".repeat(63), "]".repeat(63));
        assert!(
            parse(&at_bound).is_ok(),
            "the top-level mapping is level 1, so 63 lists inside it make 64"
        );
    }

    #[test]
    fn a_bound_and_a_syntax_error_the_first_by_line_the_syntax_error_on_a_tie() {
        // R25. 1 (the mapping) + 2 (name) + 2 per key: the value of the 5,000th key is value 10,001, on line 5,000.
        let pairs: String = (0..4999).map(|i| format!("k{i}: v\n")).collect();
        let bound = "frontmatter holds more than 10000 values (aliases expanded)";
        assert_eq!(
            refused(&format!("{pairs}k4999: v\nlate: a: b\n")),
            (bound.into(), Some(5000))
        );
        assert_eq!(refused(&format!("{pairs}k4999: v: w\n")).1, Some(5000));
        assert_ne!(refused(&format!("{pairs}k4999: v: w\n")).0, bound);
        assert_ne!(
            refused(&format!("early: a: b\n{pairs}k4999: v\n")),
            (bound.into(), Some(1))
        );
    }

    #[test]
    fn every_refusal_and_a_syntax_error_the_first_by_line() {
        // R26: each content refusal on a line before a syntax error wins; on the syntax error's line, or after it, it loses.
        let syntax = "Nested mappings are not allowed in compact mappings";
        assert_eq!(
            refused("a: 1\na: 2\nlate: a: b\n"),
            ("duplicate key 'a'".into(), Some(2))
        );
        assert_eq!(refused("1: one\nlate: a: b\n").1, Some(1));
        assert_eq!(refused("n: 99999999999999999999\nlate: a: b\n").1, Some(1));
        assert_eq!(refused("a: 1\na: b: c\n"), (syntax.into(), Some(2)));
        assert_eq!(
            refused("early: a: b\na: 1\na: 2\n"),
            (syntax.into(), Some(1))
        );
        // A tag is met at its property, lines before the block collection it tags.
        assert!(refused("a: !!omap\n  - x: a: b\n")
            .0
            .starts_with("a YAML tag (!!omap)"));
        assert_eq!(refused("a: !!omap\n  - x: a: b\n").1, Some(1));
        // The depth refusal is final on its own line; a syntax error before it still wins.
        let deep = format!("d: {}{}", "[".repeat(65), "]".repeat(65));
        assert_eq!(
            refused(&format!("{deep} ]\n")).0,
            "frontmatter nests deeper than 64 levels of lists and mappings"
        );
        assert_eq!(
            refused(&format!("early: a: b\n{deep}\n")),
            (syntax.into(), Some(1))
        );
        // A refusal in the first document comes before the second document's marker.
        assert_eq!(
            refused("a: 1\na: 2\n--- x\n"),
            ("duplicate key 'a'".into(), Some(2))
        );
    }

    const DIRECTIVE: &str = "YAML directives (%YAML, %TAG) are not allowed in frontmatter: it is always YAML 1.2, core schema";
    const DEPTH: &str = "frontmatter nests deeper than 64 levels of lists and mappings";
    const SECOND: &str = "frontmatter holds more than one YAML document (a '--- ' or '...' line inside it); quote the text or remove the marker";

    fn tag(t: &str) -> String {
        format!("a YAML tag ({t}) is not allowed: frontmatter values are JSON data; quote the value if it is text")
    }

    fn nest(n: usize) -> String {
        format!("{}1{}", "[".repeat(n), "]".repeat(n))
    }

    #[test]
    fn a_document_end_line_is_followed_only_by_blanks_and_comments() {
        // R148: '...' then nothing but blanks and comments is the one document; a second '...' is more content.
        assert!(parse("a: 1\n...\n# c\n\n").is_ok());
        assert_eq!(refused("a: 1\n...\n...\n"), (SECOND.into(), Some(3)));
        assert_eq!(
            refused("a: 1\n...\n# c\n... # d\n"),
            (SECOND.into(), Some(4))
        );
        assert_eq!(refused("a: 1\n...\nb: 2\n"), (SECOND.into(), Some(3)));
    }

    #[test]
    fn a_directive_after_a_first_document_comes_after_what_that_document_holds() {
        // R26, document order: the first document's refusals, its depth and a second document's earlier marker all
        // come before a directive that opens a later document.
        assert_eq!(
            refused("a: 1\na: 2\n...\n%YAML 1.2\n--- x\n"),
            ("duplicate key 'a'".into(), Some(2))
        );
        assert_eq!(
            refused("a: !!str x\n...\n%TAG ! tag:x,2000:\n--- y\n"),
            (tag("!!str"), Some(1))
        );
        assert_eq!(
            refused("a: 1\n--- x\n...\n%YAML 1.2\n--- y\n"),
            (SECOND.into(), Some(2))
        );
        assert_eq!(
            refused(&format!("a: {}\n...\n%YAML 1.2\n--- x\n", nest(65))),
            (DEPTH.into(), Some(1))
        );
        assert_eq!(
            refused(&format!("a: {}\n...\n%YAML 1.2\n--- x\n", nest(300))),
            (DEPTH.into(), Some(1))
        );
        // Met first, the directive wins over a later document's refusal and syntax error.
        assert_eq!(
            refused("a: 1\n...\n%YAML 1.2\n--- x: y: z\n"),
            (DIRECTIVE.into(), Some(3))
        );
        assert_eq!(
            refused("a: 1\n...\n%YAML 1.2\n"),
            (DIRECTIVE.into(), Some(3))
        );
        // A syntax error before it wins.
        assert_eq!(
            refused("a: b: c\n...\n%YAML 1.2\n--- x\n"),
            (
                "Nested mappings are not allowed in compact mappings".into(),
                Some(1)
            )
        );
    }

    #[test]
    fn a_directive_before_the_first_document_comes_first() {
        assert_eq!(
            refused("%YAML 1.2\n--- {a: 1, a: 2}\n"),
            (DIRECTIVE.into(), Some(1))
        );
        assert_eq!(
            refused("%TAG ! tag:x,2000:\n--- {a: b: c}\n"),
            (DIRECTIVE.into(), Some(1))
        );
        assert_eq!(
            refused("# c\n%YAML 1.2\n--- !!str x\n"),
            (DIRECTIVE.into(), Some(2))
        );
        assert_eq!(
            refused(&format!("%YAML 1.2\n--- {}\n", nest(300))),
            (DIRECTIVE.into(), Some(1))
        );
    }

    #[test]
    fn a_percent_line_inside_an_open_document_is_a_syntax_error_on_its_line() {
        // YAML 1.2 has a directive only before a document or after a '...' line; yaml-rust's scanner takes any
        // '%' at a line's start for one. The reference's parser words it (a syntax error: R26 ties go to it).
        let syntax = "Plain value cannot start with directive indicator character %";
        assert_eq!(refused("a: 1\n%YAML 1.2\n"), (syntax.into(), Some(2)));
        assert_eq!(refused("---\n%YAML 1.2\n"), (syntax.into(), Some(2)));
        assert_eq!(refused("a: |\n  x\n%YAML 1.2\n"), (syntax.into(), Some(3)));
        assert_eq!(
            refused("a: 1\na: 2\n%YAML 1.2\n"),
            ("duplicate key 'a'".into(), Some(2))
        );
        assert_eq!(refused("a: !!str x\n%YAML 1.2\n"), (tag("!!str"), Some(1)));
        assert_eq!(
            refused(&format!("a: {}\n%YAML 1.2\n", nest(300))),
            (DEPTH.into(), Some(1))
        );
    }

    #[test]
    fn a_tag_before_nesting_past_the_scanners_own_limit_is_met_first() {
        // yaml-rust's scanner fails at 256 open brackets, reading ahead past the tag's event: the tag comes first (R26).
        assert_eq!(
            refused(&format!("a: !!omap {}\n", nest(300))),
            (tag("!!omap"), Some(1))
        );
        assert_eq!(
            refused(&format!("a: !!omap {}\n", nest(65))),
            (tag("!!omap"), Some(1))
        );
        assert_eq!(
            refused(&format!("a: [!!str x, {}]\n", nest(300))),
            (tag("!!str"), Some(1))
        );
        assert_eq!(
            refused(&format!("a: !!omap\n  - {}\n", nest(300))),
            (tag("!!omap"), Some(1))
        );
        assert_eq!(
            refused(&format!("a: 1\na: {}\n", nest(300))),
            ("duplicate key 'a'".into(), Some(2))
        );
        // A tag after the too-deep collection is never read: depth is final.
        assert_eq!(
            refused(&format!("a: [{}, !!str x]\n", nest(300))),
            (DEPTH.into(), Some(1))
        );
        assert_eq!(
            refused(&format!("a: {}\nb: !!str x\n", nest(300))),
            (DEPTH.into(), Some(1))
        );
    }

    #[test]
    fn nesting_past_the_bound_is_refused_at_its_line_however_far_it_goes() {
        // Up to the size limit (1 MiB), nothing reaches yaml-rust's 256-bracket limit: the first too-deep collection answers.
        let a_open = format!("a: {}\n", "[a: ".repeat(250_000));
        assert!(a_open.len() <= 1 << 20);
        assert_eq!(refused(&a_open), (DEPTH.into(), Some(1)));
        // yaml-rust's scanner stops at a syntax error before the collection on its line and never sees it (the
        // reference's lexer reads on and gives depth: README, Known gaps); the line is the same.
        assert_eq!(
            refused(&format!("a: {}\n", "a: [".repeat(250_000))).1,
            Some(1)
        );
        assert_eq!(
            refused(&format!("a: {}\n", "[".repeat(1_000_000))),
            (DEPTH.into(), Some(1))
        );
        assert_eq!(
            refused(&format!("a: {}1{}\n", "{x: ".repeat(300), "}".repeat(300))),
            (DEPTH.into(), Some(1))
        );
        // Depth is final on its own line: a syntax error there before the collection loses; one on an earlier line wins.
        assert_eq!(
            refused(&format!("d: {{a: b: c, x: {}}}\n", nest(300))),
            (DEPTH.into(), Some(1))
        );
        assert_eq!(
            refused(&format!("e: a: b\nd: {}\n", nest(300))),
            (
                "Nested mappings are not allowed in compact mappings".into(),
                Some(1)
            )
        );
        // Block nesting, then flow on the deepest line: the mapping and 63 lists make 64, the bracket on line 64 is 65.
        let lists = |n: usize| -> String {
            (0..n)
                .map(|i| format!("{}-\n", " ".repeat(2 + 2 * i)))
                .collect()
        };
        assert_eq!(
            refused(&format!(
                "a:\n{}{}- {}\n",
                lists(62),
                " ".repeat(126),
                nest(300)
            )),
            (DEPTH.into(), Some(64))
        );
        // A block list is the 65th level, with 300 brackets and a tag after it on its line (never read).
        assert_eq!(
            refused(&format!(
                "a:\n{}{}- {}\n",
                lists(63),
                " ".repeat(128),
                nest(300)
            )),
            (DEPTH.into(), Some(65))
        );
        assert_eq!(
            refused(&format!(
                "a:\n{}{}k: !!str {}\n",
                lists(63),
                " ".repeat(128),
                nest(300)
            )),
            (DEPTH.into(), Some(65))
        );
    }

    #[test]
    fn a_tag_before_a_syntax_error_on_a_later_line_is_met_first() {
        // The parser stops at the unclosed quote (located at the end) before the event past the tag.
        assert_eq!(refused("a: !!str \"x\n  y\n"), (tag("!!str"), Some(1)));
    }

    #[test]
    fn a_collection_key_that_is_itself_past_the_bound_is_refused_as_depth() {
        // The mapping, 62 lists and a flow mapping make 64; its key, a list, is the 65th level.
        let deep_key = format!("d: {}{{[x]: 1}}{}\n", "[".repeat(62), "]".repeat(62));
        assert_eq!(refused(&deep_key), (DEPTH.into(), Some(1)));
        let shallower = format!("d: {}{{[x]: 1}}{}\n", "[".repeat(61), "]".repeat(61));
        assert_eq!(
            refused(&shallower).0,
            "mapping keys must be strings; got a list or mapping (quote it)"
        );
    }

    #[test]
    fn a_refusal_yaml_rust_raises_as_an_error_is_ordered_as_a_refusal_not_a_syntax_error() {
        // An alias to no anchor and a second document yaml-rust cannot start stop its parser; R26 still orders them
        // as refusals: after a duplicate key or a tag met first on their line, before depth later on it.
        assert_eq!(
            refused("{a: 1, a: *nope}\n"),
            ("duplicate key 'a'".into(), Some(1))
        );
        assert_eq!(refused("a: [!!str x, *nope]\n"), (tag("!!str"), Some(1)));
        assert_eq!(
            refused(&format!("a: 1\n...\n - {}\n", "[".repeat(70))),
            (SECOND.into(), Some(3))
        );
        assert_eq!(
            refused(&format!("a: 1\n...\n - {}\n", "[".repeat(300))),
            (SECOND.into(), Some(3))
        );
    }

    #[test]
    fn an_empty_key_is_where_its_question_mark_is() {
        // R26: a key refusal is at the key; an empty explicit key has no character but its '?' (yaml-rust puts the
        // empty scalar at the next token, the ':' a line down).
        let null_key = "mapping keys must be strings; got an empty (null) key (quote it)";
        assert_eq!(refused("a:\n  ? \n  : x\n"), (null_key.into(), Some(2)));
        assert_eq!(refused("a:\n  - ? \n"), (null_key.into(), Some(2)));
        assert_eq!(refused("a:\n  - ? \nb: 1\n"), (null_key.into(), Some(2))); // not the next key's line
        assert_eq!(refused("a: 1\n: x\n"), (null_key.into(), Some(2))); // no '?': where its ':' is
        assert_eq!(refused("a: {: x}\n"), (null_key.into(), Some(1)));
    }

    #[test]
    fn an_unclosed_quote_is_reported_at_the_end() {
        let e = parse("name: x\ndescription: \"open\n  more\n").unwrap_err();
        assert_eq!(
            e,
            YamlError {
                reason: "Missing closing \"quote".into(),
                line: Some(4)
            }
        );
    }
}
