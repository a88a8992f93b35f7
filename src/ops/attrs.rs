//! Attribute validation: checks a node's attributes against its version's table row and
//! resolves them, defaults applied, into typed values.

use super::version::{attr_allowed_from, AttrDefault, AttrKind, AttrSpec, VersionSpec};
use super::{AttrValue, Attribute};
use crate::dtype::DataType;
use crate::error::Error;
use crate::formats::RoundMode;

/// A node's attributes after validation, defaults applied. Fields a version does not define
/// hold the value that version behaves as if it had (saturate on, round up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Cast `to` (absent for CastLike and Concat).
    pub to: Option<DataType>,
    /// Cast/CastLike `saturate` (true where the version predates it).
    pub saturate: bool,
    /// Cast/CastLike `round_mode` (up where the version predates it).
    pub round_mode: RoundMode,
    /// Concat `axis`, as given (not yet normalised against a rank).
    pub axis: Option<i64>,
}

/// Validates `attrs` against `spec` and resolves them. Every rejection names the operator
/// version and the attribute.
pub fn resolve(spec: &VersionSpec, attrs: &[Attribute]) -> Result<Resolved, Error> {
    let op = spec.version;
    let mut out = Resolved {
        to: None,
        saturate: true,
        round_mode: RoundMode::Up,
        axis: None,
    };
    for (i, attr) in attrs.iter().enumerate() {
        if attrs[..i].iter().any(|a| a.name == attr.name) {
            return Err(Error::DuplicateAttribute {
                op,
                name: attr.name.clone(),
            });
        }
        let Some(a) = spec.attrs.iter().find(|a| a.name == attr.name) else {
            return Err(Error::UnknownAttribute {
                op,
                name: attr.name.clone(),
                allowed_from: attr_allowed_from(op.op, op.since, &attr.name),
            });
        };
        apply(spec, a, &attr.value, &mut out)?;
    }
    for a in spec.attrs {
        if attrs.iter().any(|given| given.name == a.name) {
            continue;
        }
        let value = match a.default {
            AttrDefault::Required => {
                return Err(Error::MissingAttribute { op, name: a.name });
            }
            AttrDefault::Int(i) => AttrValue::Int(i),
            AttrDefault::Str(s) => AttrValue::String(s.as_bytes().to_vec()),
        };
        apply(spec, a, &value, &mut out)?;
    }
    Ok(out)
}

/// Checks one value against its spec and stores it in `out`.
fn apply(
    spec: &VersionSpec,
    a: &AttrSpec,
    value: &AttrValue,
    out: &mut Resolved,
) -> Result<(), Error> {
    let op = spec.version;
    let bad = |value: String, expected: String| Error::AttributeValue {
        op,
        name: a.name,
        value,
        expected,
    };
    match (a.kind, value) {
        (AttrKind::TypeName, AttrValue::String(s)) => {
            let name = std::str::from_utf8(s).ok();
            let t = name.and_then(DataType::from_name).ok_or_else(|| {
                bad(
                    quoted(s),
                    "a TensorProto.DataType name such as \"FLOAT\"".into(),
                )
            })?;
            out.to = Some(allowed_target(spec, t)?);
        }
        (AttrKind::TypeCode, AttrValue::Int(i)) => {
            let t = i32::try_from(*i)
                .ok()
                .and_then(DataType::from_code)
                .ok_or_else(|| bad(i.to_string(), expected_code(spec)))?;
            out.to = Some(allowed_target(spec, t)?);
        }
        (AttrKind::Flag, AttrValue::Int(i)) => match i {
            0 | 1 => out.saturate = *i == 1,
            _ => return Err(bad(i.to_string(), "0 or 1".into())),
        },
        (AttrKind::RoundMode, AttrValue::String(s)) => {
            out.round_mode = match s.as_slice() {
                b"up" => RoundMode::Up,
                b"down" => RoundMode::Down,
                b"nearest" => RoundMode::Nearest,
                _ => return Err(bad(quoted(s), "\"up\", \"down\" or \"nearest\"".into())),
            }
        }
        // The range check needs the rank, so it happens in Concat itself.
        (AttrKind::Axis { .. }, AttrValue::Int(i)) => out.axis = Some(*i),
        (kind, found) => {
            return Err(Error::AttributeType {
                op,
                name: a.name.to_owned(),
                expected: kind.proto_type(),
                found: type_name(found),
            })
        }
    }
    Ok(())
}

/// What a `to` code must be; names the types the page allows that this crate lacks (their
/// codes are unknown here, so such a `to` lands in this error).
fn expected_code(spec: &VersionSpec) -> String {
    let codes = "a TensorProto.DataType code, 1 to 26";
    match spec.not_implemented {
        [] => codes.to_owned(),
        missing => format!(
            "{codes} ({} allows {} too, which are not implemented)",
            spec.version,
            missing.join(", ")
        ),
    }
}

/// `t` if the version allows it as a cast target.
fn allowed_target(spec: &VersionSpec, t: DataType) -> Result<DataType, Error> {
    super::check_type(spec, t, "target type")?;
    Ok(t)
}

/// The AttributeProto type name of a value.
fn type_name(v: &AttrValue) -> &'static str {
    match v {
        AttrValue::Float(_) => "FLOAT",
        AttrValue::Int(_) => "INT",
        AttrValue::String(_) => "STRING",
        AttrValue::Floats(_) => "FLOATS",
        AttrValue::Ints(_) => "INTS",
        AttrValue::Strings(_) => "STRINGS",
        AttrValue::Tensor(_) => "TENSOR",
        AttrValue::Other(_) => "another attribute type",
    }
}

/// A byte string for an error message: lossy UTF-8, quoted, cut to 40 characters.
fn quoted(s: &[u8]) -> String {
    let text: String = String::from_utf8_lossy(s).chars().take(40).collect();
    format!("{text:?}")
}

#[cfg(test)]
mod tests {
    use super::super::version::spec_of;
    use super::super::{OpKind, OpVersion};
    use super::*;
    use crate::testkit::{int, text};

    fn v(op: OpKind, since: u32) -> &'static VersionSpec {
        spec_of(OpVersion { op, since }).expect("version in table")
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
        let r = resolve(v(OpKind::Cast, 25), &[int("to", 1)]).expect("valid");
        assert_eq!(r.to, Some(DataType::Float));
        assert!(r.saturate);
        assert_eq!(r.round_mode, RoundMode::Up);
        let r = resolve(v(OpKind::Concat, 1), &[]).expect("valid");
        assert_eq!(r.axis, Some(1));
        let r = resolve(v(OpKind::Cast, 1), &[text("to", "FLOAT16")]).expect("valid");
        assert_eq!(r.to, Some(DataType::Float16));
        let r = resolve(
            v(OpKind::Cast, 24),
            &[int("to", 24), text("round_mode", "down")],
        );
        assert_eq!(r.map(|r| r.round_mode), Ok(RoundMode::Down));
        let r = resolve(v(OpKind::CastLike, 19), &[int("saturate", 0)]);
        assert_eq!(r.map(|r| r.saturate), Ok(false));
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
        for bad in [0, 27, -1, 1 << 40] {
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
    fn cast_28_refuses_the_float6_types_by_name() {
        let cast_28 = v(OpKind::Cast, 28);
        // The float6 codes follow INT2 (26); whatever they are, they are not ours.
        for code in [27, 28] {
            let e = reject(cast_28, &[int("to", code)]);
            assert!(matches!(e, Error::AttributeValue { name: "to", .. }), "{e}");
            let msg = e.to_string();
            assert!(
                msg.contains(
                    "Cast-28 allows FLOAT6E2M3, FLOAT6E3M2 too, which are not implemented"
                ),
                "{msg}"
            );
        }
        // Versions without missing types say nothing of them.
        let e = reject(v(OpKind::Cast, 25), &[int("to", 27)]);
        assert_eq!(
            e.to_string(),
            "Cast-25 attribute \"to\" has value 27; expected a TensorProto.DataType code, 1 to 26"
        );
        // Every implemented type still works at Cast-28.
        let r = resolve(cast_28, &[int("to", 26), text("round_mode", "down")]);
        assert_eq!(
            r.map(|r| (r.to, r.round_mode)),
            Ok((Some(DataType::Int2), RoundMode::Down))
        );
    }

    #[test]
    fn rejects_duplicates() {
        let e = reject(v(OpKind::Cast, 13), &[int("to", 1), int("to", 1)]);
        assert!(matches!(e, Error::DuplicateAttribute { .. }));
    }
}
