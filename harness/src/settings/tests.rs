//! Unit tests of the environment-variable table and its parsing.

use super::*;
use crate::source::Source;

#[test]
fn flags_accept_the_documented_values_only() {
    let ws = Path::new("/w");
    for (value, want) in [("1", true), ("true", true), ("0", false), ("false", false)] {
        let (s, problems) = read(ws, &Env::of(&[(STRICT_VAR, value)]));
        assert_eq!((s.strict, problems.len()), (want, 0), "{value}");
    }
    let (s, problems) = read(ws, &Env::of(&[(STRICT_VAR, "")]));
    assert!(!s.strict && problems.is_empty());
    for bad in ["yes", "TRUE", "2", " 1", "on"] {
        let (_, problems) = read(ws, &Env::of(&[(STRICT_VAR, bad)]));
        assert_eq!(problems.len(), 1, "{bad}");
        assert_eq!(problems[0].0, "settings/strict");
        assert!(problems[0].1.contains("use 1 or true"), "{problems:?}");
    }
}

#[test]
fn unknown_names_with_our_prefix_are_problems() {
    let env = Env::of(&[("ONNX_CONFORMANCE_STRCT", "1"), ("OTHER_VAR", "x")]);
    let (s, problems) = read(Path::new("/w"), &env);
    assert!(!s.strict);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].1.contains("ONNX_CONFORMANCE_STRCT is set"));
    assert!(problems[0].1.contains(STRICT_VAR));
}

#[test]
fn paths_resolve_against_the_workspace() {
    let env = Env::of(&[(DATA_VAR, "mine"), ("CARGO_TARGET_DIR", "/t")]);
    let (s, _) = read(Path::new("/w"), &env);
    assert_eq!(s.source, Source::Custom(PathBuf::from("/w/mine")));
    assert_eq!(s.target, Path::new("/t"));
    let (s, _) = read(Path::new("/w"), &Env::of(&[(DATA_VAR, "")]));
    assert_eq!(
        (s.source, s.target),
        (Source::Official, PathBuf::from("/w/target"))
    );
}

/// `ONNX_CONFORMANCE_REPORT_DIR` moves a run's reports (the scoreboard's runs), relative to
/// the workspace; empty is unset.
#[test]
fn the_report_directory_can_be_moved() {
    let (s, problems) = read(Path::new("/w"), &Env::of(&[(REPORT_DIR_VAR, "t/board")]));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.report_dir, Some(PathBuf::from("/w/t/board")));
    let (s, problems) = read(Path::new("/w"), &Env::of(&[(REPORT_DIR_VAR, "")]));
    assert_eq!((s.report_dir, problems.len()), (None, 0));
}

#[test]
fn the_suite_is_official_or_deep() {
    let ws = Path::new("/w");
    let deep = Some(crate::testkit::deep_source as crate::source::DeepSource);
    let is_deep = |s: &Source| matches!(s, Source::Indexed(_));
    for (value, want) in [("deep", true), ("official", false), ("", false)] {
        let (s, problems) = read_with(ws, &Env::of(&[(SUITE_VAR, value)]), deep);
        assert_eq!((is_deep(&s.source), problems.len()), (want, 0), "{value}");
    }
    // The deep source is the linked suite's tree, made from the target directory.
    let (s, _) = read_with(ws, &Env::of(&[(SUITE_VAR, "deep")]), deep);
    let tree = crate::testkit::deep_source(Path::new("/w/target"));
    assert_eq!(s.source, Source::Indexed(tree));
    assert_eq!(
        read_with(ws, &Env::default(), deep).0.source,
        Source::Official
    );
    for bad in ["Deep", "all", "1"] {
        let (s, problems) = read_with(ws, &Env::of(&[(SUITE_VAR, bad)]), deep);
        assert_eq!(s.source, Source::Official);
        assert_eq!(problems.len(), 1, "{bad}");
        assert_eq!(problems[0].0, "settings/suite");
    }
    // A binary that links no deep suite cannot run one: a problem that says how to link it.
    let (_, problems) = read_with(ws, &Env::of(&[(SUITE_VAR, "deep")]), None);
    assert_eq!(names_of(&problems), ["settings/suite"]);
    assert!(problems[0].1.contains("link_deep"), "{}", problems[0].1);
}

/// A deep tree is not a data directory: asking for both is a setup problem, never half of
/// each.
#[test]
fn the_deep_suite_and_a_data_directory_conflict() {
    let deep = Some(crate::testkit::deep_source as crate::source::DeepSource);
    let env = Env::of(&[(SUITE_VAR, "deep"), (DATA_VAR, "mine")]);
    let (_, problems) = read_with(Path::new("/w"), &env, deep);
    assert_eq!(names_of(&problems), ["settings/suite"]);
    assert!(problems[0].1.contains(DATA_VAR) && problems[0].1.contains("deep"));
}

fn names_of(problems: &[Problem]) -> Vec<&str> {
    problems.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn the_backend_variables_are_parsed_here() {
    let env = Env::of(&[
        (BACKEND_VAR, "reference"),
        (PYTHON_VAR, "/usr/bin/python3"),
        (KNOWN_VAR, "mine.json"),
    ]);
    let (s, problems) = read(Path::new("/w"), &env);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.backend, "reference");
    assert_eq!(s.python, Some(PathBuf::from("/usr/bin/python3")));
    assert_eq!(s.worker_list, Some(PathBuf::from("/w/mine.json")));
    assert_eq!(s.timeout, DEFAULT_TIMEOUT);
    assert_eq!(s.report_dir, None);
    let (s, _) = read(Path::new("/w"), &Env::of(&[(BACKEND_VAR, "")]));
    assert_eq!(s.backend, "native");
}

/// `ONNX_CONFORMANCE_THREADS` takes a positive integer (tuning's own rule): 0 is refused as a
/// setup problem, not taken for "all threads".
#[cfg(feature = "native")]
#[test]
fn the_kernel_variables_are_checked_with_the_kernels_own_rules() {
    use onnx_conformance::tuning::{SIMD_VAR, THREADS_VAR};
    let ws = Path::new("/w");
    for ok in [(THREADS_VAR, "1"), (THREADS_VAR, "16"), (SIMD_VAR, "avx2")] {
        let (_, problems) = read(ws, &Env::of(&[ok]));
        assert!(problems.is_empty(), "{ok:?}: {problems:?}");
    }
    for (bad, check) in [
        ((THREADS_VAR, "0"), "settings/threads"),
        ((THREADS_VAR, "all"), "settings/threads"),
        ((SIMD_VAR, "sse"), "settings/simd"),
    ] {
        let (_, problems) = read(ws, &Env::of(&[bad]));
        assert_eq!(problems.len(), 1, "{bad:?}");
        assert_eq!(problems[0].0, check);
        assert!(problems[0].1.contains(bad.0), "{problems:?}");
    }
}
