//! `onnx-conformance`: the official ONNX backend node tests of Cast, CastLike and Concat, and
//! our own cases, run against any runtime from any directory. The data lives in a per-user
//! home ([`home`]); everything else (the lock, the own cases, the Python workers) is compiled
//! into this binary.

mod args;
mod home;
mod run;
mod self_check;
mod vectors;

use args::{Cli, Command, FindingsArgs, FindingsTask, VectorsCommand, WorkerCommand};
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let home = match home::Home::resolve(cli.home.as_deref()) {
        Ok(home) => home,
        Err(e) => return fail(&e),
    };
    match &cli.command {
        Command::Fetch(opts) => home::fetch(&home, opts, cli.python.as_deref()),
        Command::Run(args) => run::main(&home, args, cli.python.as_deref()),
        Command::Diff(args) => run::diff(args),
        Command::Scoreboard(args) => run::scoreboard(&home, args, cli.python.as_deref()),
        Command::Findings(FindingsArgs {
            task: Some(FindingsTask::Merge { out, shards }),
            ..
        }) => vectors::merge(out, shards),
        Command::Findings(args) => run::findings(&home, args, cli.python.as_deref()),
        Command::KnownFailures(args) => run::known_failures(&home, args),
        Command::Worker(WorkerCommand::New { name, out }) => {
            run::new_worker(name, out.as_deref(), cli.python.as_deref())
        }
        Command::Worker(WorkerCommand::Check { command, timeout }) => {
            run::check_worker(&home, command, *timeout)
        }
        Command::Vectors(VectorsCommand::Export(args)) => vectors::export(args),
        Command::Vectors(VectorsCommand::Check { files }) => vectors::check(files),
        Command::Vectors(VectorsCommand::Run(args)) => {
            vectors::run(&home, args, cli.python.as_deref())
        }
        Command::SelfCheck(args) => self_check::main(args),
        Command::Home => {
            println!("{}", home.dir().display());
            ExitCode::SUCCESS
        }
    }
}

/// Prints `e` as the command's error and fails.
/// A line of progress on stderr: the sink the libraries report through.
fn say(line: &str) {
    eprintln!("{line}");
}

fn fail(e: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::FAILURE
}
