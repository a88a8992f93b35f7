//! The harness error: which kind of thing failed (a case's files, a backend, a worker, a
//! setting, a known-failures list, a report), and the message saying what and where.

use std::fmt;
use std::path::{Path, PathBuf};

/// A harness failure, by the kind of thing that failed; each carries the message printed.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// Reading or writing a case, model, tensor or the data index, naming the file concerned.
    Case {
        /// The file or directory concerned, if any.
        path: Option<PathBuf>,
        /// What went wrong, lowercase, naming the field or tensor.
        message: String,
    },
    /// Choosing or starting a backend: an unknown name, a runtime not set up, a failed start.
    Backend(String),
    /// Starting, talking to or checking a worker process (docs/worker-protocol.md).
    Worker(String),
    /// A setting (environment variable or option) that cannot be used.
    Settings(String),
    /// A known-failures list that cannot be read or does not parse, naming its file if known.
    Known {
        /// The list's file, if any (a list parsed from text has none).
        path: Option<PathBuf>,
        /// What is wrong, naming the entry and the field.
        message: String,
    },
    /// A report that cannot serve: another backend's run, or a partial one for a full list.
    Report(String),
    /// Writing a file a command makes (a refreshed list, a worker skeleton) or its output.
    Output(String),
}

impl Error {
    /// An error about `path` while reading or writing a case.
    pub fn at(path: impl AsRef<Path>, message: impl Into<String>) -> Error {
        Error::Case {
            path: Some(path.as_ref().to_path_buf()),
            message: message.into(),
        }
    }

    /// A known-failures list's error about `path`.
    pub fn known_at(path: impl AsRef<Path>, message: impl Into<String>) -> Error {
        Error::Known {
            path: Some(path.as_ref().to_path_buf()),
            message: message.into(),
        }
    }

    /// An error reading or writing a case, not tied to a file.
    pub fn msg(message: impl Into<String>) -> Error {
        Error::Case {
            path: None,
            message: message.into(),
        }
    }

    /// This error, naming `path` if it is about a case or a list and names no file yet.
    pub fn in_file(mut self, path: impl AsRef<Path>) -> Error {
        if let Error::Case { path: p @ None, .. } | Error::Known { path: p @ None, .. } = &mut self
        {
            *p = Some(path.as_ref().to_path_buf());
        }
        self
    }

    /// The message without the file it names, if any.
    pub fn message(&self) -> &str {
        match self {
            Error::Case { message, .. } | Error::Known { message, .. } => message,
            Error::Backend(m)
            | Error::Worker(m)
            | Error::Settings(m)
            | Error::Report(m)
            | Error::Output(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Case {
                path: Some(p),
                message,
            }
            | Error::Known {
                path: Some(p),
                message,
            } => write!(f, "{}: {message}", p.display()),
            other => f.write_str(other.message()),
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
