//! Resource listing (§8, D10): file names (never contents) under scripts/, references/, assets/, walked
//! recursively, hidden entries skipped, sorted by code point, at most the contract's count per folder
//! with a count of the rest. Fenced like the skill (§5.3): a folder or a symlinked file that resolves
//! outside every root, and anything that is not a regular file, is not listed. Walked from the opened skill dir
//! by names' bytes (R140, R142): a name that is not UTF-8 is counted for a warning, never listed or followed.
use crate::dirfd::{escaped_name, Dir, Type};
use crate::limits::limits;
use crate::messages::msg;
use crate::paths::is_inside;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

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
    /// R140: one warning per resource folder that held names not UTF-8, in resource_folders order.
    pub warnings: Vec<String>,
}

/// What a walk of one resource folder found: the names listed, and the relative paths (bytes) of names that are
/// not UTF-8 (R140: never listed nor descended into).
struct Walk<'f> {
    fence: &'f [PathBuf],
    names: Vec<String>,
    not_utf8: Vec<Vec<u8>>,
}

/// The child directory `name`, opened from `dir` and fenced by the real path of what was opened (R142). One listed
/// as a directory is opened without following a symlink (one swapped in since is skipped); one listed as a symlink
/// is followed and fenced where it lands.
fn open_fenced_dir(dir: &Dir, name: &OsStr, ty: Type, fence: &[PathBuf]) -> Option<Dir> {
    let sub = if ty == Type::Dir {
        dir.plain_dir_at(name)
    } else {
        dir.dir_at(name)
    }
    .ok()?;
    sub.real_path().filter(|r| is_inside(r, fence)).map(|_| sub)
}

/// A symlink is listed when what it reaches, opened, is a regular file inside the roots.
fn link_is_file(dir: &Dir, name: &OsStr, fence: &[PathBuf]) -> bool {
    let Ok(target) = dir.handle_at(name) else {
        return false;
    };
    target.real_path().is_some_and(|r| is_inside(&r, fence))
        && target.kind().is_ok_and(|(t, _)| t == Type::File)
}

fn walk(dir: &Dir, rel: &str, depth: usize, w: &mut Walk) {
    let lim = limits();
    if depth > lim.resource_walk_max_depth {
        return;
    }
    for (raw, ty) in dir.entries().unwrap_or_default() {
        if w.names.len() >= lim.resource_walk_max_entries {
            return;
        }
        if raw.as_bytes().starts_with(b".") {
            continue;
        }
        let Some(name) = raw.to_str() else {
            w.not_utf8
                .push([rel.as_bytes(), b"/", raw.as_bytes()].concat());
            continue;
        };
        let rel_path = format!("{rel}/{name}");
        match ty {
            Type::Dir => {
                if let Some(sub) = open_fenced_dir(dir, &raw, ty, w.fence) {
                    walk(&sub, &rel_path, depth + 1, w);
                }
            }
            Type::File => w.names.push(rel_path),
            Type::Symlink if link_is_file(dir, &raw, w.fence) => w.names.push(rel_path),
            _ => {}
        }
    }
}

/// R140: one warning for a folder that held names not UTF-8: how many, and the first in byte order, escaped.
fn not_utf8_warning(mut paths: Vec<Vec<u8>>) -> Option<String> {
    paths.sort();
    let first = paths.first()?;
    Some(msg(
        "warning.resources_not_utf8",
        &[
            ("count", &paths.len().to_string()),
            ("entry", &escaped_name(first)),
        ],
    ))
}

/// The resource folders of an opened skill dir (R142: listed from it, each folder fenced as opened).
pub fn list_resources(skill_dir: &Dir, fence: &[PathBuf]) -> Listing {
    let lim = limits();
    let mut listing = Listing::default();
    let present = skill_dir.entries().unwrap_or_default();
    for folder in &lim.resource_folders {
        let Some((raw, ty)) = present
            .iter()
            .find(|(n, _)| n.as_bytes() == folder.as_bytes())
        else {
            continue;
        };
        if !matches!(ty, Type::Dir | Type::Symlink) {
            continue;
        }
        let Some(opened) = open_fenced_dir(skill_dir, raw, *ty, fence) else {
            continue;
        };
        let mut w = Walk {
            fence,
            names: Vec::new(),
            not_utf8: Vec::new(),
        };
        walk(&opened, folder, 0, &mut w);
        listing.warnings.extend(not_utf8_warning(w.not_utf8));
        let mut all = w.names;
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
        listing.groups.push(Group {
            folder: folder.clone(),
            names: all,
            omitted,
        });
    }
    listing
}
