//! Project tasks: `cargo xtask <task> [options]`. This file only picks the task; each task
//! lives in its own module and parses its own options.

mod fetch;
mod own_cases;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <task> [options]

tasks:
  fetch-tests   fetch the official ONNX node-test data (see `cargo xtask fetch-tests --help`)
  own-cases     rewrite our own cases under tests/cases from their generator";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    match task.as_deref() {
        Some("fetch-tests") => fetch::main(&rest),
        Some("own-cases") => {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
            match own_cases::write(&root.join("tests/cases")) {
                Ok(n) => {
                    eprintln!("wrote {n} files under tests/cases");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
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
