//! Failure diagnostics: mismatches spelled out, outputs dumped as `.npy`, and the command that
//! reruns the trial.

use crate::compare::{multi_index, Mismatch, ValueDiff};
use crate::npy;
use crate::origin::Origins;
use crate::settings::{BACKEND_VAR, DATA_VAR, KNOWN_VAR, STRICT_VAR, SUITE_VAR};
use crate::source::Source;
use schema::layout;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use vocab::{DataType, Tensor};

/// Spells out every mismatch, one block per output, with no input origins.
#[cfg(test)]
pub fn describe(mismatches: &[Mismatch], names: &[String], rule: &str) -> String {
    describe_with(mismatches, names, rule, &Origins::Unknown)
}

/// Spells out every mismatch, one block per output (`names` are the graph's output names),
/// with the input element each differing output element came from, where `origins` knows it.
pub fn describe_with(
    mismatches: &[Mismatch],
    names: &[String],
    rule: &str,
    origins: &Origins<'_>,
) -> String {
    let label = |index: usize| match names.get(index) {
        Some(name) => format!("output {index} ({name:?})"),
        None => format!("output {index}"),
    };
    let mut out = String::new();
    for m in mismatches {
        let _ = match m {
            Mismatch::OutputCount { expected, actual } => writeln!(
                out,
                "the model produced {actual} outputs, the data set has {expected}"
            ),
            Mismatch::DType {
                index,
                expected,
                actual,
            } => writeln!(
                out,
                "{}: dtype differs: expected {expected}, got {actual}",
                label(*index)
            ),
            Mismatch::Shape {
                index,
                expected,
                actual,
            } => writeln!(
                out,
                "{}: shape differs: expected {expected:?}, got {actual:?}",
                label(*index)
            ),
            Mismatch::Values { index, diff } => {
                let origin = |flat| origins.describe(*index, &diff.shape, flat);
                describe_values(&mut out, &label(*index), diff, rule, &origin);
                Ok(())
            }
        };
    }
    out.trim_end().to_string()
}

fn describe_values(
    out: &mut String,
    label: &str,
    diff: &ValueDiff,
    rule: &str,
    origin: &dyn Fn(usize) -> Option<String>,
) {
    let _ = writeln!(
        out,
        "{label}: {} of {} elements differ ({}, shape {:?}, rule {rule})",
        diff.differing, diff.total, diff.dtype, diff.shape
    );
    if let Some(line) = error_summary(diff) {
        let _ = writeln!(out, "  {line}");
    }
    for d in &diff.first {
        let _ = write!(
            out,
            "  [{}] (flat {}): expected {} ({}), actual {} ({})",
            join(&multi_index(&diff.shape, d.flat)),
            d.flat,
            d.expected,
            d.expected_hex,
            d.actual,
            d.actual_hex
        );
        match origin(d.flat) {
            Some(from) => {
                let _ = writeln!(out, ", {from}");
            }
            None => out.push('\n'),
        }
    }
    let more = diff.differing - diff.first.len();
    if more > 0 {
        let _ = writeln!(out, "  ... and {more} more");
    }
}

/// The error summary: the largest errors over the finite mismatches, and how many involve
/// NaN or an infinity, so that the line stays when some or all of them do.
fn error_summary(diff: &ValueDiff) -> Option<String> {
    let involve = |n: usize| match n {
        1 => "1 involves".to_string(),
        n => format!("{n} involve"),
    };
    let mut special = Vec::new();
    if diff.nan > 0 {
        special.push(format!("{} NaN", involve(diff.nan)));
    }
    if diff.inf > 0 {
        special.push(format!("{} an infinity", involve(diff.inf)));
    }
    let special = special.join(", ");
    match (diff.max_abs, diff.max_rel) {
        (Some(abs), Some(rel)) => {
            let finite = diff.differing - diff.nan - diff.inf;
            let plural = if finite == 1 { "" } else { "es" };
            let mut line = format!(
                "max abs error {}, max rel error {} over {finite} finite mismatch{plural}",
                error_text(abs, diff.dtype),
                error_text(rel, diff.dtype)
            );
            if !special.is_empty() {
                line = format!("{line}; {special}");
            }
            Some(line)
        }
        _ if !special.is_empty() => Some(format!("no finite mismatch: {special}")),
        _ => None,
    }
}

/// An error value in the precision of the compared type: f64's shortest spelling for DOUBLE
/// and COMPLEX128, f32's for every narrower type (`0.15023474`, not `1.5023474178403756e-1`).
fn error_text(x: f64, dtype: DataType) -> String {
    match dtype {
        DataType::Double | DataType::Complex128 => format!("{x:?}"),
        _ => format!("{:?}", x as f32),
    }
}

fn join(index: &[usize]) -> String {
    index
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes `output_K.expected.npy` and `output_K.actual.npy` for each output in `dir`, and
/// each actual output losslessly as `output_K.actual.pb` (a TensorProto: npy has no bfloat16,
/// float8 or 4-bit types; the deep findings read these instead of running the case again);
/// returns one line per output (the files written, with any type note), or why writing failed.
pub fn dump(dir: &Path, expected: &[Tensor], actual: &[Tensor]) -> Vec<String> {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return vec![format!("cannot create {}: {e}", dir.display())];
    }
    let mut lines = Vec::new();
    let count = expected.len().max(actual.len());
    for k in 0..count {
        let mut notes = Vec::new();
        let mut sides = Vec::new();
        for (side, tensor) in [("expected", expected.get(k)), ("actual", actual.get(k))] {
            let Some(tensor) = tensor else { continue };
            sides.push(side);
            let path = layout::dumped_npy(dir, k, side);
            match npy::write(&path, tensor) {
                Ok(Some(note)) if !notes.contains(&note) => notes.push(note),
                Ok(_) => {}
                Err(e) => lines.push(format!("cannot write {}: {e}", path.display())),
            }
        }
        let sides = match sides.as_slice() {
            [one] => one.to_string(),
            all => format!("{{{}}}", all.join(",")),
        };
        let mut files = layout::dumped_npy(dir, k, &sides).display().to_string();
        if let Some(tensor) = actual.get(k) {
            let path = layout::dumped_actual(dir, k);
            match crate::write::write_tensor(&path, &format!("output_{k}"), tensor) {
                Ok(()) => files.push_str(&format!(
                    " and {}",
                    path.file_name().unwrap_or_default().to_string_lossy()
                )),
                Err(e) => lines.push(format!("cannot write {}: {e}", path.display())),
            }
        }
        match notes.as_slice() {
            [] => lines.push(format!("wrote {files}")),
            _ => lines.push(format!("wrote {files} ({})", notes.join("; "))),
        }
    }
    lines
}

/// Actual output `k` of a mismatched trial, as [`dump`] left it in `dir`.
#[derive(Clone, Debug, PartialEq)]
pub enum Dumped {
    /// The output, read losslessly from its TensorProto dump.
    Output(Tensor),
    /// The backend produced no output `k`: only the expected side was dumped.
    NotProduced,
}

/// Reads back what [`dump`] wrote of actual output `k` in `dir`; an error when there is no
/// dump of it (the run wrote none, or the file is cut short), naming the file.
pub fn read_dumped_output(dir: &Path, k: usize) -> Result<Dumped, crate::Error> {
    let pb = layout::dumped_actual(dir, k);
    if !pb.is_file()
        && layout::dumped_npy(dir, k, "expected").is_file()
        && !layout::dumped_npy(dir, k, "actual").exists()
    {
        return Ok(Dumped::NotProduced);
    }
    if !pb.is_file() {
        return Err(crate::Error::at(&pb, "no such dump"));
    }
    crate::read::read_tensor(&pb, None).map(Dumped::Output)
}

/// What shaped a run, beyond the trial's name: everything its rerun line must carry.
#[derive(Clone, Debug, PartialEq)]
pub struct RerunEnv {
    /// `ONNX_CONFORMANCE_BACKEND`, when the backend was chosen by it and is not `native`
    /// (an in-process runtime's own test names its backend itself).
    pub backend: Option<String>,
    /// `ONNX_CONFORMANCE_STRICT=1`.
    pub strict: bool,
    /// The cases: `ONNX_CONFORMANCE_SUITE=deep` (which compares bit for bit without being
    /// asked) or `ONNX_BACKEND_DATA` when not the official data.
    pub source: Source,
    /// `ONNX_CONFORMANCE_KNOWN_FAILURES`, if set.
    pub known_failures: Option<PathBuf>,
    /// The cargo profile the test binary was built with, when not `dev`.
    pub profile: Option<String>,
    /// The test target's name (`onnx_backend`, or a runtime's own `conformance`).
    pub test: String,
    /// The command line that reruns a trial when it is not `cargo test` (the
    /// `onnx-conformance` command's `run` with its options), the trial's name appended.
    pub command: Option<String>,
}

impl Default for RerunEnv {
    /// The default run: native, the dev profile, the conformance binary.
    fn default() -> RerunEnv {
        RerunEnv {
            backend: None,
            strict: false,
            source: Source::Official,
            known_failures: None,
            profile: None,
            test: "onnx_backend".into(),
            command: None,
        }
    }
}

impl RerunEnv {
    /// The rerun facts of the running test binary: its profile and test target name read
    /// from its own path (`target[/<triple>]/<profile dir>/deps/<test>-<hash>`).
    pub fn of_this_binary() -> RerunEnv {
        let exe = std::env::current_exe().ok();
        let (profile, test) = exe.as_deref().map(binary_facts).unwrap_or_default();
        let default = RerunEnv::default();
        RerunEnv {
            profile,
            test: test.unwrap_or(default.test.clone()),
            ..default
        }
    }
}

/// The profile (none for `dev`) and test target name of the test binary at `exe`, when its
/// path has cargo's layout.
pub fn binary_facts(exe: &Path) -> (Option<String>, Option<String>) {
    let stem = exe.file_stem().and_then(|s| s.to_str());
    let test = stem
        .and_then(|s| s.rsplit_once('-'))
        .map(|(name, _hash)| name.to_string());
    let parent = exe.parent();
    let profile_dir = match parent.and_then(|p| p.file_name()).and_then(|n| n.to_str()) {
        Some("deps") => parent
            .and_then(Path::parent)
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str()),
        _ => None,
    };
    let profile = match profile_dir {
        None | Some("debug") => None,
        Some("release") => Some("release".to_string()),
        Some(other) => Some(other.to_string()),
    };
    (profile, test)
}

/// The shell command that reruns exactly `trial` under `env`: the same backend, list, data,
/// comparison rule, profile and test target.
pub fn rerun_command(trial: &str, env: &RerunEnv) -> String {
    if let Some(command) = &env.command {
        return format!("{command} {}", shell_quote(trial));
    }
    let mut cmd = String::new();
    if let Some(backend) = env.backend.as_deref().filter(|b| *b != "native") {
        let _ = write!(cmd, "{BACKEND_VAR}={} ", shell_word(backend));
    }
    if let Some(list) = &env.known_failures {
        let _ = write!(
            cmd,
            "{KNOWN_VAR}={} ",
            shell_quote(&list.display().to_string())
        );
    }
    let deep = matches!(env.source, Source::Indexed(_));
    if deep {
        let _ = write!(cmd, "{SUITE_VAR}={} ", crate::source::DEEP);
    } else if env.strict {
        let _ = write!(cmd, "{STRICT_VAR}=1 ");
    }
    if let Source::Custom(dir) = &env.source {
        let _ = write!(
            cmd,
            "{DATA_VAR}={} ",
            shell_quote(&dir.display().to_string())
        );
    }
    cmd.push_str("cargo test");
    match env.profile.as_deref() {
        None => {}
        Some("release") => cmd.push_str(" --release"),
        Some(p) => {
            let _ = write!(cmd, " --profile {}", shell_word(p));
        }
    }
    // A linked runtime exists only in a binary built with its feature.
    let linked = env
        .backend
        .as_deref()
        .and_then(crate::backend::Shipped::find);
    if let Some(feature) = linked.and_then(crate::backend::Shipped::cargo_feature) {
        let _ = write!(cmd, " --features {feature}");
    }
    let _ = write!(
        cmd,
        " --test {} -- --exact {}",
        shell_word(&env.test),
        shell_quote(trial)
    );
    cmd
}

/// `s` as one POSIX shell word: bare when it holds only safe characters.
fn shell_word(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    match !s.is_empty() && s.chars().all(safe) {
        true => s.to_string(),
        false => shell_quote(s),
    }
}

/// `s` in single quotes for a POSIX shell.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests;
