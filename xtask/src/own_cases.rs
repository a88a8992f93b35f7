//! `cargo xtask own-cases`: the `cases` crate's own cases written under `tests/cases/`, or
//! compared with it (`--check`).

use std::error::Error;
use std::path::Path;

/// Runs the task with the options after `own-cases` on the workspace's `tests/cases`.
pub fn main(workspace: &Path, args: &crate::cli::OwnCases) -> Result<(), Box<dyn Error>> {
    let root = &workspace.join("tests/cases");
    // `xtask/../tests/cases` reads better resolved.
    let canonical = root.canonicalize().ok();
    let shown = canonical.as_deref().unwrap_or(root).display();
    if !args.check {
        let n = cases::write(root)?;
        eprintln!("wrote {n} files under {shown}");
        return Ok(());
    }
    let stale = cases::check(root)?;
    if stale.is_empty() {
        eprintln!("{shown} is up to date");
        return Ok(());
    }
    Err(format!(
        "{shown} differs from the generator: {}; run `cargo xtask own-cases`",
        stale.join(", ")
    )
    .into())
}
