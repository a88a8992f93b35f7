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
    // Cast-28 (onnx 1.23) only adds the two float6 types; for every other type it is
    // Cast-25, text included (its `saturate` text still names float8 only).
    row(Cast, 28, types::CAST_28, &[TO_CODE, SATURATE, ROUND_MODE]),
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
mod tests;
