//! Failure diagnostics: mismatches spelled out, outputs dumped as `.npy`, and the command that
//! reruns the trial.

use crate::compare::{multi_index, Mismatch, ValueDiff};
use crate::npy;
use crate::origin::Origins;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use vocab::{DataType, Tensor};

/// Spells out every mismatch, one block per output. `names` are the graph's output names.
pub fn describe(mismatches: &[Mismatch], names: &[String], rule: &str) -> String {
    describe_with(mismatches, names, rule, &Origins::Unknown)
}

/// [`describe`], with the input element each differing output element came from, where
/// `origins` knows it.
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
    use crate::testkit::scratch;
    use vocab::elements::F8E4M3FN;

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
        assert!(
            text.contains(
                "max abs error 0.5, max rel error 0.25 over 1 finite mismatch; 1 involves NaN"
            ),
            "{text}"
        );
    }

    #[test]
    fn the_error_line_stays_when_every_mismatch_is_nan_or_infinite() {
        let e = Tensor::from_vec(vec![3], vec![f32::NAN, f32::INFINITY, 1.0]).expect("tensor");
        let a = Tensor::from_vec(vec![3], vec![0.0f32, 1.0, 1.0]).expect("tensor");
        let text = describe(&compare_outputs(&[e], &[a], Rule::Strict), &[], "strict");
        assert!(
            text.contains("\n  no finite mismatch: 1 involves NaN, 1 involves an infinity\n"),
            "{text}"
        );
    }

    #[test]
    fn errors_print_shortest_in_the_compared_precision() {
        let e = Tensor::from_vec(vec![1], vec![1.0f32]).expect("tensor");
        let a = Tensor::from_vec(vec![1], vec![1.1502347f32]).expect("tensor");
        let text = describe(&compare_outputs(&[e], &[a], Rule::ONNX_DEFAULT), &[], "r");
        assert!(text.contains("max abs error 0.1502347, max rel"), "{text}");
        let e = Tensor::from_vec(vec![1], vec![1.0f64]).expect("tensor");
        let a = Tensor::from_vec(vec![1], vec![1.25f64]).expect("tensor");
        let text = describe(&compare_outputs(&[e], &[a], Rule::ONNX_DEFAULT), &[], "r");
        assert!(
            text.contains("max abs error 0.25, max rel error 0.25 over 1"),
            "{text}"
        );
    }

    #[test]
    fn cast_mismatches_show_the_input_element() {
        let input = [Tensor::from_vec(vec![2], vec![0.15f32, 300.0]).expect("tensor")];
        let e = Tensor::from_vec(vec![2], vec![0u8, 255]).expect("tensor");
        let a = Tensor::from_vec(vec![2], vec![0u8, 44]).expect("tensor");
        let graph = crate::case::Graph {
            name: "g".into(),
            nodes: vec![],
            inputs: vec![],
            outputs: vec![],
            initializers: vec![],
        };
        let origins = Origins::of(Some("Cast"), &graph, &input);
        let found = compare_outputs(&[e], &[a], Rule::ONNX_DEFAULT);
        let text = describe_with(&found, &[], "exact", &origins);
        assert!(
            text.contains(
                "[1] (flat 1): expected 255 (0xff), actual 44 (0x2c), input 300.0 (0x43960000)"
            ),
            "{text}"
        );
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
        let dir_tmp = scratch("dump");
        let dir = dir_tmp.path();
        let e = Tensor::from_vec(vec![1], vec![F8E4M3FN::from_bits(0x38)]).expect("tensor");
        let lines = dump(dir, std::slice::from_ref(&e), std::slice::from_ref(&e));
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("uint8 bit patterns"), "{lines:?}");
        assert!(dir.join("output_0.expected.npy").is_file());
        assert!(dir.join("output_0.actual.npy").is_file());
    }
}
