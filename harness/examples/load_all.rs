//! Loads every case directory under a data tree (`<root>/<release>/node/<case>/`) with the
//! harness reader and prints how many load, and the error of each one that does not.
//!
//! `cargo run -p onnx-conformance-harness --example load_all -- onnx-backend-data`

use harness::read::load_case;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(root) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: load_all <data root holding <release>/node/<case>/>");
        return ExitCode::FAILURE;
    };
    let cases = match case_dirs(&root) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot list {}: {e}", root.display());
            return ExitCode::FAILURE;
        }
    };
    let start = std::time::Instant::now();
    let mut failed = 0;
    let mut tensors = 0;
    for dir in &cases {
        match load_case(dir) {
            Ok(case) => {
                tensors += case
                    .data_sets
                    .iter()
                    .map(|d| d.inputs.len() + d.outputs.len())
                    .sum::<usize>();
            }
            Err(e) => {
                failed += 1;
                println!("error: {e}");
            }
        }
    }
    println!(
        "{} case dirs, {} loaded ({tensors} tensors), {failed} failed, in {:?}",
        cases.len(),
        cases.len() - failed,
        start.elapsed()
    );
    ExitCode::SUCCESS
}

/// `<root>/*/node/*`, sorted.
fn case_dirs(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for release in std::fs::read_dir(root)? {
        let node = release?.path().join("node");
        if node.is_dir() {
            for case in std::fs::read_dir(&node)? {
                out.push(case?.path());
            }
        }
    }
    out.sort();
    Ok(out)
}
