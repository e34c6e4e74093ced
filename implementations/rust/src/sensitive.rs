//! Sensitive-pattern matching (§5.4, D6): globs where `*` stays inside a path segment and `**` spans
//! segments, dotfiles included, tried against the skill dir's real path, its configured path and the real path of
//! the SKILL.md read (R143), as bytes; a
//! pattern ending in /** also matches the directory itself.
use globset::{GlobBuilder, GlobMatcher};
use std::path::Path;

pub struct Sensitive {
    patterns: Vec<(String, Vec<GlobMatcher>)>,
}

fn matcher(pattern: &str) -> Option<GlobMatcher> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

impl Sensitive {
    pub fn new(patterns: &[String]) -> Self {
        let patterns = patterns
            .iter()
            .map(|p| {
                let mut ms: Vec<GlobMatcher> = matcher(p).into_iter().collect();
                if let Some(own) = p.strip_suffix("/**").filter(|s| !s.is_empty()) {
                    ms.extend(matcher(own));
                }
                (p.clone(), ms)
            })
            .collect();
        Sensitive { patterns }
    }

    /// The first pattern that matches any of `paths`.
    pub fn matches(&self, paths: &[&Path]) -> Option<&str> {
        self.patterns
            .iter()
            .find(|(_, ms)| paths.iter().any(|p| ms.iter().any(|m| m.is_match(p))))
            .map(|(p, _)| p.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_patterns_match_the_dir_and_below() {
        let s = Sensitive::new(&["**/.env/**".to_string(), "**/secrets/**".to_string()]);
        let m = |p: &str| s.matches(&[Path::new(p)]);
        assert_eq!(m("/tmp/x/skills/secrets/deploy"), Some("**/secrets/**"));
        assert_eq!(m("/tmp/x/secrets"), Some("**/secrets/**"));
        assert_eq!(m("/tmp/x/.env/a"), Some("**/.env/**"));
        assert_eq!(m("/tmp/x/skills/hello"), None);
        assert_eq!(m("/tmp/x/secretsx/a"), None);
    }
}
