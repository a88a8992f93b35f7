//! Failure diagnostics: mismatches spelled out, outputs dumped as `.npy`, and the command that
//! reruns the trial.

use crate::compare::{multi_index, Mismatch, ValueDiff};
use crate::npy;
use onnx_conformance::Tensor;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Spells out every mismatch, one block per output. `names` are the graph's output names.
pub fn describe(mismatches: &[Mismatch], names: &[String], rule: &str) -> String {
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
                describe_values(&mut out, &label(*index), diff, rule);
                Ok(())
            }
        };
    }
    out.trim_end().to_string()
}

fn describe_values(out: &mut String, label: &str, diff: &ValueDiff, rule: &str) {
    let _ = writeln!(
        out,
        "{label}: {} of {} elements differ ({}, shape {:?}, rule {rule})",
        diff.differing, diff.total, diff.dtype, diff.shape
    );
    if let (Some(abs), Some(rel)) = (diff.max_abs, diff.max_rel) {
        let _ = writeln!(
            out,
            "  max abs error {abs:e}, max rel error {rel:e} (finite mismatches)"
        );
    }
    for d in &diff.first {
        let _ = writeln!(
            out,
            "  [{}] (flat {}): expected {} ({}), actual {} ({})",
            join(&multi_index(&diff.shape, d.flat)),
            d.flat,
            d.expected,
            d.expected_hex,
            d.actual,
            d.actual_hex
        );
    }
    let more = diff.differing - diff.first.len();
    if more > 0 {
        let _ = writeln!(out, "  ... and {more} more");
    }
}

fn join(index: &[usize]) -> String {
    index
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where a trial's failure files go: `<out>/failures/<trial name>`, each name component made
/// safe for a file system (no `..`, no separators).
pub fn failure_dir(out: &Path, trial: &str) -> PathBuf {
    let mut dir = out.join("failures");
    for part in trial.split('/') {
        let safe: String = part
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '-' | '_' => c,
                _ => '_',
            })
            .collect();
        dir.push(match safe.as_str() {
            "" | "." | ".." => "_",
            s => s,
        });
    }
    dir
}

/// Writes `output_K.expected.npy` and `output_K.actual.npy` for each output in `dir`; returns
/// one line per file group written (with any type note), or why writing failed.
pub fn dump(dir: &Path, expected: &[Tensor], actual: &[Tensor]) -> Vec<String> {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return vec![format!("cannot create {}: {e}", dir.display())];
    }
    let mut lines = Vec::new();
    let count = expected.len().max(actual.len());
    for k in 0..count {
        let mut notes = Vec::new();
        for (side, tensor) in [("expected", expected.get(k)), ("actual", actual.get(k))] {
            let Some(tensor) = tensor else { continue };
            let path = dir.join(format!("output_{k}.{side}.npy"));
            match npy::write(&path, tensor) {
                Ok(Some(note)) if !notes.contains(&note) => notes.push(note),
                Ok(_) => {}
                Err(e) => lines.push(format!("cannot write {}: {e}", path.display())),
            }
        }
        let files = dir.join(format!("output_{k}.{{expected,actual}}.npy"));
        match notes.as_slice() {
            [] => lines.push(format!("wrote {}", files.display())),
            _ => lines.push(format!("wrote {} ({})", files.display(), notes.join("; "))),
        }
    }
    lines
}

/// The shell command that reruns exactly `trial`, with the environment that shaped this run.
pub fn rerun_command(trial: &str, strict: bool, data_override: Option<&Path>) -> String {
    let mut cmd = String::new();
    if strict {
        cmd.push_str("ONNX_CONFORMANCE_STRICT=1 ");
    }
    if let Some(dir) = data_override {
        let _ = write!(
            cmd,
            "ONNX_BACKEND_DATA={} ",
            shell_quote(&dir.display().to_string())
        );
    }
    let _ = write!(
        cmd,
        "cargo test --test onnx_backend -- --exact {}",
        shell_quote(trial)
    );
    cmd
}

/// `s` in single quotes for a POSIX shell.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{compare_outputs, Rule};
    use crate::discover::tests::scratch;
    use onnx_conformance::formats::F8E4M3FN;

    #[test]
    fn describes_values_with_index_decimal_and_hex() {
        let e = Tensor::from_vec(vec![2, 2], vec![1.0f32, 2.0, 3.0, f32::NAN]).expect("tensor");
        let a = Tensor::from_vec(vec![2, 2], vec![1.0f32, 2.5, 3.0, 4.0]).expect("tensor");
        let found = compare_outputs(&[e], &[a], Rule::ONNX_DEFAULT);
        let text = describe(
            &found,
            &["y".to_string()],
            "onnx-default rtol=0.001 atol=1e-7",
        );
        assert!(
            text.contains("output 0 (\"y\"): 2 of 4 elements differ (FLOAT, shape [2, 2]"),
            "{text}"
        );
        assert!(
            text.contains("[0, 1] (flat 1): expected 2.0 (0x40000000), actual 2.5 (0x40200000)")
        );
        assert!(text.contains("[1, 1] (flat 3): expected NaN (0x7fc00000), actual 4.0"));
        assert!(text.contains("max abs error 5e-1"), "{text}");
    }

    #[test]
    fn describes_dtype_shape_and_count() {
        let f = Tensor::from_vec(vec![1], vec![1.0f32]).expect("tensor");
        let g = Tensor::from_vec(vec![1], vec![F8E4M3FN::from_bits(0x38)]).expect("tensor");
        let text = describe(
            &compare_outputs(std::slice::from_ref(&f), &[g], Rule::Strict),
            &[],
            "strict",
        );
        assert_eq!(
            text,
            "output 0: dtype differs: expected FLOAT, got FLOAT8E4M3FN"
        );
        let text = describe(&compare_outputs(&[f], &[], Rule::Strict), &[], "strict");
        assert_eq!(text, "the model produced 0 outputs, the data set has 1");
    }

    #[test]
    fn failure_dirs_are_nested_and_safe() {
        let out = Path::new("/o");
        assert_eq!(
            failure_dir(out, "onnx-1.22.0/opset25/test_cast_A"),
            Path::new("/o/failures/onnx-1.22.0/opset25/test_cast_A")
        );
        assert_eq!(
            failure_dir(out, "custom/../x y"),
            Path::new("/o/failures/custom/_/x_y")
        );
    }

    #[test]
    fn rerun_command_quotes_and_carries_the_environment() {
        assert_eq!(
            rerun_command("onnx-1.4.1/opset9/t", false, None),
            "cargo test --test onnx_backend -- --exact 'onnx-1.4.1/opset9/t'"
        );
        let cmd = rerun_command("own/it's", true, Some(Path::new("/d")));
        assert_eq!(
            cmd,
            "ONNX_CONFORMANCE_STRICT=1 ONNX_BACKEND_DATA='/d' cargo test --test onnx_backend \
             -- --exact 'own/it'\\''s'"
        );
    }

    #[test]
    fn dumps_both_sides_with_notes() {
        let dir = scratch("dump");
        let e = Tensor::from_vec(vec![1], vec![F8E4M3FN::from_bits(0x38)]).expect("tensor");
        let lines = dump(&dir, std::slice::from_ref(&e), std::slice::from_ref(&e));
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("uint8 bit patterns"), "{lines:?}");
        assert!(dir.join("output_0.expected.npy").is_file());
        assert!(dir.join("output_0.actual.npy").is_file());
    }
}
