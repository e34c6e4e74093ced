//! Paths as the contract spells them (R6): joins normalised the way Node's path.join does (so a root
//! written `user/../real-user` gives dirs without the `..`), real paths, and the workspace fence (§5.3):
//! a path is inside a root only if its real path is the root's real path or below it.
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// path.join(a, b): join with "/", then resolve "." and "..", collapse slashes, drop a trailing slash.
pub fn join(a: &str, b: &str) -> String {
    normalize(&format!("{a}/{b}"))
}

pub fn normalize(p: &str) -> String {
    let absolute = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().map_or(false, |l| *l != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".into(),
        (false, false) => joined,
    }
}

pub fn basename(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// realpath, or None when the path does not resolve (missing, a loop, no permission). Bytes, never decoded.
pub fn real(p: &str) -> Option<PathBuf> {
    std::fs::canonicalize(Path::new(p)).ok()
}

/// The fence (§5.3): `real_path` is a root's real path or below it, compared as bytes, whole segments only.
pub fn is_inside(real_path: &Path, real_roots: &[PathBuf]) -> bool {
    let path = real_path.as_os_str().as_bytes();
    real_roots.iter().any(|root| {
        let root = root.as_os_str().as_bytes();
        path == root
            || (path.starts_with(root)
                && (root.ends_with(b"/") || path.get(root.len()) == Some(&b'/')))
    })
}

/// The errno name Node reports for an I/O error ("EACCES", …).
pub fn errno_name(e: &std::io::Error) -> &'static str {
    match e.raw_os_error() {
        Some(1) => "EPERM",
        Some(2) => "ENOENT",
        Some(5) => "EIO",
        Some(6) => "ENXIO",
        Some(11) => "EAGAIN",
        Some(13) => "EACCES",
        Some(16) => "EBUSY",
        Some(19) => "ENODEV",
        Some(20) => "ENOTDIR",
        Some(21) => "EISDIR",
        Some(23) => "ENFILE",
        Some(24) => "EMFILE",
        Some(36) => "ENAMETOOLONG",
        Some(40) => "ELOOP",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_like_node() {
        assert_eq!(
            join("/tmp/x/user/../real-user", "dup"),
            "/tmp/x/real-user/dup"
        );
        assert_eq!(join("/tmp//x/", "a"), "/tmp/x/a");
        assert_eq!(join("/", ".."), "/");
    }

    #[test]
    fn the_fence_compares_whole_segments() {
        let roots = vec![PathBuf::from("/r/skills")];
        assert!(is_inside(Path::new("/r/skills"), &roots));
        assert!(is_inside(Path::new("/r/skills/a"), &roots));
        assert!(!is_inside(Path::new("/r/skills-evil/a"), &roots));
    }
}
