//! The fetch's options, as clap arguments of every command that fetches, and their checks.

use super::error::{Error, Result};
use super::releases::is_release;
use std::path::PathBuf;

/// The options of `cargo xtask fetch-tests`.
#[derive(Debug, Clone, Default, PartialEq, clap::Args)]
pub struct Options {
    /// Only this release (repeatable; default: the 21 wheel releases and the derived 1.23.2)
    #[arg(long = "release", value_name = "V", value_parser = release_arg)]
    pub releases: Vec<String>,
    /// Use only wheels already in onnx-backend-data/.cache (never run pip)
    #[arg(long)]
    pub offline: bool,
    /// Take the data from a local wheel, or from an onnx source checkout that has
    /// onnx/backend/test/data/node (the release comes from --release, the wheel's file name,
    /// or the checkout's VERSION_NUMBER)
    #[arg(long, value_name = "PATH")]
    pub from: Option<PathBuf>,
    /// Record what was fetched in the lock file instead of checking against it
    #[arg(long)]
    pub update_lock: bool,
    /// More case-directory prefixes to extract beside the lock's (test_cast, test_concat),
    /// which stay verified; the extra files are not in the lock, and the next run without
    /// --ops removes them
    #[arg(long = "ops", value_name = "P1,P2,...", value_delimiter = ',', value_parser = ops_arg)]
    pub extra_ops: Vec<String>,
    /// Re-hash every extracted file against the lock (default: a cheap check of the file list
    /// and sizes recorded when the release was verified)
    #[arg(long)]
    pub verify: bool,
    /// When another fetch holds the data directory, stop with an error naming it instead of
    /// waiting for it to finish
    #[arg(long)]
    pub no_wait: bool,
    /// Export the cases of onnx V from its Python case generators into
    /// onnx-backend-data/onnx-V-generated/ (needs python3 with venv and pip)
    #[arg(long, value_name = "V", value_parser = release_arg,
          conflicts_with_all = ["from", "offline", "releases"])]
    pub generate: Vec<String>,
}

/// The rule between options that clap does not express: `--from` is one release's data.
pub fn check(o: &Options) -> Result<()> {
    if o.from.is_some() && o.releases.len() > 1 {
        return Err(usage_error(
            "--from takes data for one release; give at most one --release",
        ));
    }
    Ok(())
}

fn usage_error(message: impl Into<String>) -> Error {
    Error::new(message).hint("see `cargo xtask fetch-tests --help`")
}

fn release_arg(v: &str) -> std::result::Result<String, String> {
    if is_release(v) {
        Ok(v.to_string())
    } else {
        Err(format!("`{v}` is not a release number such as 1.22.0"))
    }
}

fn ops_arg(v: &str) -> std::result::Result<String, String> {
    let p = v.trim();
    if p.starts_with("test_") && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        Ok(p.to_string())
    } else {
        Err(format!(
            "`{p}` is not a case prefix such as test_cast (letters, digits, _)"
        ))
    }
}
