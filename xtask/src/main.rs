//! Project tasks: `cargo xtask <task> [options]`. This file only picks the task; the command
//! line of every task is parsed in `cli`, and each task lives in its own module.
#![forbid(unsafe_code)]

mod apt;
#[cfg(feature = "full")]
mod backends;
#[cfg(feature = "full")]
mod bench_compare;
mod cli;
#[cfg(feature = "full")]
mod coverage;
mod cross_check;
#[cfg(feature = "full")]
mod deep;
#[cfg(feature = "full")]
mod deep_audit;
#[cfg(feature = "full")]
mod deep_cases;
#[cfg(test)]
mod floors;
#[cfg(feature = "full")]
mod fuzz;
#[cfg(test)]
mod module_graph;
#[cfg(feature = "full")]
mod own_cases;
#[cfg(test)]
mod repo_text;
#[cfg(feature = "full")]
mod report;
#[cfg(feature = "full")]
mod scoreboard;
#[cfg(feature = "full")]
mod suite_run;
#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tidy;
mod workspace;

use clap::Parser;
use cli::{Cli, Task};
use std::path::Path;
use std::process::ExitCode;

/// A line of progress on stderr: the sink the libraries report through (only the tasks of
/// the full build have libraries that report).
#[cfg(feature = "full")]
fn say(line: &str) {
    eprintln!("{line}");
}

fn main() -> ExitCode {
    // Help and usage errors are answered here, by clap, before any task runs or writes.
    let cli = Cli::parse();
    let root = workspace::root();
    if cli.task.needs_full() && !cfg!(feature = "full") {
        let args: Vec<_> = std::env::args_os().skip(1).collect();
        return rerun_full(&root, &args, &[]);
    }
    #[cfg(feature = "full")]
    {
        harness::backend::link(inproc::LINKED);
        // `deep` and `scoreboard` run a linked runtime in this process, which must have it.
        let wanted = match &cli.task {
            Task::Deep(args) => args.backend_values(),
            Task::Scoreboard(args) if args.diff.is_none() => args.backend_values(),
            _ => Vec::new(),
        };
        let wanted = match (&cli.task, wanted.is_empty()) {
            // A scoreboard of every set-up backend has every set-up linked one.
            (Task::Scoreboard(_), true) => harness::backend::SHIPPED
                .iter()
                .filter(|s| backends::is_set_up(&workspace::target_dir(), s.name))
                .map(|s| s.name.to_string())
                .collect(),
            _ => wanted,
        };
        let missing = linked_missing(&wanted);
        if !missing.is_empty() {
            let args: Vec<_> = std::env::args_os().skip(1).collect();
            return rerun_full(&root, &args, &missing);
        }
    }
    run(&root, &cli.task)
}

/// Runs `task` (in the light build, only the tasks that do not need `full`).
fn run(root: &Path, task: &Task) -> ExitCode {
    match task {
        Task::FetchTests(options) => {
            fetch::main(options, &fetch::Paths::workspace(root, workspace::python()))
        }
        Task::CrossCheck(args) => finish(cross_check::main(root, args)),
        #[cfg(feature = "full")]
        Task::Backends(args) => finish(backends::main(root, args)),
        #[cfg(feature = "full")]
        Task::BenchCompare(args) => finish(bench_compare::main(root, args)),
        #[cfg(feature = "full")]
        Task::Coverage(args) => finish(coverage::main(root, args)),
        #[cfg(feature = "full")]
        Task::DeepCases(args) => finish(deep_cases::main(root, args)),
        #[cfg(feature = "full")]
        Task::Deep(args) => finish(deep::main(root, args)),
        #[cfg(feature = "full")]
        Task::DeepAudit(args) => finish(deep_audit::main(root, args)),
        #[cfg(feature = "full")]
        Task::Fuzz(args) => finish(fuzz::main(root, args)),
        #[cfg(feature = "full")]
        Task::OwnCases(args) => finish(own_cases::main(root, args)),
        #[cfg(feature = "full")]
        Task::Report(args) => finish(report::main(root, args)),
        #[cfg(feature = "full")]
        Task::Scoreboard(args) => finish(scoreboard::main(root, args)),
        #[cfg(not(feature = "full"))]
        _ => unreachable!("main reruns the tasks that need `full` with it"),
    }
}

/// `cargo xtask` builds without the `full` feature, so that `fetch-tests` on a fresh clone does
/// not wait for the kernels to compile. The other tasks run through this: the same command
/// again, built with default features (and `features`: the linked runtimes `deep` judges).
/// Cargo's own progress shows while that builds.
fn rerun_full(root: &Path, args: &[std::ffi::OsString], features: &[&str]) -> ExitCode {
    let cargo = workspace::cargo();
    let mut cmd = std::process::Command::new(&cargo);
    cmd.current_dir(root).args(["run", "--package", "xtask"]);
    if !features.is_empty() {
        cmd.args(["--features", &features.join(",")]);
    }
    let status = cmd.arg("--").args(args).status();
    match status {
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| c.clamp(0, 255) as u8)),
        Err(e) => {
            eprintln!("error: cannot run {}: {e}", cargo.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}

/// The cargo features of the linked runtimes among `backends` that this build lacks.
#[cfg(feature = "full")]
fn linked_missing(backends: &[String]) -> Vec<&'static str> {
    let mut missing: Vec<&'static str> = backends
        .iter()
        .filter_map(|b| harness::backend::Shipped::find(b))
        .filter(|s| !inproc::LINKED.iter().any(|l| l.name == s.name))
        .filter_map(harness::backend::Shipped::cargo_feature)
        .collect();
    missing.sort_unstable();
    missing.dedup();
    missing
}

/// Prints a task's error, if any, and turns it into the exit code.
fn finish(result: Result<(), Box<dyn std::error::Error>>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
