//! `cargo xtask cross-check`: the crate built and run on targets other than this host's, so
//! that the portable paths (every fast path's fallback, which x86-64 never takes at its
//! detected level) and byte order are executed, not only compiled. clippy for aarch64, then
//! the Miri subset of docs/fuzzing.md on aarch64 (little-endian, no x86 kernels) and s390x
//! (big-endian). Installs what it needs with rustup. See docs/fuzzing.md.

use std::error::Error;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// clippy runs for this target.
const CLIPPY_TARGET: &str = "aarch64-unknown-linux-gnu";

/// Miri runs for these: a little-endian one without the x86 kernels and a big-endian one.
pub const MIRI_TARGETS: [&str; 2] = ["aarch64-unknown-linux-gnu", "s390x-unknown-linux-gnu"];

/// The Miri subset: (package, test filters). Each filter names a test or a test module; the
/// run fails if one of them matches no test.
pub const MIRI_TESTS: [(&str, &[&str]); 2] = [
    (
        "onnx-conformance",
        &[
            // Detection and the level of every feature combination.
            "tuning::tests::",
            // Every fast pair writes its whole output (the regression test of the
            // f32_to_bf16_rne hole), and the portable paths agree with the exact path.
            "ops::tests::fast::every_fast_pair_writes_its_whole_output_on_every_target",
            "ops::tests::cast_small::bfloat16_truncates_before_24_and_rounds_from_24",
            "ops::tests::cast_small::float8_decoding_matches_spec_3_5",
            // The float6 rules (Cast-28) on the exact path, byte order included; their fast
            // pairs' portable paths are in `every_fast_pair_writes_its_whole_output_...` above.
            "ops::tests::cast_float6::",
            // Streaming stores (ordinary copies outside x86-64) and the line driver. Not
            // `streamed_lines_at_every_offset_and_length`: minutes under Miri, and off x86-64
            // a line store is one `copy_nonoverlapping` (docs/fuzzing.md runs it on x86-64).
            "stream::tests::",
            "ops::block_copy::tests::",
            "formats::fast::tests::streaming_starts_at_the_threshold",
            // The 16-bit table encoder's tables and lane arithmetic (a sample of the codes),
            // whose kernel only x86-64 runs.
            "formats::fast::tests::the_table_encoder_matches_the_exact_path_for_every_16_bit_code",
            // The float6 / float4 widening tables from the scalar decoder and both kernels'
            // lane arithmetic, in scalar form, for every byte (x86-64 alone runs the kernels).
            "formats::fast::tests::the_widening_tables_hold_the_scalar_decoders_values",
        ],
    ),
    (
        // The reader of every `.pb`: raw_data is little-endian whatever the host.
        "onnx-conformance-harness",
        &["read::tests::spec_vector::", "read::tests::tensor::"],
    ),
];

/// Runs the task.
pub fn main(root: &Path, _args: &crate::cli::CrossCheck) -> Result<(), Box<dyn Error>> {
    let start = Instant::now();
    let cargo = crate::workspace::cargo();
    let clippy_target = format!("--target={CLIPPY_TARGET}");
    step("rustup: targets and Miri", || {
        run(root, "rustup", &["target", "add", CLIPPY_TARGET])?;
        run(
            root,
            "rustup",
            &["+nightly", "component", "add", "miri", "rust-src"],
        )
    })?;
    check_cross_compiler()?;
    step(&format!("clippy --target {CLIPPY_TARGET}"), || {
        let args = [
            "clippy",
            &clippy_target,
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ];
        run(root, &cargo.to_string_lossy(), &args)
    })?;
    for target in MIRI_TARGETS {
        for (package, filters) in MIRI_TESTS {
            step(&format!("miri {target} {package}"), || {
                miri(root, target, package, filters)
            })?;
        }
    }
    eprintln!(
        "cross-check: all clean in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Runs one step, saying how long it took.
fn step(name: &str, f: impl FnOnce() -> Result<(), Box<dyn Error>>) -> Result<(), Box<dyn Error>> {
    eprintln!("cross-check: {name} ...");
    let start = Instant::now();
    let result = f();
    let seconds = start.elapsed().as_secs_f64();
    match &result {
        Ok(()) => eprintln!("cross-check: {name}: ok in {seconds:.1} s"),
        Err(_) => eprintln!("cross-check: {name}: failed after {seconds:.1} s"),
    }
    result.map_err(|e| format!("{name}: {e}").into())
}

/// A build script of a harness dependency (psm, under npyz) assembles code for the target,
/// so clippy needs a C compiler for aarch64 (Miri does not: psm skips it there); installed with
/// apt-get when missing.
fn check_cross_compiler() -> Result<(), Box<dyn Error>> {
    let var = "CC_aarch64_unknown_linux_gnu";
    if std::env::var_os(var).is_some() || crate::apt::on_path("aarch64-linux-gnu-gcc") {
        return Ok(());
    }
    let hint = format!(
        "no C compiler for aarch64: install aarch64-linux-gnu-gcc (Debian and Ubuntu: \
         apt-get install gcc-aarch64-linux-gnu) or set {var}"
    );
    crate::apt::install(
        "gcc-aarch64-linux-gnu",
        "the aarch64 clippy build's C dependencies compile with",
        &hint,
    )?;
    Ok(())
}

/// Runs `program args` in `root`; fails on a non-zero exit.
fn run(root: &Path, program: &str, args: &[&str]) -> Result<(), Box<dyn Error>> {
    let status = Command::new(program)
        .current_dir(root)
        .args(args)
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("`{program} {}` failed ({status})", args.join(" ")).into()),
    }
}

/// The package's tests that `filters` select, under Miri for `target`; fails unless every
/// filter matched at least one test and all passed.
fn miri(root: &Path, target: &str, package: &str, filters: &[&str]) -> Result<(), Box<dyn Error>> {
    let target_flag = format!("--target={target}");
    let mut args = vec!["run", "nightly", "cargo", "miri", "test", &target_flag];
    args.extend(["-p", package, "--lib", "--"]);
    args.extend(filters);
    let mut child = Command::new("rustup")
        .current_dir(root)
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run rustup: {e}"))?;
    let mut ran = Vec::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines() {
            let line = line?;
            println!("{line}");
            if let Some(name) = passed_test(&line) {
                ran.push(name.to_string());
            }
        }
    }
    let status = child.wait()?;
    if !status.success() {
        return Err(format!("`rustup {}` failed ({status})", args.join(" ")).into());
    }
    match unmatched(filters, &ran) {
        None => Ok(()),
        Some(filter) => Err(format!("the filter {filter} matched no test").into()),
    }
}

/// The name of the test a libtest line reports as passed.
fn passed_test(line: &str) -> Option<&str> {
    line.strip_prefix("test ")?.strip_suffix(" ... ok")
}

/// The first filter that no test name in `ran` contains.
fn unmatched<'a>(filters: &[&'a str], ran: &[String]) -> Option<&'a str> {
    filters
        .iter()
        .find(|f| !ran.iter().any(|name| name.contains(**f)))
        .copied()
}

#[cfg(test)]
mod tests;
