//! Bytes -> a case (model.onnx, input and expected-output .pb files; see
//! `harness::read::bundle`) -> the whole trial path on the native implementation: read, run,
//! compare, diagnose, and the report record rendered as JSON, Markdown and HTML. Runs each
//! case in default and strict mode. A trial must fail or pass, never panic (the trial path
//! catches panics and reports them, which counts as a finding here too).
#![no_main]

use harness::fuzzing::{bundle, run_trial, CaseSpec, Context, Spec, SpecKind};
use harness::known::Outcome;
use harness::report::{self, Report};
use harness::source::Source;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// This process's scratch directory, in memory where the system has one.
fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let shm = PathBuf::from("/dev/shm");
        let base = if shm.is_dir() {
            shm
        } else {
            std::env::temp_dir()
        };
        base.join(format!("onnx-conformance-fuzz-{}", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    let files = bundle::split(data);
    let root = scratch();
    let dir = root.join("test_fuzz");
    let _ = std::fs::remove_dir_all(&dir);
    if bundle::write_case(&dir, &files).is_err() {
        return;
    }
    let spec = Spec {
        name: "custom/test_fuzz".into(),
        kind: SpecKind::Case(CaseSpec {
            dir,
            release: "fuzz".into(),
            case: "test_fuzz".into(),
            op_type: None,
            opset: None,
            indexed: false,
        }),
    };
    for strict in [false, true] {
        let ctx = Context {
            strict,
            out_dir: root.join("out"),
            source: Source::Custom(root.clone()),
            ..Context::default()
        };
        let rec = run_trial(&ctx, &spec).record;
        let message = rec.message.as_deref().unwrap_or("");
        assert!(
            !message.contains("panicked"),
            "the trial panicked: {message}"
        );
        assert!(
            matches!(rec.outcome, Outcome::Pass | Outcome::Fail),
            "no known failures are listed, yet the outcome is {:?}",
            rec.outcome
        );
        assert_eq!(
            rec.outcome == Outcome::Fail,
            rec.message.is_some(),
            "a failure needs a message, and only a failure"
        );
        let report = Report {
            format: report::FORMAT,
            strict,
            data: root.display().to_string(),
            run: None,
            backend: rec.backend.clone(),
            known_failures: None,
            trials: vec![rec],
        };
        let json = serde_json::to_string(&report).expect("a report serialises");
        let back: Report = serde_json::from_str(&json).expect("a report reads back");
        assert_eq!(back.trials.len(), 1);
        let _ = report::md::render(&report);
        let _ = report::html::render(&report);
        let _ = report::summary_table(&report);
    }
});
