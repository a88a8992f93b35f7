//! `cargo xtask backends`: prepare the runtimes the suite can judge (`setup`), say which are
//! ready (`list`), and write a backend's known-failures list from its last run
//! (`known-failures`), check a worker step by step (`check-worker`), write a
//! skeleton worker (`new-worker`), and check that a
//! runtime of another repository can run the suite in-process (`check-example`), and read a
//! run's JUnit file with a real JUnit consumer (`check-junit`).

mod example;
mod junit;
mod new_worker;
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
            merge,
        } => harness::refresh::run(
            root,
            &target,
            name,
            report.as_deref(),
            output.as_deref(),
            *merge,
        )
        .map_err(Into::into),
        Command::CheckExample => example::run(root, &target),
        Command::CheckJunit { dirs } => junit::run(root, &target, dirs),
        Command::NewWorker { name, out } => new_worker::run(root, &target, name, out.as_deref()),
        Command::CheckWorker {
            command,
            data,
            timeout,
        } => check_worker(root, &target, command, data.as_deref(), *timeout),
    }
}

/// `check-worker`: the harness's step-by-step check, printed.
fn check_worker(
    root: &Path,
    target: &Path,
    command: &str,
    data: Option<&Path>,
    timeout: f64,
) -> Result<(), Box<dyn Error>> {
    let data = data.map_or_else(|| root.join(harness::index::DATA_DIR), Path::to_path_buf);
    let work = harness::report::ReportDir::root(target);
    let mut out = std::io::stdout().lock();
    Ok(harness::worker_check::check(
        &data, command, timeout, &work, &mut out,
    )?)
}
