//! The fetch error: one message saying what failed (naming the file or release) and what to do.

use std::fmt;
use std::path::Path;

/// A fetch failure: what went wrong, and optionally what the user can do about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// What failed, naming the file, release or command concerned.
    pub message: String,
    /// What to do next, if there is something to do.
    pub hint: Option<String>,
}

/// Result of a fetch step.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error with no hint.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            hint: None,
        }
    }

    /// Adds (or replaces) the hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Error {
        self.hint = Some(hint.into());
        self
    }

    /// An I/O failure on `path`, e.g. a full disk while writing an extracted file.
    pub fn io(what: &str, path: &Path, err: std::io::Error) -> Error {
        Error::new(format!("cannot {what} {}: {err}", path.display())).hint_for(&err)
    }

    /// The hint an I/O error deserves, if any.
    fn hint_for(self, err: &std::io::Error) -> Error {
        if err.kind() == std::io::ErrorKind::StorageFull {
            self.hint("free some disk space and re-run; data fetched before is left as it was")
        } else {
            self
        }
    }
}

/// A state file written aside and renamed, or the data directory's lock: the message names
/// the path (`schema::files`), and a full disk gets its hint.
impl From<schema::files::Error> for Error {
    fn from(e: schema::files::Error) -> Error {
        let message = Error::new(e.to_string());
        match &e {
            schema::files::Error::Io { source, .. } => message.hint_for(source),
            schema::files::Error::Busy { .. } => message,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}
