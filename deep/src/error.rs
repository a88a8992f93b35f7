//! The deep crate's error: what went wrong writing the tree, running it or publishing its
//! findings, its message unchanged from the part that failed.

use std::fmt;

/// A failure of the deep suite's tasks.
#[derive(Debug)]
pub enum Error {
    /// The tree, a run or its findings do not hold what the task needs, in words naming the
    /// file, case or backend.
    Tree(String),
    /// The harness could not read a case, a report or a tensor.
    Harness(harness::Error),
    /// A file could not be written aside and renamed, or the tree's directory locked.
    Files(schema::files::Error),
    /// A file that is not the JSON it should be.
    Json(serde_json::Error),
    /// A model that is not a ModelProto.
    Model(prost::DecodeError),
    /// A tensor that could not be built.
    Tensor(vocab::Error),
    /// A file or directory that could not be read, listed or written.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Tree(m) => f.write_str(m),
            Error::Harness(e) => e.fmt(f),
            Error::Files(e) => e.fmt(f),
            Error::Json(e) => e.fmt(f),
            Error::Model(e) => e.fmt(f),
            Error::Tensor(e) => e.fmt(f),
            Error::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(m: String) -> Error {
        Error::Tree(m)
    }
}

impl From<&str> for Error {
    fn from(m: &str) -> Error {
        Error::Tree(m.to_string())
    }
}

impl From<harness::Error> for Error {
    fn from(e: harness::Error) -> Error {
        Error::Harness(e)
    }
}

impl From<schema::files::Error> for Error {
    fn from(e: schema::files::Error) -> Error {
        Error::Files(e)
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Error {
        Error::Json(e)
    }
}

impl From<prost::DecodeError> for Error {
    fn from(e: prost::DecodeError) -> Error {
        Error::Model(e)
    }
}

impl From<vocab::Error> for Error {
    fn from(e: vocab::Error) -> Error {
        Error::Tensor(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Io(e)
    }
}

impl From<walkdir::Error> for Error {
    fn from(e: walkdir::Error) -> Error {
        Error::Io(e.into())
    }
}

impl From<std::path::StripPrefixError> for Error {
    fn from(e: std::path::StripPrefixError) -> Error {
        Error::Tree(e.to_string())
    }
}
