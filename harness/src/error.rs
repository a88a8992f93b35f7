//! The harness error: what went wrong, and which file, case, field or tensor it concerns.

use std::fmt;
use std::path::{Path, PathBuf};

/// A failure to read or run a case, naming the file it concerns.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// The file or directory concerned, if any.
    pub path: Option<PathBuf>,
    /// What went wrong, lowercase, naming the field or tensor.
    pub message: String,
}

impl Error {
    /// An error about `path`.
    pub fn at(path: impl AsRef<Path>, message: impl Into<String>) -> Error {
        Error {
            path: Some(path.as_ref().to_path_buf()),
            message: message.into(),
        }
    }

    /// An error not tied to a file.
    pub fn msg(message: impl Into<String>) -> Error {
        Error {
            path: None,
            message: message.into(),
        }
    }

    /// This error, naming `path` if it does not name a file yet.
    pub fn in_file(mut self, path: impl AsRef<Path>) -> Error {
        if self.path.is_none() {
            self.path = Some(path.as_ref().to_path_buf());
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{}: {}", p.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

impl From<schema::files::Error> for Error {
    fn from(e: schema::files::Error) -> Error {
        match e {
            schema::files::Error::Io { op, path, source } => {
                Error::at(path, format!("cannot {op}: {source}"))
            }
            busy @ schema::files::Error::Busy { .. } => Error::msg(busy.to_string()),
        }
    }
}
