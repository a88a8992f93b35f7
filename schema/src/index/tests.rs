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
    v.sort_by(|a, b| release_cmp(a, b));
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
}

fn lock_with(releases: &str) -> String {
    format!(r#"{{"format":1,"ops":["test_cast"],"releases":[{releases}]}}"#)
}

fn entry(release: &str, files: &str) -> String {
    format!(r#"{{"release":"{release}","wheel":"w.whl","sha256":"00","files":{{{files}}}}}"#)
}

#[test]
fn a_release_listed_twice_in_the_lock_is_refused_naming_it() {
    let one = entry("1.22.0", r#""node/test_cast_a/model.onnx":"aa""#);
    let other = entry("1.21.0", r#""node/test_cast_a/model.onnx":"bb""#);
    let fine = lock_with(&format!("{one},{other}"));
    assert!(serde_json::from_str::<Lock>(&fine).is_ok());
    let twice = lock_with(&format!("{one},{other},{one}"));
    let e = serde_json::from_str::<Lock>(&twice).expect_err("1.22.0 twice");
    assert!(e.to_string().contains("onnx 1.22.0 is listed twice"), "{e}");
}

#[test]
fn a_file_listed_twice_in_a_lock_entry_is_refused_naming_it() {
    // serde keeps the last of two equal keys of a map without a word: two hashes for one file.
    let twice = entry(
        "1.22.0",
        r#""node/test_cast_a/model.onnx":"aa","node/test_cast_a/model.onnx":"bb""#,
    );
    let e = serde_json::from_str::<LockedRelease>(&twice).expect_err("a file twice");
    assert!(
        e.to_string()
            .contains("node/test_cast_a/model.onnx is listed twice"),
        "{e}"
    );
    // A field given twice is serde's own refusal.
    let e = serde_json::from_str::<LockedRelease>(
        r#"{"release":"1.22.0","release":"1.21.0","files":{}}"#,
    )
    .expect_err("a field twice");
    assert!(e.to_string().contains("duplicate field `release`"), "{e}");
}

#[test]
fn a_case_listed_twice_in_the_index_is_refused_naming_it() {
    let inst = |release: &str, case: &str| {
        format!(
            r#"{{"release":"{release}","case":"{case}","op_type":"Cast","opset":13,"dir":"onnx-{release}/node/{case}"}}"#
        )
    };
    let index = |list: &[String]| format!(r#"{{"format":1,"instances":[{}]}}"#, list.join(","));
    let fine = index(&[inst("1.22.0", "test_cast_a"), inst("1.21.0", "test_cast_a")]);
    assert!(serde_json::from_str::<Index>(&fine).is_ok());
    let twice = index(&[
        inst("1.22.0", "test_cast_a"),
        inst("1.21.0", "test_cast_a"),
        inst("1.22.0", "test_cast_a"),
    ]);
    let e = serde_json::from_str::<Index>(&twice).expect_err("a case twice");
    assert!(
        e.to_string()
            .contains("test_cast_a of onnx 1.22.0 is listed twice"),
        "{e}"
    );
}
