//! Skill discovery and loading from the filesystem (§5.1, §5.2, §10, R6): the §10 `SkillRegistry` trait
//! and its filesystem default. Scans each configured root one level deep, never above it; keeps broken
//! and fenced-off skills aside by directory name so activating them returns their error; resolves
//! shadowing by root order. Never fails: problems become warnings.
use crate::frontmatter::{parse_skill_md, FailureKind};
use crate::limits::limits;
use crate::messages::msg;
use crate::paths::{basename, errno_name, is_inside, join, real};
use crate::resources::{list_resources, Listing};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fs;
use std::io::Read;

/// §10 SkillEntry.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillEntry {
    pub name: String,
    pub description: String,
    pub dir: String,
    pub root_index: usize,
    pub frontmatter: Map<String, Value>,
}

/// §10 LoadedSkill, plus the per-folder listing the renderer needs.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSkill {
    pub entry: SkillEntry,
    pub body: String,
    pub resources: Vec<String>,
    pub listing: Listing,
}

/// §10: the pluggable adapter boundary.
pub trait SkillRegistry {
    /// Called once at session start (or lazily on first use).
    fn discover(&mut self) -> Vec<SkillEntry>;
    /// Called on every activation; may re-read from disk.
    fn load(&mut self, name: &str) -> Option<LoadedSkill>;
}

/// Why a skill cannot be used: the error code, what kind of failure, where and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub code: &'static str,
    pub kind: FailureKind,
    pub path: String,
    pub reason: String,
    pub line: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct Broken {
    pub name: String,
    pub dir: String,
    pub root_index: usize,
    pub failure: Failure,
}

/// A catalog entry: the skill plus the dirs of same-named skills it shadows (§5.1, D7).
#[derive(Debug, Clone)]
pub struct CatalogEntry {
    pub entry: SkillEntry,
    pub shadowed: Vec<String>,
}

impl CatalogEntry {
    pub fn to_json(&self) -> Value {
        serde_json::from_str(&self.json_text()).expect("the entry's own JSON reads back")
    }

    /// The entry as JSON text, `{name, description, dir, root_index, frontmatter, meta: {shadowed}}`, serialised
    /// from the fields in place (through a `json!` value the frontmatter would be deep-copied first).
    pub fn json_text(&self) -> String {
        // A macro, not a function: serde's Serialize trait is not a dependency of ours to name in a bound.
        macro_rules! js {
            ($v:expr) => {
                serde_json::to_string(&$v).expect("JSON serialises")
            };
        }
        let e = &self.entry;
        format!(
            r#"{{"name":{},"description":{},"dir":{},"root_index":{},"frontmatter":{},"meta":{{"shadowed":{}}}}}"#,
            js!(e.name),
            js!(e.description),
            js!(e.dir),
            e.root_index,
            js!(e.frontmatter),
            js!(self.shadowed),
        )
    }
}

#[derive(Debug, Default)]
pub struct Discovery {
    /// Sorted by name.
    pub entries: Vec<CatalogEntry>,
    pub by_name: HashMap<String, usize>,
    pub broken: HashMap<String, Broken>,
    pub warnings: Vec<String>,
    /// Real path of each configured root that resolves.
    pub fence: Vec<String>,
}

/// A skill as read at activation: its entry with the frontmatter of this read, its body and real dir.
pub struct Activation {
    pub entry: SkillEntry,
    pub body: String,
    pub real_dir: String,
}

fn io(path: &str, reason: String) -> Failure {
    Failure { code: "IO_ERROR", kind: FailureKind::Field, path: path.into(), reason, line: None }
}

/// `reason` is read.dir_outside or read.md_outside. The target is not named: nothing about what lies
/// outside the roots reaches the model (R6, R33).
fn outside(path: &str, reason: &str) -> Failure {
    Failure { code: "OUTSIDE_WORKSPACE", kind: FailureKind::Field, path: path.into(), reason: msg(reason, &[]), line: None }
}

/// Read SKILL.md with the size cap applied before and during the read (D11), as strict UTF-8 without NUL.
fn read_text(real_md: &str, md_path: &str) -> Result<String, Failure> {
    let lim = limits();
    let cannot = |e: std::io::Error| io(md_path, msg("read.unreadable", &[("errno", errno_name(&e))]));
    let too_big = |size: u64| io(md_path, msg("read.too_large", &[("size", &size.to_string()), ("limit", &lim.skill_md_max_bytes.to_string())]));
    let file = fs::File::open(real_md).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(io(md_path, msg("read.not_file", &[])));
    }
    if meta.len() > lim.skill_md_max_bytes {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    file.take(meta.len() + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > meta.len() {
        return Err(too_big(bytes.len() as u64)); // it grew past its stat size while we read
    }
    let text = String::from_utf8(bytes).map_err(|_| Failure { code: "INVALID_FRONTMATTER", ..io(md_path, msg("read.not_utf8", &[])) })?;
    if text.contains('\0') {
        return Err(Failure { code: "INVALID_FRONTMATTER", ..io(md_path, msg("read.nul", &[])) });
    }
    Ok(text)
}

fn parse(text: &str, dir: &str, root_index: usize, md_path: &str) -> Result<(SkillEntry, String, Vec<String>), Failure> {
    let parsed = parse_skill_md(text, basename(dir))
        .map_err(|f| Failure { code: f.code, kind: f.kind, path: md_path.into(), reason: f.reason, line: f.line })?;
    let fm = parsed.frontmatter;
    let name = fm["name"].as_str().unwrap_or_default().to_string();
    let description = fm["description"].as_str().unwrap_or_default().to_string();
    Ok((SkillEntry { name, description, dir: dir.into(), root_index, frontmatter: fm }, parsed.body, parsed.warnings))
}

/// Activation (R6): resolve the skill dir and its SKILL.md by real path now (the tree may have changed
/// since discovery), fence both, then read and parse.
pub fn read_skill(dir: &str, root_index: usize, fence: &[String]) -> Result<Activation, Failure> {
    let md_path = join(dir, "SKILL.md");
    let real_dir = real(dir).ok_or_else(|| io(dir, msg("read.dir_unresolved", &[])))?;
    if !is_inside(&real_dir, fence) {
        return Err(outside(dir, "read.dir_outside"));
    }
    let mut real_md = format!("{real_dir}/SKILL.md");
    let unresolved = || io(&md_path, msg("read.md_unresolved", &[]));
    let link = fs::symlink_metadata(&real_md).map_err(|_| unresolved())?;
    if link.file_type().is_symlink() {
        real_md = real(&real_md).ok_or_else(unresolved)?;
    }
    if !is_inside(&real_md, fence) {
        return Err(outside(&md_path, "read.md_outside"));
    }
    let text = read_text(&real_md, &md_path)?;
    let (entry, body, _) = parse(&text, dir, root_index, &md_path)?;
    Ok(Activation { entry, body, real_dir })
}

enum Found {
    /// A skill, with what was accepted leniently (R19, R20) as catalog warnings.
    Skill(SkillEntry, Vec<String>),
    Broken(Broken),
}

/// Discovery of one root entry; None for anything that is not a skill (no SKILL.md): omitted silently.
fn scan_entry(root: &str, real_root: &str, name: &str, ft: fs::FileType, root_index: usize, fence: &[String]) -> Option<Found> {
    let dir = join(root, name);
    let md_path = join(&dir, "SKILL.md");
    let mut real_dir = format!("{real_root}/{name}");
    if ft.is_symlink() {
        real_dir = real(&real_dir)?;
        if !fs::metadata(&real_dir).ok()?.is_dir() {
            return None;
        }
    } else if !ft.is_dir() {
        return None;
    }
    let broken = |failure: Failure| Some(Found::Broken(Broken { name: name.to_string(), dir: dir.clone(), root_index, failure }));
    let mut real_md = format!("{real_dir}/SKILL.md");
    // Never read outside the roots: a fenced-off skill is kept aside unread (R6).
    if !is_inside(&real_dir, fence) {
        fs::symlink_metadata(&real_md).ok()?;
        return broken(outside(&dir, "read.dir_outside"));
    }
    match fs::symlink_metadata(&real_md) {
        Err(e) if matches!(e.raw_os_error(), Some(2) | Some(20)) => return None,
        Ok(m) if m.file_type().is_symlink() => {
            match real(&real_md) {
                Some(r) => real_md = r,
                None => return broken(io(&md_path, msg("read.md_unresolved", &[]))),
            }
            if !is_inside(&real_md, fence) {
                return broken(outside(&md_path, "read.md_outside"));
            }
        }
        _ => {}
    }
    match read_text(&real_md, &md_path).and_then(|t| parse(&t, &dir, root_index, &md_path)) {
        Ok((entry, _, notes)) => {
            let notes = notes.iter().map(|n| msg("warning.skill_lenient", &[("dir", &dir), ("leniency", n)])).collect();
            Some(Found::Skill(entry, notes))
        }
        Err(f) => broken(f),
    }
}

pub struct FilesystemSkillRegistry {
    roots: Vec<String>,
    scanned: Option<Discovery>,
}

impl FilesystemSkillRegistry {
    pub fn new(roots: Vec<String>) -> Self {
        FilesystemSkillRegistry { roots, scanned: None }
    }

    /// Discovery runs once per registry (no watching, §7); later calls share the result.
    pub fn scan(&mut self) -> &Discovery {
        if self.scanned.is_none() {
            self.scanned = Some(scan_roots(&self.roots));
        }
        self.scanned.as_ref().expect("scanned")
    }
}

impl SkillRegistry for FilesystemSkillRegistry {
    fn discover(&mut self) -> Vec<SkillEntry> {
        self.scan().entries.iter().map(|e| e.entry.clone()).collect()
    }

    fn load(&mut self, name: &str) -> Option<LoadedSkill> {
        let d = self.scan();
        let e = &d.entries[*d.by_name.get(name)?].entry;
        let a = read_skill(&e.dir, e.root_index, &d.fence).ok()?;
        let listing = list_resources(&a.real_dir, &d.fence);
        Some(LoadedSkill { entry: a.entry, body: a.body, resources: listing.resources.clone(), listing })
    }
}

/// The entries of one root worth looking at: not hidden, in code-point order.
fn list_root(real_root: &str) -> Option<Vec<(String, fs::FileType)>> {
    if !fs::metadata(real_root).ok()?.is_dir() {
        return None;
    }
    let mut out: Vec<(String, fs::FileType)> = fs::read_dir(real_root)
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| Some((e.file_name().to_string_lossy().into_owned(), e.file_type().ok()?)))
        .filter(|(n, _)| !n.starts_with('.'))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Some(out)
}

fn scan_roots(roots: &[String]) -> Discovery {
    let mut warnings = Vec::new();
    let real_roots: Vec<Option<String>> = roots.iter().map(|r| real(r)).collect();
    let fence: Vec<String> = real_roots.iter().flatten().cloned().collect();
    let mut found = Vec::new();
    for (i, root) in roots.iter().enumerate() {
        let Some(real_root) = &real_roots[i] else {
            warnings.push(msg("warning.root_missing", &[("root", root)]));
            continue;
        };
        let first = real_roots.iter().position(|r| r.as_ref() == Some(real_root)).unwrap_or(i);
        if first < i {
            warnings.push(msg("warning.root_duplicate", &[("root", root), ("first", &first.to_string())]));
            continue;
        }
        let Some(dirents) = list_root(real_root) else {
            warnings.push(msg("warning.root_unlistable", &[("root", root)]));
            continue;
        };
        for (name, ft) in dirents {
            match scan_entry(root, real_root, &name, ft, i, &fence) {
                Some(Found::Broken(b)) => {
                    let f = &b.failure;
                    warnings.push(msg("warning.skill_skipped", &[("dir", &b.dir), ("code", f.code), ("reason", &f.reason)]));
                    found.push(Found::Broken(b));
                }
                Some(Found::Skill(entry, notes)) => {
                    warnings.extend(notes);
                    found.push(Found::Skill(entry, Vec::new()));
                }
                None => {}
            }
        }
    }
    resolve_shadowing(found, warnings, fence)
}

/// Lower root index wins (§5.1); a broken skill shadows too (R6).
fn resolve_shadowing(found: Vec<Found>, mut warnings: Vec<String>, fence: Vec<String>) -> Discovery {
    let mut winners: Vec<(Found, Vec<String>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for f in found {
        let (name, dir) = match &f {
            Found::Skill(e, _) => (e.name.clone(), e.dir.clone()),
            Found::Broken(b) => (b.name.clone(), b.dir.clone()),
        };
        if let Some(&w) = index.get(&name) {
            let winner_dir = match &winners[w].0 {
                Found::Skill(e, _) => e.dir.clone(),
                Found::Broken(b) => b.dir.clone(),
            };
            warnings.push(msg("warning.shadowed", &[("name", &name), ("dir", &dir), ("winner", &winner_dir)]));
            winners[w].1.push(dir);
            continue;
        }
        index.insert(name, winners.len());
        winners.push((f, Vec::new()));
    }
    let mut d = Discovery { warnings, fence, ..Discovery::default() };
    for (f, shadowed) in winners {
        match f {
            Found::Skill(entry, _) => d.entries.push(CatalogEntry { entry, shadowed }),
            Found::Broken(b) => {
                d.broken.insert(b.name.clone(), b);
            }
        }
    }
    d.entries.sort_by(|a, b| a.entry.name.cmp(&b.entry.name));
    d.by_name = d.entries.iter().enumerate().map(|(i, e)| (e.entry.name.clone(), i)).collect();
    d
}
