//! The table of operator versions: since-version, allowed types and attributes of each, and
//! version resolution from a model opset. Everything version-dependent is read from here.

use crate::error::Error;
use crate::op::{OpKind, OpVersion};
use crate::types::{self, TypeSet};
use crate::DataType;

/// What an attribute holds and which values are accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrKind {
    /// STRING: a DataType name such as `"FLOAT"` (Cast-1 `to`).
    TypeName,
    /// INT: a DataType enum code (Cast-6 and later `to`).
    TypeCode,
    /// INT: 0 or 1 (`saturate`).
    Flag,
    /// STRING: `"up"`, `"down"` or `"nearest"` (`round_mode`).
    RoundMode,
    /// INT: an axis; `negative` says whether values below 0 are allowed.
    Axis {
        /// Whether negative axes (counted from the end) are allowed.
        negative: bool,
    },
}

impl AttrKind {
    /// The AttributeProto type name the attribute must have.
    pub const fn proto_type(self) -> &'static str {
        match self {
            AttrKind::TypeName | AttrKind::RoundMode => "STRING",
            AttrKind::TypeCode | AttrKind::Flag | AttrKind::Axis { .. } => "INT",
        }
    }
}

/// The value an absent attribute takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrDefault {
    /// The attribute must be present.
    Required,
    /// An INT default.
    Int(i64),
    /// A STRING default.
    Str(&'static str),
}

/// One attribute a version defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttrSpec {
    /// The attribute name.
    pub name: &'static str,
    /// Its type and accepted values.
    pub kind: AttrKind,
    /// Its default, or that it is required.
    pub default: AttrDefault,
}

/// One operator version: its allowed element types and its attributes. Only this module
/// builds one, so every [`OpVersion`] names a real row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionSpec {
    /// This row, as a version (set by [`numbered`]).
    version: OpVersion,
    /// Which operator.
    op: OpKind,
    /// The operator's since-version.
    since: u32,
    /// Types allowed for every input and output (Cast: T1 = T2; Concat: T).
    pub types: TypeSet,
    /// The attributes the version defines.
    pub attrs: &'static [AttrSpec],
    /// Types the operator page allows at this version that this crate does not have, by ONNX
    /// name; `types` leaves them out.
    pub not_implemented: &'static [&'static str],
}

impl VersionSpec {
    /// The operator version this row describes.
    pub const fn version(&self) -> OpVersion {
        self.version
    }

    /// Which operator.
    pub const fn op(&self) -> OpKind {
        self.op
    }

    /// The since-version, as in Cast-19.
    pub const fn since(&self) -> u32 {
        self.since
    }
}

const TO_NAME: AttrSpec = spec("to", AttrKind::TypeName, AttrDefault::Required);
const TO_CODE: AttrSpec = spec("to", AttrKind::TypeCode, AttrDefault::Required);
const SATURATE: AttrSpec = spec("saturate", AttrKind::Flag, AttrDefault::Int(1));
const ROUND_MODE: AttrSpec = spec("round_mode", AttrKind::RoundMode, AttrDefault::Str("up"));
const AXIS_1: AttrSpec = spec(
    "axis",
    AttrKind::Axis { negative: false },
    AttrDefault::Int(1),
);
const AXIS_4: AttrSpec = spec(
    "axis",
    AttrKind::Axis { negative: false },
    AttrDefault::Required,
);
const AXIS_11: AttrSpec = spec(
    "axis",
    AttrKind::Axis { negative: true },
    AttrDefault::Required,
);

const fn spec(name: &'static str, kind: AttrKind, default: AttrDefault) -> AttrSpec {
    AttrSpec {
        name,
        kind,
        default,
    }
}

const fn row(op: OpKind, since: u32, types: TypeSet, attrs: &'static [AttrSpec]) -> VersionSpec {
    VersionSpec {
        version: OpVersion::at_row(0),
        op,
        since,
        types,
        attrs,
        not_implemented: &[],
    }
}

/// The newest ai.onnx opset whose Cast, CastLike and Concat versions this table was checked
/// against (onnx 1.23.0). Beyond it a newer operator version may exist, so resolving there
/// would be a guess: it is an error instead.
pub const NEWEST_KNOWN_OPSET: i64 = 28;

use OpKind::{Cast, CastLike, Concat};

/// `rows` with each row's `version` set to its own index.
const fn numbered<const N: usize>(mut rows: [VersionSpec; N]) -> [VersionSpec; N] {
    assert!(N <= 256, "an OpVersion holds its row in a u8");
    let mut i = 0;
    while i < N {
        rows[i].version = OpVersion::at_row(i as u8);
        i += 1;
    }
    rows
}

/// Every operator version, grouped by operator in [`OpKind`] order, since-version ascending
/// (so that `OpVersion`'s order is the table's).
pub static VERSIONS: &[VersionSpec] = &numbered([
    row(Cast, 1, types::CAST_1, &[TO_NAME]),
    row(Cast, 6, types::CAST_1, &[TO_CODE]),
    row(Cast, 9, types::CAST_9, &[TO_CODE]),
    row(Cast, 13, types::CAST_13, &[TO_CODE]),
    row(Cast, 19, types::CAST_19, &[TO_CODE, SATURATE]),
    row(Cast, 21, types::CAST_21, &[TO_CODE, SATURATE]),
    row(Cast, 23, types::CAST_23, &[TO_CODE, SATURATE]),
    row(Cast, 24, types::CAST_24, &[TO_CODE, SATURATE, ROUND_MODE]),
    row(Cast, 25, types::CAST_25, &[TO_CODE, SATURATE, ROUND_MODE]),
    // Cast-28 (onnx 1.23) only adds the two float6 types, which the data-type table lacks;
    // for every other type it is Cast-25, text included.
    VersionSpec {
        not_implemented: &["FLOAT6E2M3", "FLOAT6E3M2"],
        ..row(Cast, 28, types::CAST_25, &[TO_CODE, SATURATE, ROUND_MODE])
    },
    row(CastLike, 15, types::CAST_13, &[]),
    row(CastLike, 19, types::CAST_19, &[SATURATE]),
    row(CastLike, 21, types::CAST_21, &[SATURATE]),
    row(CastLike, 23, types::CAST_23, &[SATURATE]),
    row(CastLike, 24, types::CAST_24, &[SATURATE, ROUND_MODE]),
    row(CastLike, 25, types::CAST_25, &[SATURATE, ROUND_MODE]),
    row(Concat, 1, types::CONCAT_1, &[AXIS_1]),
    row(Concat, 4, types::CONCAT_4, &[AXIS_4]),
    row(Concat, 11, types::CONCAT_4, &[AXIS_11]),
    row(Concat, 13, types::CONCAT_13, &[AXIS_11]),
]);

/// The rows of one operator, since-version ascending.
pub fn versions_of(op: OpKind) -> impl Iterator<Item = &'static VersionSpec> {
    VERSIONS.iter().filter(move |s| s.op == op)
}

/// The version of `op_type` in effect at `opset`: the largest since-version not above it.
pub fn resolve(op_type: &str, opset: i64) -> Result<OpVersion, Error> {
    let unknown = |first| Error::UnknownOperator {
        op_type: op_type.to_owned(),
        opset,
        first,
    };
    let op = OpKind::from_name(op_type).ok_or_else(|| unknown(None))?;
    if opset > NEWEST_KNOWN_OPSET {
        return Err(Error::OpsetTooNew {
            op_type: op_type.to_owned(),
            opset,
            newest: NEWEST_KNOWN_OPSET,
        });
    }
    versions_of(op)
        .filter(|s| i64::from(s.since) <= opset)
        .map(|s| s.version)
        .last()
        .ok_or_else(|| unknown(versions_of(op).next().map(|s| s.since)))
}

/// The first version of `op` after `since` that allows `dtype`, for error messages.
pub fn type_allowed_from(op: OpKind, since: u32, dtype: DataType) -> Option<u32> {
    versions_of(op)
        .find(|s| s.since > since && s.types.contains(dtype))
        .map(|s| s.since)
}

/// The first version of `op` after `since` that defines attribute `name`, for error messages.
pub fn attr_allowed_from(op: OpKind, since: u32, name: &str) -> Option<u32> {
    versions_of(op)
        .find(|s| s.since > since && s.attrs.iter().any(|a| a.name == name))
        .map(|s| s.since)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn since(op: &str, opset: i64) -> u32 {
        resolve(op, opset).map(OpVersion::since).unwrap_or(0)
    }

    #[test]
    fn resolves_the_largest_since_version_not_above_the_opset() {
        let cast = [
            (1, 1),
            (5, 1),
            (6, 6),
            (8, 6),
            (9, 9),
            (12, 9),
            (13, 13),
            (18, 13),
        ];
        for (opset, want) in cast {
            assert_eq!(since("Cast", opset), want, "opset {opset}");
        }
        let cast = [
            (19, 19),
            (20, 19),
            (21, 21),
            (22, 21),
            (23, 23),
            (24, 24),
            (25, 25),
        ];
        for (opset, want) in cast {
            assert_eq!(since("Cast", opset), want, "opset {opset}");
        }
        assert_eq!(since("Cast", 27), 25);
        let like = [
            (15, 15),
            (18, 15),
            (19, 19),
            (21, 21),
            (23, 23),
            (24, 24),
            (26, 25),
        ];
        for (opset, want) in like {
            assert_eq!(since("CastLike", opset), want, "opset {opset}");
        }
        let concat = [
            (1, 1),
            (3, 1),
            (4, 4),
            (10, 4),
            (11, 11),
            (12, 11),
            (13, 13),
            (25, 13),
        ];
        for (opset, want) in concat {
            assert_eq!(since("Concat", opset), want, "opset {opset}");
        }
    }

    #[test]
    fn resolve_rejects_unknown_operators_and_low_opsets() {
        let err = resolve("Relu", 13).unwrap_err();
        assert!(matches!(err, Error::UnknownOperator { first: None, .. }));
        assert!(err.to_string().contains("Relu") && err.to_string().contains("13"));
        let err = resolve("CastLike", 14).unwrap_err();
        assert!(matches!(
            err,
            Error::UnknownOperator {
                first: Some(15),
                ..
            }
        ));
        assert!(err.to_string().contains("CastLike-15"), "{err}");
        assert!(resolve("Cast", 0).is_err());
        assert!(resolve("Concat", -3).is_err());
        assert!(resolve("cast", 13).is_err(), "op_type is case-sensitive");
    }

    #[test]
    fn resolution_stops_at_the_newest_known_opset() {
        assert_eq!(since("Cast", 27), 25);
        assert_eq!(since("Cast", 28), 28);
        assert_eq!(since("CastLike", 28), 25);
        assert_eq!(since("Concat", 28), 13);
        for op in ["Cast", "CastLike", "Concat"] {
            let err = resolve(op, NEWEST_KNOWN_OPSET + 1).unwrap_err();
            assert!(
                matches!(err, Error::OpsetTooNew { newest: 28, .. }),
                "{err}"
            );
            assert!(err.to_string().contains("opset 29"), "{err}");
        }
    }

    #[test]
    fn only_table_rows_are_versions() {
        assert_eq!(OpVersion::of(OpKind::Cast, 7), None);
        assert_eq!(OpVersion::of(OpKind::CastLike, 1), None);
        assert_eq!(OpVersion::all().count(), VERSIONS.len());
        for s in VERSIONS {
            let v = s.version();
            assert!(std::ptr::eq(v.spec(), s), "{v}");
            assert_eq!((v.op(), v.since()), (s.op, s.since));
            assert_eq!(OpVersion::of(s.op, s.since), Some(v));
        }
    }

    #[test]
    fn table_order_is_operator_then_since_version() {
        // OpVersion derives its order from the row index; this keeps it the (op, since) order.
        for pair in VERSIONS.windows(2) {
            assert!((pair[0].op, pair[0].since) < (pair[1].op, pair[1].since));
            assert!(pair[0].version < pair[1].version);
        }
    }

    #[test]
    fn allowed_from_finds_the_first_later_version() {
        use DataType::*;
        assert_eq!(type_allowed_from(OpKind::Cast, 13, Float8E4M3FN), Some(19));
        assert_eq!(type_allowed_from(OpKind::Cast, 25, Complex64), None);
        assert_eq!(type_allowed_from(OpKind::Concat, 11, Bfloat16), Some(13));
        assert_eq!(attr_allowed_from(OpKind::Cast, 13, "saturate"), Some(19));
        assert_eq!(
            attr_allowed_from(OpKind::CastLike, 23, "round_mode"),
            Some(24)
        );
        assert_eq!(attr_allowed_from(OpKind::CastLike, 15, "to"), None);
        // "After": a version that already has the attribute or type, exactly at the version
        // that introduced it, names the next version that has it, never itself.
        assert_eq!(attr_allowed_from(OpKind::Cast, 19, "saturate"), Some(21));
        assert_eq!(attr_allowed_from(OpKind::Cast, 18, "saturate"), Some(19));
        assert_eq!(attr_allowed_from(OpKind::Cast, 24, "round_mode"), Some(25));
        assert_eq!(attr_allowed_from(OpKind::CastLike, 25, "round_mode"), None);
        assert_eq!(type_allowed_from(OpKind::Cast, 19, Float8E4M3FN), Some(21));
        assert_eq!(type_allowed_from(OpKind::Cast, 25, Int2), Some(28));
    }

    #[test]
    fn only_cast_28_lists_types_it_does_not_implement() {
        for s in VERSIONS {
            let want: &[&str] = match (s.op, s.since) {
                (OpKind::Cast, 28) => &["FLOAT6E2M3", "FLOAT6E3M2"],
                _ => &[],
            };
            assert_eq!(s.not_implemented, want, "{}", s.version);
            for name in s.not_implemented {
                assert_eq!(DataType::from_name(name), None, "{name} is implemented");
            }
        }
        // Cast-28 is Cast-25 for every type this crate has.
        let types = |since| OpVersion::of(Cast, since).map(|v| v.spec().types);
        assert_eq!(types(25), types(28));
    }
}
