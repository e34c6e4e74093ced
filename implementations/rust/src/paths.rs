//! Paths as the contract spells them (R6): joins normalised the way Node's path.join does (so a root
//! written `user/../real-user` gives dirs without the `..`), real paths, and the workspace fence (§5.3):
//! a path is inside a root only if its real path is the root's real path or below it.
use std::path::Path;

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

/// realpath, or None when the path does not resolve (missing, a loop, no permission).
pub fn real(p: &str) -> Option<String> {
    std::fs::canonicalize(Path::new(p)).ok().map(|r| r.to_string_lossy().into_owned())
}

pub fn is_inside(real_path: &str, real_roots: &[String]) -> bool {
    real_roots.iter().any(|root| {
        real_path == root
            || if root.ends_with('/') { real_path.starts_with(root.as_str()) } else { real_path.len() > root.len() && real_path.starts_with(root.as_str()) && real_path.as_bytes()[root.len()] == b'/' }
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
        assert_eq!(join("/tmp/x/user/../real-user", "dup"), "/tmp/x/real-user/dup");
        assert_eq!(join("/tmp//x/", "a"), "/tmp/x/a");
        assert_eq!(join("/", ".."), "/");
    }

    #[test]
    fn the_fence_compares_whole_segments() {
        let roots = vec!["/r/skills".to_string()];
        assert!(is_inside("/r/skills", &roots));
        assert!(is_inside("/r/skills/a", &roots));
        assert!(!is_inside("/r/skills-evil/a", &roots));
    }
}
