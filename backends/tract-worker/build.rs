//! Puts the tract-onnx version that Cargo resolved into `TRACT_ONNX_VERSION`, so the worker's
//! hello names the runtime actually linked rather than a constant that could drift.

use std::{env, fs, path::Path};

fn main() {
    // This crate is its own workspace, so its lock file sits beside the manifest.
    let lock = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text =
        fs::read_to_string(&lock).unwrap_or_else(|e| panic!("cannot read {}: {e}", lock.display()));
    let version = tract_onnx_version(&text)
        .unwrap_or_else(|| panic!("no tract-onnx package in {}", lock.display()));
    println!("cargo:rustc-env=TRACT_ONNX_VERSION={version}");
}

/// The `version` line that follows `name = "tract-onnx"` in a Cargo.lock.
fn tract_onnx_version(lock: &str) -> Option<&str> {
    let mut lines = lock.lines().map(str::trim);
    lines.find(|l| *l == r#"name = "tract-onnx""#)?;
    let version = lines.next()?.strip_prefix("version = \"")?;
    version.strip_suffix('"')
}
