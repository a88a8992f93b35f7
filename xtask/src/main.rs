//! Project tasks: `cargo xtask <task> [options]`. This file only picks the task; each task
//! lives in its own module and parses its own options.
#![forbid(unsafe_code)]

mod bench_compare;
mod coverage;
mod fetch;
mod fuzz;
mod own_cases;
mod report;

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <task> [options]

tasks:
  bench-compare our kernel benchmarks beside onnxruntime, one table (`--help` for options)
  coverage      rewrite the README coverage table and docs/coverage.md (`--check`: only compare)
  fetch-tests   fetch the official ONNX node-test data (see `cargo xtask fetch-tests --help`)
  fuzz [TARGET] [--seconds N] [--smoke]
                run the cargo-fuzz targets (nightly; `cargo xtask fuzz --help`)
  own-cases     rewrite our own cases under tests/cases from their generator
  report [FILE] re-render report.md and report.html from report.json
  report --nextest [RUN_ID|latest]
                build the reports from a `cargo nextest run`";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    match task.as_deref() {
        Some("bench-compare") => finish(bench_compare::run(&root, &rest)),
        Some("coverage") => finish(coverage::main(&root, &rest)),
        Some("fetch-tests") => fetch::main(&rest),
        Some("fuzz") => finish(fuzz::main(&root, &rest)),
        Some("own-cases") => finish(
            own_cases::write(&root.join("tests/cases"))
                .map(|n| eprintln!("wrote {n} files under tests/cases")),
        ),
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
