//! "Did you mean" (§3.3, R8): similarity 1 - levenshtein / max length, at least the contract's minimum,
//! best first, ties by name, at most the contract's count.
use crate::limits::limits;

pub fn similarity(a: &str, b: &str) -> f64 {
    let max = a.chars().count().max(b.chars().count());
    if max == 0 {
        1.0
    } else {
        1.0 - strsim::levenshtein(a, b) as f64 / max as f64
    }
}

pub fn siblings<'a>(name: &str, installed: impl Iterator<Item = &'a str>) -> Vec<String> {
    let lim = limits();
    let mut scored: Vec<(&str, f64)> = installed
        .map(|n| (n, similarity(name, n)))
        .filter(|(_, s)| *s >= lim.sibling_similarity_min)
        .collect();
    scored.sort_by(|x, y| {
        y.1.partial_cmp(&x.1)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| x.0.cmp(y.0))
    });
    scored
        .into_iter()
        .take(lim.siblings_max)
        .map(|(n, _)| n.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn ranks_by_similarity_then_name() {
        let names = ["api-conventions", "api-versioning", "deploy-app", "hello"];
        assert_eq!(
            super::siblings("api-convention", names.into_iter()),
            ["api-conventions"]
        );
        assert!(super::siblings("zzz", names.into_iter()).is_empty());
    }
}
