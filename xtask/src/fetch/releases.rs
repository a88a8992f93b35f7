//! The onnx releases that ship node-test data as files, and release-name ordering.

use std::cmp::Ordering;

/// The releases fetched by default: the last patch of every minor release that ships
/// `onnx/backend/test/data/node` in its wheel (1.23 and later generate cases in memory).
pub const RELEASES: [&str; 21] = [
    "1.2.3", "1.3.0", "1.4.1", "1.5.0", "1.6.0", "1.7.0", "1.8.1", "1.9.0", "1.10.2", "1.11.0",
    "1.12.0", "1.13.1", "1.14.1", "1.15.0", "1.16.2", "1.17.0", "1.18.0", "1.19.1", "1.20.1",
    "1.21.0", "1.22.0",
];

/// The case-directory prefixes extracted by default (`test_cast` includes `test_castlike`).
pub const DEFAULT_OPS: [&str; 2] = ["test_cast", "test_concat"];

/// Python versions to ask pip for, best guess first: a release's wheels exist only for the
/// Python versions current when it came out (measured: 1.2-1.6 need 3.6, 1.7-1.12 3.8, 1.13+ 3.11).
pub fn python_versions(release: &str) -> [&'static str; 3] {
    let minor = version_key(release).1.get(1).copied().unwrap_or(0);
    match minor {
        0..=6 => ["3.6", "3.8", "3.11"],
        7..=12 => ["3.8", "3.11", "3.6"],
        _ => ["3.11", "3.8", "3.6"],
    }
}

/// Whether `s` looks like a release number (`1.22.0`, digits and dots only).
pub fn is_release(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Sort key of a release name such as `1.22.0` or `1.23.0-generated`: numeric parts, then
/// the suffix, so `1.10.2` sorts after `1.9.0` and `1.22.0` before `1.22.0-generated`.
fn version_key(release: &str) -> (&str, Vec<u64>, &str) {
    let (num, suffix) = release.split_once('-').unwrap_or((release, ""));
    let parts: Option<Vec<u64>> = num.split('.').map(|p| p.parse().ok()).collect();
    match parts {
        Some(p) => ("", p, suffix),
        // Not a version at all: sort after every version, by name.
        None => (release, Vec::new(), ""),
    }
}

/// Semantic-version order of release names (falls back to name order for non-versions).
pub fn compare(a: &str, b: &str) -> Ordering {
    let (ka, kb) = (version_key(a), version_key(b));
    (!ka.0.is_empty(), ka.0, ka.1, ka.2).cmp(&(!kb.0.is_empty(), kb.0, kb.1, kb.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_sort_numerically_with_suffix_last() {
        let mut v = vec![
            "1.10.2",
            "1.9.0",
            "1.22.0-generated",
            "1.22.0",
            "1.2.3",
            "zzz",
        ];
        v.sort_by(|a, b| compare(a, b));
        assert_eq!(
            v,
            [
                "1.2.3",
                "1.9.0",
                "1.10.2",
                "1.22.0",
                "1.22.0-generated",
                "zzz"
            ]
        );
        let mut sorted = RELEASES.to_vec();
        sorted.sort_by(|a, b| compare(a, b));
        assert_eq!(sorted, RELEASES);
    }

    #[test]
    fn release_names_are_checked() {
        assert!(is_release("1.22.0"));
        assert!(!is_release("1.22.0/../x"));
        assert!(!is_release(""));
        assert!(!is_release("1..2"));
        assert_eq!(python_versions("1.6.0")[0], "3.6");
        assert_eq!(python_versions("1.12.0")[0], "3.8");
        assert_eq!(python_versions("1.13.1")[0], "3.11");
    }
}
