//! `cargo xtask backends`: prepare the runtimes the suite can judge (`setup`), say which are
//! ready (`list`), and write a backend's known-failures list from its last run
//! (`known-failures`).

mod known;
mod setup;

use std::error::Error;
use std::path::Path;

const USAGE: &str = "usage: cargo xtask backends <command>

commands:
  list                      the shipped backends and whether each is set up
  setup [NAME...]           prepare backends (default: onnxruntime reference; `all` adds tract):
                            onnxruntime, reference: a venv in target/backends/venv with the
                              pinned packages of backends/python/requirements.txt, installed
                              by your own pip ($PYTHON, default python3)
                            tract: builds backends/tract-worker (several minutes)
  known-failures NAME [--report FILE]
                            write tests/known-failures/NAME.json from the backend's last run
                            (target/onnx-conformance/backend-NAME/report.json): every trial
                            that did not pass becomes an entry with its failure kind and first
                            message line; entries already there keep their reason";

/// The backends that `setup` knows, in the order they are prepared.
pub const SHIPPED: [&str; 3] = ["onnxruntime", "reference", "tract"];

/// Whether shipped backend `name` has what it needs.
pub fn is_set_up(target: &Path, name: &str) -> bool {
    setup::status(target, name).starts_with("ready")
}

/// Runs the task with the arguments after `backends`.
pub fn main(root: &Path, args: &[String]) -> Result<(), Box<dyn Error>> {
    let target = crate::report::target_dir();
    match args.split_first() {
        Some((cmd, rest)) if cmd == "setup" => setup::run(root, &target, rest),
        Some((cmd, [])) if cmd == "list" => {
            for name in ["native"].into_iter().chain(SHIPPED) {
                println!("{name:12} {}", setup::status(&target, name));
            }
            Ok(())
        }
        Some((cmd, rest)) if cmd == "known-failures" => known::run(root, &target, rest),
        Some((flag, _)) if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.into()),
    }
}
