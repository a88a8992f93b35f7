//! Unit tests of the mismatch diagnostics and the rerun command lines.

use super::*;
use crate::compare::{compare_outputs, Rule};
use crate::source::Source;
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
    assert!(text.contains("[0, 1] (flat 1): expected 2.0 (0x40000000), actual 2.5 (0x40200000)"));
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
fn rerun_command_quotes_and_carries_the_environment() {
    let default = RerunEnv::default();
    assert_eq!(
        rerun_command("onnx-1.4.1/opset9/t", &default),
        "cargo test --test onnx_backend -- --exact 'onnx-1.4.1/opset9/t'"
    );
    let env = RerunEnv {
        strict: true,
        source: Source::Custom(PathBuf::from("/d")),
        ..RerunEnv::default()
    };
    assert_eq!(
        rerun_command("own/it's", &env),
        "ONNX_CONFORMANCE_STRICT=1 ONNX_BACKEND_DATA='/d' cargo test --test onnx_backend \
         -- --exact 'own/it'\\''s'"
    );
    let env = RerunEnv {
        backend: Some("worker:sh -c 'w'".into()),
        ..RerunEnv::default()
    };
    assert_eq!(
        rerun_command("t", &env),
        "ONNX_CONFORMANCE_BACKEND='worker:sh -c '\\''w'\\''' cargo test --test onnx_backend \
         -- --exact 't'"
    );
    // A linked runtime reruns in a binary built with its feature.
    let env = RerunEnv {
        backend: Some("rten".into()),
        ..RerunEnv::default()
    };
    assert_eq!(
        rerun_command("t", &env),
        "ONNX_CONFORMANCE_BACKEND=rten cargo test --features rten --test onnx_backend -- \
         --exact 't'"
    );
}

/// The printed line, split back as a shell would, names everything that shaped the run.
#[test]
fn a_rerun_line_parsed_back_names_every_setting() {
    let trial = "onnx-1.22.0/opset25/test_cast_FLOAT_to_INT4 (x)";
    let env = RerunEnv {
        backend: Some("worker:python3 -u 'my worker.py'".into()),
        strict: true,
        source: Source::Custom(PathBuf::from("/data dir/cases")),
        known_failures: Some(PathBuf::from("/lists/mine's.json")),
        profile: Some("bench-lto".into()),
        test: "conformance".into(),
        command: None,
    };
    let words = shlex::split(&rerun_command(trial, &env)).expect("a shell line");
    let want = [
        "ONNX_CONFORMANCE_BACKEND=worker:python3 -u 'my worker.py'",
        "ONNX_CONFORMANCE_KNOWN_FAILURES=/lists/mine's.json",
        "ONNX_CONFORMANCE_STRICT=1",
        "ONNX_BACKEND_DATA=/data dir/cases",
        "cargo",
        "test",
        "--profile",
        "bench-lto",
        "--test",
        "conformance",
        "--",
        "--exact",
        trial,
    ];
    assert_eq!(words, want);
    let release = RerunEnv {
        profile: Some("release".into()),
        ..RerunEnv::default()
    };
    let words = shlex::split(&rerun_command("t", &release)).expect("a shell line");
    assert_eq!(&words[..3], ["cargo", "test", "--release"]);
    // A deep trial reruns in the deep suite (which is strict by itself).
    let deep = RerunEnv {
        source: Source::Indexed(crate::testkit::indexed(Path::new("/t/deep"))),
        strict: true,
        ..RerunEnv::default()
    };
    let words = shlex::split(&rerun_command("deep/opset25/c", &deep)).expect("a shell line");
    assert_eq!(&words[..2], ["ONNX_CONFORMANCE_SUITE=deep", "cargo"]);
}

/// The profile and the test target come from the binary's path in cargo's layout.
#[test]
fn the_binary_path_gives_profile_and_test() {
    let facts = |p: &str| binary_facts(Path::new(p));
    assert_eq!(
        facts("/w/target/debug/deps/onnx_backend-0123abcd"),
        (None, Some("onnx_backend".into()))
    );
    assert_eq!(
        facts("/w/target/release/deps/conformance-99"),
        (Some("release".into()), Some("conformance".into()))
    );
    assert_eq!(
        facts("/w/target/x86_64-unknown-linux-gnu/bench-lto/deps/onnx_backend-1"),
        (Some("bench-lto".into()), Some("onnx_backend".into()))
    );
    assert_eq!(facts("/usr/bin/somewhere"), (None, None));
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
    assert!(lines[0].contains("output_0.actual.pb"), "{lines:?}");
    // The .pb keeps the type npy cannot: float8 reads back as float8, bit for bit.
    let back = crate::read::read_tensor(&dir.join("output_0.actual.pb"), None).expect("pb");
    assert_eq!(back, e);
}

#[test]
fn a_caller_s_own_command_reruns_a_trial_by_its_name() {
    let env = RerunEnv {
        command: Some("onnx-conformance run --backend 'onnx-backend:my_rt'".into()),
        strict: true,
        ..RerunEnv::default()
    };
    assert_eq!(
        rerun_command("onnx-1.22.0/opset25/test_cast_FLOAT_to_DOUBLE", &env),
        "onnx-conformance run --backend 'onnx-backend:my_rt' 'onnx-1.22.0/opset25/test_cast_FLOAT_to_DOUBLE'"
    );
}
