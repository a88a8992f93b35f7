//! Judging refusals, and reading the expectation file.

use super::*;
use crate::testkit::scratch;

fn expected(parts: &[&str]) -> ExpectedError {
    ExpectedError {
        rule: "padding bits are zero".into(),
        expect: parts.iter().map(|p| p.to_string()).collect(),
    }
}

fn refused(message: &str) -> Result<Case, Error> {
    Err(Error::at("cases/bad/test_data_set_0/input_0.pb", message))
}

#[test]
fn a_refusal_holding_every_part_passes() {
    let e = expected(&[
        "bad/test_data_set_0/input_0.pb",
        "tensor 'input_0'",
        "padding bits",
    ]);
    assert_eq!(
        judge(
            &e,
            refused("tensor 'input_0' (...): raw_data's padding bits are not zero")
        ),
        Ok(())
    );
}

#[test]
fn another_refusal_fails_naming_what_is_missing_and_what_was_said() {
    let e = expected(&["tensor 'input_0'", "padding bits"]);
    let why = judge(&e, refused("tensor 'input_0': raw_data holds 3 bytes")).unwrap_err();
    assert!(why.contains(r#"["padding bits"]"#), "{why}");
    assert!(why.contains("raw_data holds 3 bytes"), "{why}");
}

#[test]
fn a_file_round_trips_and_a_bad_one_is_an_error_naming_it() {
    let dir = scratch("expected-error");
    assert_eq!(read(dir.path()), Ok(None));
    let e = expected(&["padding bits"]);
    std::fs::write(dir.path().join(FILE), e.to_bytes()).expect("writable");
    assert_eq!(read(dir.path()), Ok(Some(e)));
    std::fs::write(dir.path().join(FILE), br#"{"rule": "x", "expect": [""]}"#).expect("writable");
    assert!(read(dir.path()).unwrap_err().contains("names nothing"));
    std::fs::write(
        dir.path().join(FILE),
        br#"{"rule": "x", "expect": ["a"], "more": 1}"#,
    )
    .expect("writable");
    assert!(read(dir.path()).unwrap_err().contains(FILE));
}
