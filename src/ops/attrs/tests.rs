use super::super::{OpKind, OpVersion};
use super::*;
use crate::testkit::{int, text};

fn v(op: OpKind, since: u32) -> &'static VersionSpec {
    OpVersion::of(op, since).expect("version in table").spec()
}

/// The Cast attributes of a resolution, failing on any other.
fn cast(r: Result<Resolved, Error>) -> Result<CastAttrs, Error> {
    r.map(|r| match r {
        Resolved::Cast(a) => a,
        other => panic!("not Cast's: {other:?}"),
    })
}

/// The CastLike attributes of a resolution, failing on any other.
fn cast_like(r: Result<Resolved, Error>) -> Result<CastLikeAttrs, Error> {
    r.map(|r| match r {
        Resolved::CastLike(a) => a,
        other => panic!("not CastLike's: {other:?}"),
    })
}

/// Resolves and returns the error message, failing if resolution succeeded.
fn reject(spec: &VersionSpec, attrs: &[Attribute]) -> Error {
    match resolve(spec, attrs) {
        Ok(r) => panic!("expected an error for {attrs:?}, got {r:?}"),
        Err(e) => e,
    }
}

#[test]
fn defaults_apply() {
    let r = cast(resolve(v(OpKind::Cast, 25), &[int("to", 1)]));
    let want = CastAttrs {
        to: DataType::Float,
        saturate: true,
        round_mode: RoundMode::Up,
    };
    assert_eq!(r, Ok(want));
    let r = resolve(v(OpKind::Concat, 1), &[]);
    assert_eq!(r, Ok(Resolved::Concat(ConcatAttrs { axis: 1 })));
    let r = cast(resolve(v(OpKind::Cast, 1), &[text("to", "FLOAT16")]));
    assert_eq!(r.map(|r| r.to), Ok(DataType::Float16));
    let r = cast(resolve(
        v(OpKind::Cast, 24),
        &[int("to", 24), text("round_mode", "down")],
    ));
    assert_eq!(r.map(|r| r.round_mode), Ok(RoundMode::Down));
    let r = cast_like(resolve(v(OpKind::CastLike, 19), &[int("saturate", 0)]));
    assert_eq!(r.map(|r| r.saturate), Ok(false));
    // Versions before `saturate` and `round_mode` behave as saturate on, round up.
    let r = cast_like(resolve(v(OpKind::CastLike, 15), &[]));
    let want = CastLikeAttrs {
        saturate: true,
        round_mode: RoundMode::Up,
    };
    assert_eq!(r, Ok(want));
}

#[test]
fn rejects_unknown_attribute_naming_version_and_first_version() {
    let e = reject(v(OpKind::Cast, 13), &[int("to", 1), int("saturate", 1)]);
    assert!(matches!(
        &e,
        Error::UnknownAttribute {
            allowed_from: Some(19),
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "Cast-13 has no attribute \"saturate\" (allowed from Cast-19)"
    );
    let e = reject(
        v(OpKind::Cast, 23),
        &[int("to", 1), text("round_mode", "up")],
    );
    assert!(e.to_string().contains("allowed from Cast-24"), "{e}");
    let e = reject(v(OpKind::CastLike, 25), &[int("to", 1)]);
    assert!(e.to_string().contains("no version of CastLike"), "{e}");
    let e = reject(v(OpKind::Concat, 13), &[int("axis", 0), int("keepdims", 1)]);
    assert!(matches!(e, Error::UnknownAttribute { .. }));
}

#[test]
fn rejects_missing_required_attributes() {
    let e = reject(v(OpKind::Cast, 6), &[]);
    assert_eq!(e.to_string(), "Cast-6 requires attribute \"to\"");
    assert!(matches!(
        reject(v(OpKind::Cast, 1), &[]),
        Error::MissingAttribute { .. }
    ));
    let e = reject(v(OpKind::Concat, 4), &[]);
    assert!(matches!(e, Error::MissingAttribute { name: "axis", .. }));
}

#[test]
fn rejects_wrong_attribute_types() {
    let e = reject(v(OpKind::Cast, 1), &[int("to", 1)]);
    assert_eq!(
        e.to_string(),
        "Cast-1 attribute \"to\" must be of type STRING, found INT"
    );
    let e = reject(v(OpKind::Cast, 6), &[text("to", "FLOAT")]);
    assert!(matches!(
        e,
        Error::AttributeType {
            expected: "INT",
            ..
        }
    ));
    let floats = Attribute {
        name: "saturate".into(),
        value: AttrValue::Float(1.0),
    };
    let e = reject(v(OpKind::Cast, 19), &[int("to", 1), floats]);
    assert!(matches!(e, Error::AttributeType { found: "FLOAT", .. }));
    let e = reject(v(OpKind::Cast, 24), &[int("to", 1), int("round_mode", 0)]);
    assert!(matches!(
        e,
        Error::AttributeType {
            expected: "STRING",
            ..
        }
    ));
    let ints = Attribute {
        name: "axis".into(),
        value: AttrValue::Ints(vec![0]),
    };
    let e = reject(v(OpKind::Concat, 11), &[ints]);
    assert!(matches!(e, Error::AttributeType { found: "INTS", .. }));
}

#[test]
fn rejects_disallowed_values() {
    for bad in [0, 29, -1, 1 << 40] {
        let e = reject(v(OpKind::Cast, 25), &[int("to", bad)]);
        assert!(
            matches!(e, Error::AttributeValue { name: "to", .. }),
            "{bad}"
        );
    }
    for bad in ["float", "FLOAT ", "", "\u{fffd}"] {
        let e = reject(v(OpKind::Cast, 1), &[text("to", bad)]);
        assert!(
            matches!(e, Error::AttributeValue { name: "to", .. }),
            "{bad:?}"
        );
    }
    let bytes = Attribute {
        name: "to".into(),
        value: AttrValue::String(vec![0xFF, 0xFE]),
    };
    assert!(matches!(
        reject(v(OpKind::Cast, 1), &[bytes]),
        Error::AttributeValue { .. }
    ));
    for bad in [2, -1] {
        let e = reject(v(OpKind::Cast, 19), &[int("to", 1), int("saturate", bad)]);
        assert_eq!(
            e.to_string(),
            format!("Cast-19 attribute \"saturate\" has value {bad}; expected 0 or 1")
        );
    }
    for bad in ["UP", "nearest-even", ""] {
        let e = reject(v(OpKind::CastLike, 25), &[text("round_mode", bad)]);
        assert!(matches!(
            e,
            Error::AttributeValue {
                name: "round_mode",
                ..
            }
        ));
    }
}

#[test]
fn rejects_target_types_the_version_does_not_allow() {
    let e = reject(v(OpKind::Cast, 13), &[int("to", 17)]);
    assert_eq!(
        e.to_string(),
        "Cast-13 does not allow FLOAT8E4M3FN as target type (allowed from Cast-19)"
    );
    let e = reject(v(OpKind::Cast, 6), &[int("to", 8)]);
    assert!(e.to_string().contains("allowed from Cast-9"), "{e}");
    let e = reject(v(OpKind::Cast, 1), &[text("to", "BFLOAT16")]);
    assert!(e.to_string().contains("allowed from Cast-13"), "{e}");
    let e = reject(v(OpKind::Cast, 25), &[int("to", 14)]);
    assert!(
        e.to_string().contains("no version of Cast allows it"),
        "{e}"
    );
    let e = reject(v(OpKind::Cast, 23), &[int("to", 24)]);
    assert!(matches!(
        e,
        Error::TypeNotAllowed {
            allowed_from: Some(24),
            ..
        }
    ));
    let e = reject(v(OpKind::Cast, 24), &[int("to", 26)]);
    assert!(matches!(
        e,
        Error::TypeNotAllowed {
            allowed_from: Some(25),
            ..
        }
    ));
}

#[test]
fn a_rejected_string_value_is_quoted_and_cut() {
    let e = reject(v(OpKind::Cast, 1), &[text("to", "float")]);
    assert_eq!(
        e.to_string(),
        "Cast-1 attribute \"to\" has value \"float\"; expected a TensorProto.DataType name \
         such as \"FLOAT\""
    );
    let long = "x".repeat(50);
    let e = reject(v(OpKind::CastLike, 24), &[text("round_mode", &long)]);
    let shown = format!("has value \"{}\";", "x".repeat(40));
    assert!(e.to_string().contains(&shown), "{e}");
    let bytes = Attribute {
        name: "round_mode".into(),
        value: AttrValue::String(vec![b'u', 0xFF]),
    };
    let e = reject(v(OpKind::Cast, 25), &[int("to", 1), bytes]);
    assert!(e.to_string().contains("has value \"u\u{fffd}\""), "{e}");
}

#[test]
fn cast_28_allows_the_float6_types_and_cast_25_names_28() {
    let cast_28 = v(OpKind::Cast, 28);
    for (code, want) in [(27, DataType::Float6E2M3), (28, DataType::Float6E3M2)] {
        let r = cast(resolve(cast_28, &[int("to", code)]));
        assert_eq!(r.map(|r| r.to), Ok(want));
        let e = reject(v(OpKind::Cast, 25), &[int("to", code)]);
        assert!(
            matches!(
                e,
                Error::TypeNotAllowed {
                    allowed_from: Some(28),
                    ..
                }
            ),
            "{e}"
        );
    }
    // A code past the table is refused with the table's range.
    let e = reject(cast_28, &[int("to", 29)]);
    assert_eq!(
        e.to_string(),
        "Cast-28 attribute \"to\" has value 29; expected a TensorProto.DataType code, 1 to 28"
    );
}

#[test]
fn rejects_duplicates() {
    let e = reject(v(OpKind::Cast, 13), &[int("to", 1), int("to", 1)]);
    assert!(matches!(e, Error::DuplicateAttribute { .. }));
}
