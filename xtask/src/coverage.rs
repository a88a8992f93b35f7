//! `cargo xtask coverage [--check] [--report FILE]`: the coverage tables of the `reports`
//! crate, written into the README and `docs/coverage.md`, or checked.

use std::error::Error;
use std::path::Path;

/// Runs the task with the options after `coverage`.
pub fn main(root: &Path, args: &crate::cli::Coverage) -> Result<(), Box<dyn Error>> {
    let check = args.check;
    let report = args
        .report
        .clone()
        .unwrap_or_else(|| crate::report::default_dir().join(harness::report::JSON_FILE));
    let update = reports::coverage::update(root, &report, check)?;
    for rejected in &update.rejected {
        eprintln!("warning: {rejected}");
    }
    let stale = update.stale;
    match stale.is_empty() {
        true => {
            eprintln!("README.md and docs/coverage.md are up to date");
            Ok(())
        }
        false if check => Err(format!(
            "out of date: {}; run `cargo xtask coverage` after a full conformance run",
            stale.join(", ")
        )
        .into()),
        false => {
            eprintln!("wrote {}", stale.join(", "));
            Ok(())
        }
    }
}
