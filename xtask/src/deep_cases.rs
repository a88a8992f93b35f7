//! `cargo xtask deep-cases`: the deep suite's tree, written by the `deep` crate; this module
//! only picks the directory and prints.

use deep::index as tree;
use std::error::Error;
use std::path::Path;
use std::time::Instant;

/// Runs `cargo xtask deep-cases [--out DIR] [--no-wait]`, holding the tree while it writes.
pub fn main(_root: &Path, args: &crate::cli::DeepCases) -> Result<(), Box<dyn Error>> {
    let out =
        (args.out.clone()).unwrap_or_else(|| tree::default_dir(&crate::workspace::target_dir()));
    let busy = deep::WhenBusy::no_wait(args.no_wait);
    let lock = deep::runs::lock(&out, "cargo xtask deep-cases", busy, &crate::say)?;
    let start = Instant::now();
    let summary = deep::write(&lock)?;
    eprintln!(
        "wrote {} cases ({} files, {:.1} MiB) under {} in {:.1} s; content sha256 {}",
        summary.cases,
        summary.files,
        summary.bytes as f64 / (1 << 20) as f64,
        out.display(),
        start.elapsed().as_secs_f64(),
        summary.content_sha256,
    );
    Ok(())
}
