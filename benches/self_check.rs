//! The self-check's cost per element, on one thread, over a spread of each source's codes:
//! `--codes N` of the command takes the first N codes (tiny positive FLOATs, which round to
//! zero and skip most of the encoder), so a quick run there says little about the whole check.
//!
//! `cargo bench --bench self_check -- [--from TYPE].. [--to TYPE].. [--samples N] [--len L]
//! [--repeat R]` runs, for each selected source, `samples` chunks of `len` codes spread evenly
//! over the source's codes, through `self_check::check_each` (every selected case of a source
//! on each chunk, as the command runs them) at every SIMD level the CPU has, `R`
//! times, and prints the best time per element. Under `valgrind --tool=callgrind` (one repeat)
//! the instruction counts are repeatable where wall time on a shared host is not.

use onnx_conformance::self_check::{self, Case};
use onnx_conformance::tuning::SimdLevel;
use onnx_conformance::DataType;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut from = Vec::new();
    let mut to = Vec::new();
    let (mut samples, mut len, mut repeat) = (64u64, 4096u64, 3usize);
    let mut i = 0;
    while i < args.len() {
        let value = || {
            args.get(i + 1)
                .unwrap_or_else(|| panic!("{} needs a value", args[i]))
        };
        let number = || {
            value()
                .parse::<u64>()
                .unwrap_or_else(|e| panic!("{}: {e}", args[i]))
        };
        let dtype =
            || DataType::from_name(value()).unwrap_or_else(|| panic!("no type {}", value()));
        match args[i].as_str() {
            "--from" => from.push(dtype()),
            "--to" => to.push(dtype()),
            "--samples" => samples = number().max(1),
            "--len" => len = number().max(1),
            "--repeat" => repeat = number().max(1) as usize,
            // cargo bench passes --bench; anything else is a mistake worth stopping on.
            "--bench" => {
                i += 1;
                continue;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let cases: Vec<Case> = self_check::cases()
        .into_iter()
        .filter(|c| from.is_empty() || from.contains(&c.from))
        .filter(|c| to.is_empty() || to.contains(&c.to))
        .collect();
    let levels: Vec<SimdLevel> = SimdLevel::supported().collect();
    let mut total = (0u64, 0f64);
    // As the command runs them: each chunk for every selected case of its source at once.
    for run in cases.chunk_by(|a, b| a.from == b.from) {
        let count = self_check::code_count(run[0].from);
        let stride = count / samples;
        let mut best = f64::INFINITY;
        let mut elements = 0;
        for _ in 0..repeat {
            elements = 0;
            let start = Instant::now();
            for s in 0..samples {
                let first = s * stride;
                let n = len.min(count - first);
                for (case, checked) in run
                    .iter()
                    .zip(self_check::check_each(run, first, n, &levels))
                {
                    let checked = checked.unwrap_or_else(|e| panic!("{case}: {e}"));
                    assert_eq!(checked.differing, 0, "{case}: {:?}", checked.mismatches);
                }
                elements += n * run.len() as u64;
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        let ns = best * 1e9 / elements as f64;
        println!(
            "{} ({} cases): {ns:.2} ns/element ({elements} elements)",
            run[0].from.name(),
            run.len()
        );
        total = (total.0 + elements, total.1 + best);
    }
    println!("all: {:.2} ns/element", total.1 * 1e9 / total.0 as f64);
}
