//! Judging a known-failures list against the official run: the list checks every run makes
//! before its first trial (entries that select no trial, entries that contradict), then each
//! trial's entry, for lists of entries that select nothing; the lists indexed first. The cost must grow with entries plus trials, never with
//! their product (issue 39: 25,000 such entries took 46 s, 100,000 took 150 s).
//!
//! `cargo bench --bench known_failures` (needs the official data: `cargo xtask fetch-tests`).

use divan::Bencher;
use harness::known::{KnownFailures, Lists};
use harness::source::Source;
use std::hint::black_box;
use std::path::Path;
use std::sync::LazyLock;

fn main() {
    divan::main();
}

/// Every trial of the official run (1773 at onnx 1.22.0 with the own cases).
static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    Source::Official
        .case_names(Path::new(env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("the official data is needed: {e}"))
});

/// A list of `n` entries, none of which selects a trial of the official run: whole names,
/// case patterns across releases, a middle piece, a release prefix, and a case pattern with a
/// type, in turn.
fn list_selecting_nothing(n: usize) -> KnownFailures {
    let entries: Vec<String> = (0..n)
        .map(|i| {
            let selector = match i % 5 {
                0 => format!(r#""trials": ["onnx-1.22.0/opset25/test_absent_{i}"]"#),
                1 => format!(r#""trials": ["onnx-*/test_absent_{i}"]"#),
                2 => format!(r#""trials": ["*/test_absent_{i}_*"]"#),
                3 => format!(r#""trials": ["onnx-0.{i}/*"]"#),
                _ => format!(r#""trials": ["onnx-*/test_cast_absent_{i}"], "types": ["FLOAT"]"#),
            };
            format!(r#"{{{selector}, "kind": "k", "reason": "r{i}"}}"#)
        })
        .collect();
    let text = format!(r#"{{"format": 2, "entries": [{}]}}"#, entries.join(","));
    KnownFailures::parse(&text).expect("a valid list")
}

/// The checks and every trial's lookup, from the lists as read.
#[divan::bench(args = [1_000, 25_000, 100_000], sample_count = 3, sample_size = 1)]
fn judge(bencher: Bencher<'_, '_>, n: usize) {
    let names: Vec<&str> = NAMES.iter().map(String::as_str).collect();
    let data = KnownFailures::data().expect("the data list");
    let backend = list_selecting_nothing(n);
    bencher
        .with_inputs(|| (data.clone(), backend.clone()))
        .bench_values(|(data, backend)| {
            let lists = Lists::new(data, backend, "tests/known-failures/bench.json".into());
            let checks = lists.checks(&names, true);
            let listed = names.iter().filter(|n| lists.find(n).is_some()).count();
            assert!(
                checks.len() == 1,
                "every entry selects nothing, and none contradicts"
            );
            black_box(listed)
        });
}
