//! The Miri subset's filters, and how a run's output is read.

use super::*;

/// Every filter of the Miri subset names a test function or a test module of its package's
/// sources, so that a rename cannot leave Miri running nothing.
#[test]
fn every_miri_filter_names_a_test() {
    let root = crate::workspace::root();
    for (package, filters) in MIRI_TESTS {
        let src = match package {
            "onnx-conformance" => root.join("src"),
            other => root
                .join(other.trim_start_matches("onnx-conformance-"))
                .join("src"),
        };
        for filter in filters {
            let path: Vec<&str> = filter.trim_end_matches("::").split("::").collect();
            let (last, modules) = path.split_last().expect("a non-empty filter");
            let dir = modules.iter().fold(src.clone(), |d, m| d.join(m));
            let module = dir.join(format!("{last}.rs")).is_file() || dir.join(last).is_dir();
            let function = dir.with_extension("rs").is_file()
                && std::fs::read_to_string(dir.with_extension("rs"))
                    .expect("a readable test file")
                    .contains(&format!("fn {last}("));
            assert!(module || function, "{package}: {filter}");
        }
    }
}

#[test]
fn passed_tests_are_read_from_libtest_lines() {
    assert_eq!(passed_test("test a::b ... ok"), Some("a::b"));
    assert_eq!(passed_test("test a::b ... FAILED"), None);
    assert_eq!(passed_test("test result: ok. 3 passed"), None);
    let ran = [
        "stream::tests::x".to_string(),
        "tuning::tests::y".to_string(),
    ];
    assert_eq!(unmatched(&["stream::tests::", "tuning::"], &ran), None);
    assert_eq!(
        unmatched(&["stream::tests::", "ops::"], &ran),
        Some("ops::")
    );
}
