//! The reports crate's error: what went wrong reading, comparing or writing reports, its
//! message unchanged from the part that failed.

use std::fmt;

/// A failure of a report task.
#[derive(Debug)]
pub enum Error {
    /// A report, scoreboard or README that does not hold what the task needs, in words naming
    /// the file.
    Report(String),
    /// The harness could not read a report or its list.
    Harness(harness::Error),
    /// A file could not be written aside and renamed, or its directory locked.
    Files(schema::files::Error),
    /// A file that is not the JSON it should be.
    Json(serde_json::Error),
    /// A file that could not be read or written.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Report(m) => f.write_str(m),
            Error::Harness(e) => e.fmt(f),
            Error::Files(e) => e.fmt(f),
            Error::Json(e) => e.fmt(f),
            Error::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(m: String) -> Error {
        Error::Report(m)
    }
}

impl From<&str> for Error {
    fn from(m: &str) -> Error {
        Error::Report(m.to_string())
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

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Io(e)
    }
}
