//! Operators and their versions, and the attributes a node carries.

use crate::error::Error;
use crate::tensor::Tensor;
use crate::version::{self, VersionSpec, VERSIONS};
use std::fmt;

/// The values of Cast's and CastLike's `round_mode` (version 24 on: how a value rounds into
/// FLOAT8E8M0), one type for the kernels, the deep tree and its authority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoundMode {
    /// `up`, the default: toward +infinity, the larger power of two.
    Up,
    /// `down`: toward zero, the smaller power of two.
    Down,
    /// `nearest`: to the nearer power of two, ties up.
    Nearest,
}

impl RoundMode {
    /// Every mode.
    pub const ALL: [RoundMode; 3] = [RoundMode::Up, RoundMode::Down, RoundMode::Nearest];

    /// The attribute's string value.
    pub fn label(self) -> &'static str {
        match self {
            RoundMode::Up => "up",
            RoundMode::Down => "down",
            RoundMode::Nearest => "nearest",
        }
    }

    /// The mode an attribute's bytes name; `None` for any other bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<RoundMode> {
        RoundMode::ALL
            .into_iter()
            .find(|m| m.label().as_bytes() == bytes)
    }
}

/// An attribute value as a node carries it.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// FLOAT.
    Float(f32),
    /// INT.
    Int(i64),
    /// STRING (bytes; ONNX does not promise UTF-8).
    String(Vec<u8>),
    /// FLOATS.
    Floats(Vec<f32>),
    /// INTS.
    Ints(Vec<i64>),
    /// STRINGS.
    Strings(Vec<Vec<u8>>),
    /// TENSOR.
    Tensor(Tensor),
    /// Any other attribute type (GRAPH, SPARSE_TENSOR, ...), by its AttributeProto.type code.
    Other(i32),
}

impl AttrValue {
    /// The AttributeProto type name of the value, as in `INT`.
    pub const fn type_name(&self) -> &'static str {
        match self {
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
}

/// A named attribute.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The attribute's name, as in `to` or `axis`.
    pub name: String,
    /// Its value.
    pub value: AttrValue,
}

/// The operators the version table describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpKind {
    /// Cast.
    Cast,
    /// CastLike.
    CastLike,
    /// Concat.
    Concat,
}

impl OpKind {
    /// The operator for an ONNX op_type (case-sensitive, default domain).
    pub fn from_name(op_type: &str) -> Option<OpKind> {
        match op_type {
            "Cast" => Some(OpKind::Cast),
            "CastLike" => Some(OpKind::CastLike),
            "Concat" => Some(OpKind::Concat),
            _ => None,
        }
    }

    /// The ONNX op_type.
    pub const fn name(self) -> &'static str {
        match self {
            OpKind::Cast => "Cast",
            OpKind::CastLike => "CastLike",
            OpKind::Concat => "Concat",
        }
    }
}

impl fmt::Display for OpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An operator version that exists: a row of [`VERSIONS`]. It can only be had from
/// [`OpVersion::resolve`] or from the table itself, so its spec is always there to look up.
/// Ordered as the table is: by operator, then since-version.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpVersion {
    /// Index of the version's row in [`VERSIONS`].
    row: u8,
}

impl OpVersion {
    /// The version of the table row at `row`; only the table builds these.
    pub(crate) const fn at_row(row: u8) -> OpVersion {
        OpVersion { row }
    }

    /// The version of `op_type` (default domain) in effect at `opset`: the largest
    /// since-version not above it.
    pub fn resolve(op_type: &str, opset: i64) -> Result<OpVersion, Error> {
        version::resolve(op_type, opset)
    }

    /// The version of `op` whose since-version is exactly `since`, if the table has one.
    pub fn of(op: OpKind, since: u32) -> Option<OpVersion> {
        version::versions_of(op)
            .find(|s| s.since() == since)
            .map(VersionSpec::version)
    }

    /// The version a label such as `Cast-19` names, if the table has that row: the inverse
    /// of its `Display`.
    pub fn parse(label: &str) -> Option<OpVersion> {
        let (op, since) = label.split_once('-')?;
        // Digits only: `Cast-+19` or `Cast-019` would not print back as they were read.
        if since.starts_with('0') || !since.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        OpVersion::of(OpKind::from_name(op)?, since.parse().ok()?)
    }

    /// Every version in the table, in table order.
    pub fn all() -> impl Iterator<Item = OpVersion> {
        VERSIONS.iter().map(VersionSpec::version)
    }

    /// This version's row of the version table (allowed types and attributes).
    pub fn spec(self) -> &'static VersionSpec {
        &VERSIONS[usize::from(self.row)]
    }

    /// Which operator.
    pub fn op(self) -> OpKind {
        self.spec().op()
    }

    /// The operator's since-version, as in Cast-19.
    pub fn since(self) -> u32 {
        self.spec().since()
    }
}

impl fmt::Display for OpVersion {
    /// As in `Cast-19`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.op(), self.since())
    }
}

impl fmt::Debug for OpVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpVersion")
            .field("op", &self.op())
            .field("since", &self.since())
            .finish()
    }
}
