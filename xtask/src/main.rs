//! Project tasks: `cargo xtask <task> [options]`. This file only picks the task; each task
//! lives in its own module and parses its own options.
#![forbid(unsafe_code)]

#[cfg(feature = "full")]
mod backends;
mod bench_compare;
#[cfg(feature = "full")]
mod coverage;
mod fetch;
#[cfg(feature = "full")]
mod fuzz;
#[cfg(feature = "full")]
mod own_cases;
#[cfg(test)]
mod repo_text;
#[cfg(feature = "full")]
mod report;
#[cfg(feature = "full")]
mod scoreboard;

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <task> [options]

tasks:
  backends      set up the other runtimes the suite can judge, list them, write their
                known-failures lists (`cargo xtask backends --help`)
  bench-compare our kernel benchmarks beside onnxruntime, one table (`--help` for options)
  coverage      rewrite the README coverage table and docs/coverage.md (`--check`: only compare)
  fetch-tests   fetch the official ONNX node-test data (see `cargo xtask fetch-tests --help`)
  fuzz [TARGET] [--seconds N] [--smoke]
                run the cargo-fuzz targets (nightly; `cargo xtask fuzz --help`)
  own-cases     rewrite our own cases under tests/cases from their generator (`--check`:
                only compare)
  report [FILE] re-render report.md and report.html from report.json
  scoreboard [--backends a,b,...]
                the official suite on every set-up backend, side by side
  report --nextest [RUN_ID|latest]
                build the reports from a `cargo nextest run`";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    match task.as_deref() {
        Some(t) if !cfg!(feature = "full") && FULL_TASKS.contains(&t) => {
            rerun_full(&root, t, &rest)
        }
        #[cfg(feature = "full")]
        Some("backends") => finish(backends::main(&root, &rest)),
        #[cfg(feature = "full")]
        Some("scoreboard") => finish(scoreboard::main(&root, &rest)),
        Some("bench-compare") => finish(bench_compare::run(&root, &rest)),
        #[cfg(feature = "full")]
        Some("coverage") => finish(coverage::main(&root, &rest)),
        Some("fetch-tests") => fetch::main(&rest),
        #[cfg(feature = "full")]
        Some("fuzz") => finish(fuzz::main(&root, &rest)),
        #[cfg(feature = "full")]
        Some("own-cases") => finish(own_cases::main(&root.join("tests/cases"), &rest)),
        #[cfg(feature = "full")]
        Some("report") => finish(report::main(&rest)),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("error: unknown task `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// The tasks built only with the `full` feature (they need the harness, the kernels or half).
const FULL_TASKS: &[&str] = &[
    "backends",
    "coverage",
    "fuzz",
    "own-cases",
    "report",
    "scoreboard",
];

/// `cargo xtask` builds without the `full` feature, so that `fetch-tests` on a fresh clone does
/// not wait for the kernels to compile. The other tasks run through this: the same command
/// again, built with default features. Cargo's own progress shows while that builds.
fn rerun_full(root: &std::path::Path, task: &str, args: &[String]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(&cargo)
        .current_dir(root)
        .args(["run", "--package", "xtask", "--"])
        .arg(task)
        .args(args)
        .status();
    match status {
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| c.clamp(0, 255) as u8)),
        Err(e) => {
            eprintln!("error: cannot run {}: {e}", cargo.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}

/// Prints a task's error, if any, and turns it into the exit code.
fn finish(result: Result<(), Box<dyn Error>>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
