//! The workspace's target directory, one rule for the xtask and the harness: both write their
//! reports and tools there, and must agree on where that is.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The variable cargo reads for the target directory.
pub const TARGET_DIR_VAR: &str = "CARGO_TARGET_DIR";

/// The target directory of `workspace`, given the value of [`TARGET_DIR_VAR`] (if set): a
/// relative value is taken from the workspace, as cargo does when run there; empty or unset
/// means `<workspace>/target`.
pub fn target_dir(workspace: &Path, value: Option<&OsStr>) -> PathBuf {
    match value {
        Some(dir) if !dir.is_empty() => workspace.join(dir),
        _ => workspace.join("target"),
    }
}

#[cfg(test)]
mod tests;
