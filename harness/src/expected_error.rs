//! Cases that must be refused: a case directory holding [`FILE`] is bad input on purpose (a
//! file that breaks a storage rule of onnx.proto, a type its operator version does not allow),
//! and its trial passes only when the harness's reader refuses it with a message holding every
//! expected part (the file, the tensor or value, the rule). It never reaches a backend, so
//! every backend gets the same verdict. `cargo xtask own-cases` writes such cases and this file
//! with the same struct (docs/running.md, "cases that must be refused").

use crate::case::Case;
use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The file name, beside `model.onnx`.
pub const FILE: &str = "expected_error.json";

/// What the refusal of a bad case must say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedError {
    /// The rule the case breaks, in words, for the reader of a failing trial.
    pub rule: String,
    /// Parts that must all appear in the refusal (as `path: message`): the file, the tensor or
    /// value, and the rule's words. Never empty.
    pub expect: Vec<String>,
}

impl ExpectedError {
    /// The file's bytes as the writer puts them: pretty JSON ending in a newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text.into_bytes()
    }
}

/// The expectation of the case in `dir`, if it has [`FILE`]; an unreadable or malformed file
/// is an error naming it.
pub(crate) fn read(dir: &Path) -> Result<Option<ExpectedError>, String> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    let expected: ExpectedError = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not an expected error ({{rule, expect}}): {e}",
            path.display()
        )
    })?;
    if expected.expect.iter().all(|part| part.trim().is_empty()) {
        return Err(format!(
            "{}: `expect` names nothing, so any refusal would pass",
            path.display()
        ));
    }
    Ok(Some(expected))
}

/// Judges what the reader made of a case that must be refused: `Ok` when it refused it with a
/// message holding every expected part, else what happened instead.
pub(crate) fn judge(expected: &ExpectedError, loaded: Result<Case, Error>) -> Result<(), String> {
    let error = match loaded {
        Ok(_) => {
            return Err(format!(
                "the case must be refused ({}), but the reader accepted it",
                expected.rule
            ))
        }
        Err(e) => e.to_string(),
    };
    let missing: Vec<&str> = expected
        .expect
        .iter()
        .filter(|part| !error.contains(part.as_str()))
        .map(String::as_str)
        .collect();
    match missing.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "the case must be refused ({}) with a message holding {missing:?}; the reader \
             refused it with: {error}",
            expected.rule
        )),
    }
}

#[cfg(test)]
mod tests;
