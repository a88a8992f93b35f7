//! The error type of the implementation crate: every failure is a value, never a panic.

use std::fmt;

/// Why a tensor could not be built or an operator could not run.
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
    /// A part of the implementation that does not exist yet.
    NotImplemented(&'static str),
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
            Error::NotImplemented(what) => write!(f, "{what} not implemented yet"),
        }
    }
}

impl std::error::Error for Error {}
