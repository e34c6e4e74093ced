//! Resource listing (§8, D10): file names (never contents) under scripts/, references/, assets/, walked
//! recursively, hidden entries skipped, sorted by code point, at most the contract's count per folder
//! with a count of the rest. Fenced like the skill (§5.3): a folder or a symlinked file that resolves
//! outside every root, and anything that is not a regular file, is not listed.
use crate::limits::limits;
use crate::paths::{is_inside, real};
use std::fs;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Group {
    pub folder: String,
    pub names: Vec<String>,
    pub omitted: usize,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Listing {
    pub resources: Vec<String>,
    /// Per folder, how many names were not listed (only folders with some).
    pub omitted: Vec<(String, usize)>,
    pub groups: Vec<Group>,
}

#[derive(PartialEq)]
enum Kind {
    File,
    Dir,
}

fn list(dir: &str) -> Vec<(String, fs::FileType)> {
    match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).filter_map(|e| Some((e.file_name().to_string_lossy().into_owned(), e.file_type().ok()?))).collect(),
        Err(_) => Vec::new(),
    }
}

/// Where a symlink points, if it is a regular file or a directory inside the roots.
fn resolve_link(path: &str, roots: &[String]) -> Option<Kind> {
    let target = real(path)?;
    if !is_inside(&target, roots) {
        return None;
    }
    let meta = fs::metadata(&target).ok()?;
    if meta.is_file() {
        Some(Kind::File)
    } else if meta.is_dir() {
        Some(Kind::Dir)
    } else {
        None
    }
}

fn walk(dir: &str, rel: &str, depth: usize, roots: &[String], out: &mut Vec<String>) {
    let lim = limits();
    if depth > lim.resource_walk_max_depth {
        return;
    }
    for (name, ft) in list(dir) {
        if out.len() >= lim.resource_walk_max_entries {
            return;
        }
        if name.starts_with('.') {
            continue;
        }
        let rel_path = format!("{rel}/{name}");
        let path = format!("{dir}/{name}");
        if ft.is_dir() {
            walk(&path, &rel_path, depth + 1, roots, out);
        } else if ft.is_file() || (ft.is_symlink() && resolve_link(&path, roots) == Some(Kind::File)) {
            out.push(rel_path);
        }
    }
}

pub fn list_resources(real_skill_dir: &str, real_roots: &[String]) -> Listing {
    let lim = limits();
    let mut listing = Listing::default();
    let present = list(real_skill_dir);
    for folder in &lim.resource_folders {
        let Some((_, ft)) = present.iter().find(|(n, _)| n == folder) else { continue };
        let path = format!("{real_skill_dir}/{folder}");
        if !ft.is_dir() && !(ft.is_symlink() && resolve_link(&path, real_roots) == Some(Kind::Dir)) {
            continue;
        }
        let mut all = Vec::new();
        walk(&path, folder, 0, real_roots, &mut all);
        if all.is_empty() {
            continue;
        }
        all.sort();
        // Up to 10 in all (D10: §3.1, §7 step 4), folder after folder, at most resources_per_folder from one.
        let room = lim.resources_max.saturating_sub(listing.resources.len());
        let keep = lim.resources_per_folder.min(room);
        let omitted = all.len().saturating_sub(keep);
        all.truncate(keep);
        listing.resources.extend(all.iter().cloned());
        if omitted > 0 {
            listing.omitted.push((folder.clone(), omitted));
        }
        listing.groups.push(Group { folder: folder.clone(), names: all, omitted });
    }
    listing
}
