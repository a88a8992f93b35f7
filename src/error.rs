//! The error type of the implementation crate: every failure is a value, never a panic.

use crate::dtype::DataType;
use crate::ops::OpVersion;
use std::fmt;

/// Why a tensor could not be built or an operator could not run.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// A tensor or an operator version the vocabulary refuses (a shape whose product overflows
    /// `usize`, element count, unknown operator, opset newer than the version table).
    Vocab(vocab::Error),
    /// The node carries an attribute this operator version does not define.
    UnknownAttribute {
        /// The operator version.
        op: OpVersion,
        /// The attribute name.
        name: String,
        /// The first later version of the operator that defines it, if any.
        allowed_from: Option<u32>,
    },
    /// The same attribute appears twice on one node.
    DuplicateAttribute {
        /// The operator version.
        op: OpVersion,
        /// The attribute name.
        name: String,
    },
    /// A required attribute is absent.
    MissingAttribute {
        /// The operator version.
        op: OpVersion,
        /// The attribute name.
        name: &'static str,
    },
    /// An attribute has the wrong AttributeProto type.
    AttributeType {
        /// The operator version.
        op: OpVersion,
        /// The attribute name.
        name: String,
        /// The type the version requires, as in `INT`.
        expected: &'static str,
        /// The type found.
        found: &'static str,
    },
    /// An attribute value outside what the version accepts.
    AttributeValue {
        /// The operator version.
        op: OpVersion,
        /// The attribute name.
        name: &'static str,
        /// The value found, printed.
        value: String,
        /// What is accepted, in words.
        expected: String,
    },
    /// An element type (of an input or a cast target) that the version does not allow.
    TypeNotAllowed {
        /// The operator version.
        op: OpVersion,
        /// The type.
        dtype: DataType,
        /// Where it appeared, as in `input 0` or `target type`.
        role: String,
        /// The first later version of the operator that allows it, if any.
        allowed_from: Option<u32>,
    },
    /// The node has the wrong number of inputs.
    InputCount {
        /// The operator version.
        op: OpVersion,
        /// How many are accepted, in words.
        expected: &'static str,
        /// How many were given.
        found: usize,
    },
    /// Inputs that must share an element type do not.
    InputTypeMismatch {
        /// The operator version.
        op: OpVersion,
        /// The index of the offending input.
        input: usize,
        /// The type of input 0.
        expected: DataType,
        /// The type of the offending input.
        found: DataType,
    },
    /// A rank the operator cannot accept (Concat: scalars, or ranks differing from input 0).
    Rank {
        /// The operator version.
        op: OpVersion,
        /// The index of the offending input.
        input: usize,
        /// The rank required (`None`: any rank of at least 1).
        expected: Option<usize>,
        /// The rank found.
        found: usize,
    },
    /// A dimension that must match input 0's does not.
    DimMismatch {
        /// The operator version.
        op: OpVersion,
        /// The index of the offending input.
        input: usize,
        /// The dimension index.
        dim: usize,
        /// Input 0's size there.
        expected: usize,
        /// The offending input's size there.
        found: usize,
    },
    /// An axis outside [-rank, rank-1] (or negative where the version forbids it).
    AxisOutOfRange {
        /// The operator version.
        op: OpVersion,
        /// The axis as given.
        axis: i64,
        /// The rank of the inputs.
        rank: usize,
    },
    /// A string element that does not parse as a number of the target type.
    ParseString {
        /// The operator version.
        op: OpVersion,
        /// Row-major element index.
        index: usize,
        /// The offending element (lossily decoded, cut short).
        value: String,
        /// The cast target.
        target: DataType,
    },
    /// A run-time setting (an environment variable of [`crate::tuning`]) has a bad value.
    Setting {
        /// The variable's name.
        name: &'static str,
        /// The value found.
        value: String,
        /// What it may be.
        expected: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Vocab(e) => e.fmt(f),
            Error::UnknownAttribute {
                op,
                name,
                allowed_from,
            } => {
                write!(f, "{op} has no attribute {name:?}")?;
                from_suffix(f, op, *allowed_from)
            }
            Error::DuplicateAttribute { op, name } => {
                write!(f, "{op} node has attribute {name:?} more than once")
            }
            Error::MissingAttribute { op, name } => {
                write!(f, "{op} requires attribute {name:?}")
            }
            Error::AttributeType {
                op,
                name,
                expected,
                found,
            } => write!(
                f,
                "{op} attribute {name:?} must be of type {expected}, found {found}"
            ),
            Error::AttributeValue {
                op,
                name,
                value,
                expected,
            } => write!(
                f,
                "{op} attribute {name:?} has value {value}; expected {expected}"
            ),
            Error::TypeNotAllowed {
                op,
                dtype,
                role,
                allowed_from,
            } => {
                write!(f, "{op} does not allow {dtype} as {role}")?;
                from_suffix(f, op, *allowed_from)
            }
            Error::InputCount {
                op,
                expected,
                found,
            } => write!(f, "{op} takes {expected} but the node has {found}"),
            Error::InputTypeMismatch {
                op,
                input,
                expected,
                found,
            } => write!(
                f,
                "{op} input {input} is {found} but input 0 is {expected}; all inputs must share one type"
            ),
            Error::Rank {
                op,
                input,
                expected: Some(expected),
                found,
            } => write!(
                f,
                "{op} input {input} has rank {found} but input 0 has rank {expected}"
            ),
            Error::Rank {
                op, input, found, ..
            } => write!(
                f,
                "{op} input {input} has rank {found}; a rank of at least 1 is required"
            ),
            Error::DimMismatch {
                op,
                input,
                dim,
                expected,
                found,
            } => write!(
                f,
                "{op} input {input} has size {found} in dimension {dim} but input 0 has {expected}; only the axis dimension may differ"
            ),
            Error::AxisOutOfRange { op, axis, rank } => {
                write!(f, "{op} axis {axis} is out of range for rank {rank}")?;
                if op.since() < 11 && *axis < 0 {
                    write!(f, " (negative axes are allowed from Concat-11)")
                } else {
                    write!(f, " (allowed: {} to {})", -(*rank as i128), *rank as i128 - 1)
                }
            }
            Error::ParseString {
                op,
                index,
                value,
                target,
            } => write!(
                f,
                "{op} cannot parse string element {index} ({value:?}) as a {target} number"
            ),
            Error::Setting {
                name,
                value,
                expected,
            } => write!(f, "{name} is {value:?}; expected {expected}"),
        }
    }
}

/// Appends "(allowed from Op-N)" or "(no version allows it)".
fn from_suffix(f: &mut fmt::Formatter<'_>, op: &OpVersion, from: Option<u32>) -> fmt::Result {
    match from {
        Some(v) => write!(f, " (allowed from {}-{v})", op.op()),
        None => write!(f, " (no version of {} allows it)", op.op()),
    }
}

impl std::error::Error for Error {}

impl From<vocab::Error> for Error {
    fn from(e: vocab::Error) -> Self {
        Error::Vocab(e)
    }
}
