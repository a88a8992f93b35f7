//! The vocabulary's own failures: a tensor whose shape and storage disagree, and an operator
//! version that the table cannot resolve. The implementation's error wraps these.

use std::fmt;

/// Why a tensor could not be built or an operator version could not be resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The product of a shape overflows `usize`.
    ShapeOverflow {
        /// The offending shape.
        shape: Vec<usize>,
    },
    /// Storage length differs from the product of the shape.
    ElementCount {
        /// The shape given.
        shape: Vec<usize>,
        /// Elements the shape implies.
        expected: usize,
        /// Elements supplied.
        found: usize,
    },
    /// The model's opset is newer than the newest the version table was checked against, so
    /// a newer operator version than the table knows may be in effect.
    OpsetTooNew {
        /// NodeProto.op_type as given.
        op_type: String,
        /// The model's default-domain opset.
        opset: i64,
        /// The newest opset the table covers.
        newest: i64,
    },
    /// No version of the operator is defined at this opset (or the operator is unknown).
    UnknownOperator {
        /// NodeProto.op_type as given.
        op_type: String,
        /// The model's default-domain opset.
        opset: i64,
        /// The first since-version of the operator, if the operator is known at all.
        first: Option<u32>,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ShapeOverflow { shape } => {
                write!(f, "shape {shape:?} has more elements than fit in memory")
            }
            Error::ElementCount {
                shape,
                expected,
                found,
            } => write!(
                f,
                "shape {shape:?} needs {expected} elements but {found} were given"
            ),
            Error::OpsetTooNew {
                op_type,
                opset,
                newest,
            } => write!(
                f,
                "{op_type} at opset {opset}: this implementation knows operator versions up to \
                 opset {newest}; a newer {op_type} version may be in effect there"
            ),
            Error::UnknownOperator {
                op_type,
                opset,
                first: Some(first),
            } => write!(
                f,
                "{op_type} is not defined at opset {opset} (its first version is {op_type}-{first})"
            ),
            Error::UnknownOperator { op_type, opset, .. } => write!(
                f,
                "unknown operator {op_type:?} at opset {opset} (supported: Cast, CastLike, Concat)"
            ),
        }
    }
}

impl std::error::Error for Error {}
