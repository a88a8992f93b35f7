//! `onnx-conformance self-check`: every fast Cast path of this binary held to its exact path
//! over every code of every source of at most 32 bits, at every SIMD level this CPU has, under
//! every rule set (`onnx_conformance::self_check` does one chunk; this drives the chunks over
//! threads, so that memory stays bounded and both cores work), and the rate beside memcpy's,
//! measured in the same run on the same number of threads.

use crate::args::SelfCheckArgs;
use crate::say;
use onnx_conformance::self_check::{self, Case, Mismatch};
use onnx_conformance::tuning::SimdLevel;
use onnx_conformance::DataType;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Mismatches printed in all; the rest are counted.
const MAX_PRINTED: usize = 64;

/// Runs the check as `args` says.
pub fn main(args: &SelfCheckArgs) -> ExitCode {
    let cases = match chosen(args) {
        Ok(c) => c,
        Err(e) => return crate::fail(&e),
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let levels: Vec<SimdLevel> = SimdLevel::supported().collect();
    let limit = args.codes.unwrap_or(u64::MAX);
    let chunk = args.chunk.max(1);
    let plan = Plan::new(&cases, limit, chunk);
    let names: Vec<&str> = levels.iter().map(|l| l.name()).collect();
    say(&format!(
        "self-check: {} cases ({} rule sets), {} elements, {} chunks of up to {chunk} codes \
         (each for every case of its source), levels {}, {threads} threads",
        cases.len(),
        cases.iter().map(|c| c.rule_sets).sum::<usize>(),
        plan.elements,
        plan.chunks(),
        names.join(" ")
    ));
    for line in merged(&cases) {
        say(&line);
    }
    let memcpy_before = memcpy_rate(threads);
    let start = Instant::now();
    let outcome = run(&plan, &levels, threads);
    let elapsed = start.elapsed();
    let memcpy_after = memcpy_rate(threads);
    for m in &outcome.printed {
        println!("MISMATCH {m}");
    }
    for e in &outcome.errors {
        println!("ERROR {e}");
    }
    let secs = elapsed.as_secs_f64();
    println!(
        "checked {} elements ({} source bytes) of {} cases at {} in {:.1} s on {threads} threads: \
         {:.3e} elements/s, {:.2} GB/s of source; memcpy on {threads} threads in this run: \
         {:.2} GB/s before, {:.2} GB/s after",
        plan.elements,
        plan.bytes,
        cases.len(),
        names.join(" "),
        secs,
        plan.elements as f64 / secs,
        plan.bytes as f64 / secs / 1e9,
        memcpy_before / 1e9,
        memcpy_after / 1e9,
    );
    let differing = outcome.differing.load(Ordering::Relaxed);
    if differing > 0 || !outcome.errors.is_empty() {
        println!(
            "FAILED: {differing} fast outputs differ from the exact path, {} errors",
            outcome.errors.len()
        );
        return ExitCode::FAILURE;
    }
    println!("passed: every fast output equals the exact path's");
    ExitCode::SUCCESS
}

/// One line per source and unread part of the rules: the targets whose rule sets differing
/// only there run as one case, since both paths reset what they do not read before running.
fn merged(cases: &[Case]) -> Vec<String> {
    let mut groups: Vec<(DataType, &str, Vec<&str>)> = Vec::new();
    for c in cases.iter().filter(|c| c.rule_sets > 1) {
        let unread = match (c.read.saturate, c.read.generation) {
            (false, false) => "saturate or the version-24 generation",
            (false, true) => "saturate",
            (true, false) => "the version-24 generation",
            (true, true) => continue,
        };
        let name = c.to.name();
        match groups.iter_mut().find(|g| g.0 == c.from && g.1 == unread) {
            Some(g) if !g.2.contains(&name) => g.2.push(name),
            Some(_) => {}
            None => groups.push((c.from, unread, vec![name])),
        }
    }
    groups
        .into_iter()
        .map(|(from, unread, to)| {
            format!(
                "  rule sets merged, as neither path reads {unread}: {} -> {}",
                from.name(),
                to.join(", ")
            )
        })
        .collect()
}

/// The cases the options select.
fn chosen(args: &SelfCheckArgs) -> Result<Vec<Case>, String> {
    let types = |names: &[String]| -> Result<Vec<DataType>, String> {
        names
            .iter()
            .map(|n| DataType::from_name(n).ok_or_else(|| format!("unknown type {n}")))
            .collect()
    };
    let (from, to) = (types(&args.from)?, types(&args.to)?);
    let cases: Vec<Case> = self_check::cases()
        .into_iter()
        .filter(|c| from.is_empty() || from.contains(&c.from))
        .filter(|c| to.is_empty() || to.contains(&c.to))
        .collect();
    match cases.is_empty() {
        true => Err("no fast path has such a source and target".into()),
        false => Ok(cases),
    }
}

/// The work: each source's codes (up to the limit) cut into chunks, numbered across sources;
/// a chunk is checked for every case of its source at once, which makes its codes and decodes
/// them once ([`self_check::check_each`]).
struct Plan<'a> {
    /// The cases in runs of one source each ([`self_check::cases`] lists them in type order).
    runs: Vec<&'a [Case]>,
    /// Codes per run.
    codes: Vec<u64>,
    /// The number of the first chunk of each run, and the total at the end.
    starts: Vec<u64>,
    chunk: u64,
    /// Source elements in all, each code counted once per case.
    elements: u64,
    /// Their bytes in memory (a sub-byte element takes a byte).
    bytes: u64,
}

impl<'a> Plan<'a> {
    fn new(cases: &'a [Case], limit: u64, chunk: u64) -> Plan<'a> {
        let runs: Vec<&[Case]> = cases.chunk_by(|a, b| a.from == b.from).collect();
        let codes: Vec<u64> = runs
            .iter()
            .map(|r| self_check::code_count(r[0].from).min(limit))
            .collect();
        let mut starts = vec![0];
        for &n in &codes {
            starts.push(starts[starts.len() - 1] + n.div_ceil(chunk));
        }
        let size = |r: &[Case]| u64::from(r[0].from.bit_width().div_ceil(8)) * r.len() as u64;
        Plan {
            elements: runs
                .iter()
                .zip(&codes)
                .map(|(r, &n)| r.len() as u64 * n)
                .sum(),
            bytes: runs.iter().zip(&codes).map(|(r, &n)| size(r) * n).sum(),
            runs,
            codes,
            starts,
            chunk,
        }
    }

    fn chunks(&self) -> u64 {
        self.starts[self.starts.len() - 1]
    }

    /// Chunk `k`: its run of cases, first code and length.
    fn get(&self, k: u64) -> (&[Case], u64, u64) {
        let i = self.starts.partition_point(|&s| s <= k) - 1;
        let first = (k - self.starts[i]) * self.chunk;
        (self.runs[i], first, self.chunk.min(self.codes[i] - first))
    }
}

/// What the threads found.
struct Outcome {
    differing: AtomicU64,
    printed: Vec<Mismatch>,
    errors: Vec<String>,
}

/// Every chunk of `plan` checked at `levels`, on `threads` threads taking chunks in turn;
/// progress on stderr about every 30 seconds.
fn run(plan: &Plan<'_>, levels: &[SimdLevel], threads: usize) -> Outcome {
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let differing = AtomicU64::new(0);
    let printed = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    let finished = AtomicBool::new(false);
    let running = AtomicUsize::new(threads);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= plan.chunks() {
                        break;
                    }
                    let (run, first, len) = plan.get(k);
                    for checked in self_check::check_each(run, first, len, levels) {
                        match checked {
                            Ok(c) => {
                                differing.fetch_add(c.differing, Ordering::Relaxed);
                                let mut p = printed.lock().unwrap_or_else(|e| e.into_inner());
                                let room = MAX_PRINTED.saturating_sub(p.len());
                                p.extend(c.mismatches.into_iter().take(room));
                            }
                            Err(e) => errors.lock().unwrap_or_else(|e| e.into_inner()).push(e),
                        }
                    }
                    done.fetch_add(len * run.len() as u64, Ordering::Relaxed);
                }
                if running.fetch_sub(1, Ordering::Relaxed) == 1 {
                    finished.store(true, Ordering::Relaxed);
                }
            });
        }
        // Progress: this thread only sleeps between lines.
        let mut last = Instant::now();
        while !finished.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(200));
            if last.elapsed() >= Duration::from_secs(30) {
                last = Instant::now();
                let d = done.load(Ordering::Relaxed);
                let secs = start.elapsed().as_secs_f64();
                let rate = d as f64 / secs;
                let left = (plan.elements - d) as f64 / rate.max(1.0);
                say(&format!(
                    "  {:.1}% ({d} elements) in {secs:.0} s, {rate:.3e} elements/s, \
                     about {left:.0} s left, {} differ",
                    100.0 * d as f64 / plan.elements as f64,
                    differing.load(Ordering::Relaxed)
                ));
            }
        }
    });
    Outcome {
        differing,
        printed: printed.into_inner().unwrap_or_else(|e| e.into_inner()),
        errors: errors.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

/// memcpy's rate in bytes per second on `threads` threads, each copying its own 32 MiB (far
/// beyond the caches) between two buffers: the best of five rounds.
fn memcpy_rate(threads: usize) -> f64 {
    const BYTES: usize = 32 << 20;
    let mut pairs: Vec<(Vec<u8>, Vec<u8>)> = (0..threads)
        .map(|i| (vec![i as u8; BYTES], vec![0u8; BYTES]))
        .collect();
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        std::thread::scope(|s| {
            for (src, dst) in &mut pairs {
                s.spawn(move || dst.copy_from_slice(std::hint::black_box(src)));
            }
        });
        best = best.min(start.elapsed().as_secs_f64());
    }
    (threads * BYTES) as f64 / best
}
