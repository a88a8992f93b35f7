//! Loads every case directory (any directory holding a `model.onnx`) under a root with the
//! harness reader and prints how many load, and the error of each one that does not.
//!
//! `cargo run -p onnx-conformance-harness --example load_all -- onnx-backend-data`

use harness::read::load_case;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(root) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: load_all <directory holding case directories at any depth>");
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

/// Every directory under `root` holding a `model.onnx`, sorted.
fn case_dirs(root: &Path) -> Result<Vec<PathBuf>, walkdir::Error> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root) {
        let entry = entry?;
        if entry.file_name() == "model.onnx" {
            if let Some(dir) = entry.path().parent() {
                out.push(dir.to_path_buf());
            }
        }
    }
    out.sort();
    Ok(out)
}
