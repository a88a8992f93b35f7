//! `cargo xtask backends`: prepare the runtimes the suite can judge (`setup`), say which are
//! ready (`list`), and write a backend's known-failures list from its last run
//! (`known-failures`).

mod known;
mod setup;

use crate::cli::BackendsCommand as Command;
use std::error::Error;
use std::path::Path;

/// The backends that `setup` knows, in the order they are prepared: every shipped backend of
/// the harness's table but the built-in one.
pub fn shipped() -> Vec<&'static str> {
    harness::backend::SHIPPED
        .iter()
        .filter(|s| s.start != harness::backend::Start::InProcess)
        .map(|s| s.name)
        .collect()
}

/// Whether shipped backend `name` has what it needs.
pub fn is_set_up(target: &Path, name: &str) -> bool {
    status(target, name).starts_with("ready")
}

/// Whether shipped backend `name` is ready, in words (`ready (...)` or `not set up: ...`).
pub fn status(target: &Path, name: &str) -> String {
    setup::status(target, name)
}

/// Runs the task with the options after `backends`.
pub fn main(root: &Path, args: &crate::cli::Backends) -> Result<(), Box<dyn Error>> {
    let target = crate::workspace::target_dir();
    match &args.command {
        Command::Setup { names } => setup::run(root, &target, names),
        Command::List => {
            for name in harness::backend::SHIPPED.iter().map(|s| s.name) {
                println!("{name:12} {}", setup::status(&target, name));
            }
            Ok(())
        }
        Command::KnownFailures {
            name,
            report,
            output,
        } => known::run(root, &target, name, report.as_deref(), output.as_deref()),
    }
}
