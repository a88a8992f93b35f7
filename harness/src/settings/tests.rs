//! Unit tests of the environment-variable table and its parsing.

use super::*;

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
    assert_eq!(s.data_override, Some(PathBuf::from("/w/mine")));
    assert_eq!(s.target, Path::new("/t"));
    let (s, _) = read(Path::new("/w"), &Env::of(&[(DATA_VAR, "")]));
    assert_eq!(
        (s.data_override, s.target),
        (None, PathBuf::from("/w/target"))
    );
}

#[test]
fn the_suite_is_official_or_deep() {
    let ws = Path::new("/w");
    for (value, deep) in [("deep", true), ("official", false), ("", false)] {
        let (s, problems) = read(ws, &Env::of(&[(SUITE_VAR, value)]));
        assert_eq!((s.deep, problems.len()), (deep, 0), "{value}");
    }
    assert!(!read(ws, &Env::default()).0.deep);
    for bad in ["Deep", "all", "1"] {
        let (s, problems) = read(ws, &Env::of(&[(SUITE_VAR, bad)]));
        assert!(!s.deep);
        assert_eq!(problems.len(), 1, "{bad}");
        assert_eq!(problems[0].0, "settings/suite");
    }
}
