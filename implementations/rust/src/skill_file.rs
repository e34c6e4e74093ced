//! Reading one SKILL.md from an opened skill dir (D11, R141, R142): the file is reached from the dir's handle,
//! fenced by the real path of what was opened, refused unless regular (a FIFO never blocks: nothing is opened
//! for reading before the type is known), read to at most the size bound plus one byte, as strict UTF-8 without NUL.
use crate::dirfd::{Dir, Type};
use crate::limits::limits;
use crate::messages::msg;
use crate::paths::{errno_name, is_inside};
use crate::registry::{io, outside, Failure};
use std::ffi::OsStr;
use std::io::Read;
use std::path::PathBuf;

/// A SKILL.md as read: its text and the real path of the file the text came from (R143 matches it).
pub struct SkillText {
    pub text: String,
    pub real_md: PathBuf,
}

const NAME: &str = "SKILL.md";

/// Read `<dir>/SKILL.md`; `md_path` is how results name it. The caller has lstat'ed it (it exists).
pub fn read_md(dir: &Dir, md_path: &str, fence: &[PathBuf]) -> Result<SkillText, Failure> {
    let cannot = |e: std::io::Error| {
        io(
            md_path,
            msg("read.unreadable", &[("errno", errno_name(&e))]),
        )
    };
    let unresolved = || io(md_path, msg("read.md_unresolved", &[]));
    let handle = dir.handle_at(OsStr::new(NAME)).map_err(|e| {
        // A symlink that does not resolve (dangling, a loop) is unresolved; anything else, unreadable.
        if dir.type_at(OsStr::new(NAME)).ok() == Some(Type::Symlink) {
            unresolved()
        } else {
            cannot(e)
        }
    })?;
    let real_md = handle.real_path().ok_or_else(unresolved)?;
    if !is_inside(&real_md, fence) {
        return Err(outside(md_path, "read.md_outside"));
    }
    let (kind, size) = handle.kind().map_err(cannot)?;
    if kind != Type::File {
        return Err(io(md_path, msg("read.not_file", &[])));
    }
    let max = limits().skill_md_max_bytes;
    let too_big = |size: u64| {
        io(
            md_path,
            msg(
                "read.too_large",
                &[("size", &size.to_string()), ("limit", &max.to_string())],
            ),
        )
    };
    if size > max {
        return Err(too_big(size));
    }
    let mut bytes = Vec::with_capacity(size as usize + 1);
    handle
        .read()
        .map_err(cannot)?
        .take(size + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > size {
        return Err(too_big(bytes.len() as u64)); // it grew past its stat size while we read
    }
    let text = String::from_utf8(bytes).map_err(|_| Failure {
        code: "INVALID_FRONTMATTER",
        ..io(md_path, msg("read.not_utf8", &[]))
    })?;
    if text.contains('\0') {
        return Err(Failure {
            code: "INVALID_FRONTMATTER",
            ..io(md_path, msg("read.nul", &[]))
        });
    }
    Ok(SkillText { text, real_md })
}
