//! The onnx releases that ship node-test data as files, and which of them a run takes.

use super::args::Options;
use super::error::{Error, Result};
use schema::index::release_numbers;
use std::path::Path;

/// The releases fetched by default: the last patch of every minor release that ships
/// `onnx/backend/test/data/node` in its wheel (1.23 and later generate cases in memory).
pub const RELEASES: [&str; 21] = [
    "1.2.3", "1.3.0", "1.4.1", "1.5.0", "1.6.0", "1.7.0", "1.8.1", "1.9.0", "1.10.2", "1.11.0",
    "1.12.0", "1.13.1", "1.14.1", "1.15.0", "1.16.2", "1.17.0", "1.18.0", "1.19.1", "1.20.1",
    "1.21.0", "1.22.0",
];

/// The case-directory prefixes extracted by default (`test_cast` includes `test_castlike`).
pub const DEFAULT_OPS: [&str; 2] = ["test_cast", "test_concat"];

/// [`DEFAULT_OPS`] as owned strings, for a new lock.
pub fn default_ops() -> Vec<String> {
    DEFAULT_OPS.iter().map(|s| s.to_string()).collect()
}

/// Python versions to ask pip for, best guess first: a release's wheels exist only for the
/// Python versions current when it came out (measured: 1.2-1.6 need 3.6, 1.7-1.12 3.8, 1.13+ 3.11).
pub fn python_versions(release: &str) -> [&'static str; 3] {
    let minor = release_numbers(release)
        .and_then(|n| n.get(1).copied())
        .unwrap_or(0);
    match minor {
        0..=6 => ["3.6", "3.8", "3.11"],
        7..=12 => ["3.8", "3.11", "3.6"],
        _ => ["3.11", "3.8", "3.6"],
    }
}

/// Whether `s` looks like a release number (`1.22.0`, digits and dots only).
pub fn is_release(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The releases of this run: `--release`, else the one `--from` names, else all.
pub fn selected(opts: &Options) -> Result<Vec<String>> {
    match &opts.from {
        Some(from) => {
            let named = release_of_source(from)?;
            match (opts.releases.first(), named) {
                (Some(r), Some(n)) if *r != n => Err(Error::new(format!(
                    "--release {r} but {} holds onnx {n}",
                    from.display()
                ))),
                (Some(r), _) => Ok(vec![r.clone()]),
                (None, Some(n)) => Ok(vec![n]),
                (None, None) => Err(Error::new(format!(
                    "cannot tell which onnx release {} holds",
                    from.display()
                ))
                .hint("add --release V")),
            }
        }
        None if opts.releases.is_empty() => Ok(RELEASES.iter().map(|r| r.to_string()).collect()),
        None => {
            let mut seen = std::collections::BTreeSet::new();
            Ok(opts
                .releases
                .iter()
                .filter(|r| seen.insert(*r))
                .cloned()
                .collect())
        }
    }
}

/// The release a `--from` path holds: from a wheel's file name (`onnx-<V>-...whl`) or a
/// checkout's `VERSION_NUMBER`.
fn release_of_source(from: &Path) -> Result<Option<String>> {
    if from.is_dir() {
        let v = std::fs::read_to_string(from.join("VERSION_NUMBER")).ok();
        return Ok(v.map(|v| v.trim().to_string()).filter(|v| is_release(v)));
    }
    if !from.is_file() {
        return Err(Error::new(format!(
            "--from {}: no such file or directory",
            from.display()
        )));
    }
    let name = from
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let v = name.strip_prefix("onnx-").and_then(|r| r.split('-').next());
    Ok(v.filter(|v| is_release(v)).map(str::to_string))
}

#[cfg(test)]
mod tests;
