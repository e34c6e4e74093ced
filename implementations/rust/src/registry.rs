//! Skill discovery and loading from the filesystem (§5.1, §5.2, §10, R6): the §10 `SkillRegistry` trait
//! and its filesystem default. Scans each configured root one level deep, never above it; keeps broken
//! and fenced-off skills aside by directory name so activating them returns their error; resolves
//! shadowing by root order. Never fails: problems become warnings.
use crate::dirfd::{escaped_name, Dir, Type};
use crate::frontmatter::{parse_skill_md, FailureKind};
use crate::messages::msg;
use crate::paths::{basename, is_inside, join, real};
use crate::resources::{list_resources, Listing};
use crate::skill_file::read_md;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

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
    pub fence: Vec<PathBuf>,
}

/// A skill as read at activation: its entry with the frontmatter of this read, its body, the opened skill dir
/// (resources are listed from it) and the real paths of the dir and of the SKILL.md read.
pub struct Activation {
    pub entry: SkillEntry,
    pub body: String,
    pub dir: Dir,
    pub real_dir: PathBuf,
    pub real_md: PathBuf,
}

pub(crate) fn io(path: &str, reason: String) -> Failure {
    Failure {
        code: "IO_ERROR",
        kind: FailureKind::Field,
        path: path.into(),
        reason,
        line: None,
    }
}

/// `reason` is read.dir_outside or read.md_outside. The target is not named: nothing about what lies
/// outside the roots reaches the model (R6, R33).
pub(crate) fn outside(path: &str, reason: &str) -> Failure {
    Failure {
        code: "OUTSIDE_WORKSPACE",
        kind: FailureKind::Field,
        path: path.into(),
        reason: msg(reason, &[]),
        line: None,
    }
}

fn parse(
    text: &str,
    dir: &str,
    root_index: usize,
    md_path: &str,
) -> Result<(SkillEntry, String, Vec<String>), Failure> {
    let parsed = parse_skill_md(text, basename(dir)).map_err(|f| Failure {
        code: f.code,
        kind: f.kind,
        path: md_path.into(),
        reason: f.reason,
        line: f.line,
    })?;
    let fm = parsed.frontmatter;
    let name = fm["name"].as_str().unwrap_or_default().to_string();
    let description = fm["description"].as_str().unwrap_or_default().to_string();
    Ok((
        SkillEntry {
            name,
            description,
            dir: dir.into(),
            root_index,
            frontmatter: fm,
        },
        parsed.body,
        parsed.warnings,
    ))
}

const SKILL_MD: &str = "SKILL.md";

/// The configured dir opened (R142: everything after is reached from this handle) and fenced by its real path.
fn open_skill_dir(dir: &str, fence: &[PathBuf]) -> Result<(Dir, PathBuf), Failure> {
    let handle = Dir::open(Path::new(dir)).map_err(|_| io(dir, msg("read.dir_unresolved", &[])))?;
    let real_dir = handle
        .real_path()
        .ok_or_else(|| io(dir, msg("read.dir_unresolved", &[])))?;
    if !is_inside(&real_dir, fence) {
        return Err(outside(dir, "read.dir_outside"));
    }
    Ok((handle, real_dir))
}

/// Activation (R6): open the skill dir now (the tree may have changed since discovery), fence what was opened,
/// then read its SKILL.md from that handle (R142) and parse it.
pub fn read_skill(dir: &str, root_index: usize, fence: &[PathBuf]) -> Result<Activation, Failure> {
    let md_path = join(dir, SKILL_MD);
    let (handle, real_dir) = open_skill_dir(dir, fence)?;
    handle
        .type_at(OsStr::new(SKILL_MD))
        .map_err(|_| io(&md_path, msg("read.md_unresolved", &[])))?;
    let read = read_md(&handle, &md_path, fence)?;
    let (entry, body, _) = parse(&read.text, dir, root_index, &md_path)?;
    Ok(Activation {
        entry,
        body,
        dir: handle,
        real_dir,
        real_md: read.real_md,
    })
}

enum Found {
    /// A skill, with what was accepted leniently (R19, R20) as catalog warnings.
    Skill(SkillEntry, Vec<String>),
    Broken(Broken),
}

/// Discovery of one root entry, reached from the opened root by its name; None for anything that is not a skill
/// (no SKILL.md): omitted silently.
fn scan_entry(
    root: &str,
    root_dir: &Dir,
    name: &str,
    ty: Type,
    root_index: usize,
    fence: &[PathBuf],
) -> Option<Found> {
    if !matches!(ty, Type::Dir | Type::Symlink) {
        return None;
    }
    let dir = join(root, name);
    let md_path = join(&dir, SKILL_MD);
    let broken = |failure: Failure| {
        Some(Found::Broken(Broken {
            name: name.to_string(),
            dir: dir.clone(),
            root_index,
            failure,
        }))
    };
    // A symlink that is not to a directory (or does not resolve) is no skill; nor is a dir with no usable real path.
    let child = root_dir.dir_at(OsStr::new(name)).ok()?;
    let real_dir = child.real_path()?;
    let md = child.type_at(OsStr::new(SKILL_MD));
    // Never read outside the roots: a fenced-off skill is kept aside unread (R6).
    if !is_inside(&real_dir, fence) {
        md.ok()?;
        return broken(outside(&dir, "read.dir_outside"));
    }
    if let Err(e) = md {
        if matches!(e.raw_os_error(), Some(libc::ENOENT) | Some(libc::ENOTDIR)) {
            return None;
        }
    }
    match read_md(&child, &md_path, fence).and_then(|r| parse(&r.text, &dir, root_index, &md_path))
    {
        Ok((entry, _, notes)) => {
            let notes = notes
                .iter()
                .map(|n| msg("warning.skill_lenient", &[("dir", &dir), ("leniency", n)]))
                .collect();
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
        FilesystemSkillRegistry {
            roots,
            scanned: None,
        }
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
        self.scan()
            .entries
            .iter()
            .map(|e| e.entry.clone())
            .collect()
    }

    fn load(&mut self, name: &str) -> Option<LoadedSkill> {
        let d = self.scan();
        let e = &d.entries[*d.by_name.get(name)?].entry;
        let a = read_skill(&e.dir, e.root_index, &d.fence).ok()?;
        let listing = list_resources(&a.dir, &d.fence);
        Some(LoadedSkill {
            entry: a.entry,
            body: a.body,
            resources: listing.resources.clone(),
            listing,
        })
    }
}

/// The opened root and its entries worth looking at: not hidden (first byte '.'), in byte order of their names
/// (code-point order for UTF-8 ones, R140).
fn list_root(real_root: &Path) -> Option<(Dir, Vec<(OsString, Type)>)> {
    let dir = Dir::open(real_root).ok()?;
    let mut out: Vec<(OsString, Type)> = dir
        .entries()
        .ok()?
        .into_iter()
        .filter(|(n, _)| !n.as_bytes().starts_with(b"."))
        .collect();
    out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Some((dir, out))
}

fn scan_roots(roots: &[String]) -> Discovery {
    let mut warnings = Vec::new();
    let real_roots: Vec<Option<PathBuf>> = roots.iter().map(|r| real(r)).collect();
    let fence: Vec<PathBuf> = real_roots.iter().flatten().cloned().collect();
    let mut found = Vec::new();
    for (i, root) in roots.iter().enumerate() {
        let Some(real_root) = &real_roots[i] else {
            warnings.push(msg("warning.root_missing", &[("root", root)]));
            continue;
        };
        let first = real_roots
            .iter()
            .position(|r| r.as_ref() == Some(real_root))
            .unwrap_or(i);
        if first < i {
            warnings.push(msg(
                "warning.root_duplicate",
                &[("root", root), ("first", &first.to_string())],
            ));
            continue;
        }
        let Some((root_dir, dirents)) = list_root(real_root) else {
            warnings.push(msg("warning.root_unlistable", &[("root", root)]));
            continue;
        };
        for (raw, ty) in dirents {
            // R140: a name that is not UTF-8 is reported and never opened, followed or looked up.
            let Some(name) = raw.to_str() else {
                warnings.push(msg(
                    "warning.name_not_utf8",
                    &[("dir", &join(root, &escaped_name(raw.as_bytes())))],
                ));
                continue;
            };
            match scan_entry(root, &root_dir, name, ty, i, &fence) {
                Some(Found::Broken(b)) => {
                    let f = &b.failure;
                    warnings.push(msg(
                        "warning.skill_skipped",
                        &[("dir", &b.dir), ("code", f.code), ("reason", &f.reason)],
                    ));
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
fn resolve_shadowing(
    found: Vec<Found>,
    mut warnings: Vec<String>,
    fence: Vec<PathBuf>,
) -> Discovery {
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
            warnings.push(msg(
                "warning.shadowed",
                &[("name", &name), ("dir", &dir), ("winner", &winner_dir)],
            ));
            winners[w].1.push(dir);
            continue;
        }
        index.insert(name, winners.len());
        winners.push((f, Vec::new()));
    }
    let mut d = Discovery {
        warnings,
        fence,
        ..Discovery::default()
    };
    for (f, shadowed) in winners {
        match f {
            Found::Skill(entry, _) => d.entries.push(CatalogEntry { entry, shadowed }),
            Found::Broken(b) => {
                d.broken.insert(b.name.clone(), b);
            }
        }
    }
    d.entries.sort_by(|a, b| a.entry.name.cmp(&b.entry.name));
    d.by_name = d
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.entry.name.clone(), i))
        .collect();
    d
}
