//! Kernel throughput through the public `ops::run`, beside a memcpy of the same bytes.
//!
//! `cargo bench --bench kernels` runs the divan benchmarks (human output, elements/s and
//! bytes/s; bytes are input plus output, sub-byte types counted packed).
//! `cargo bench --bench kernels -- --json [--repeat N] [FILTER]` instead prints one JSON object
//! per case: best of N wall-clock times on one thread and on all threads, plus a memcpy moving
//! the same number of bytes on one thread and on all threads; the first line says the SIMD
//! level in effect (`ONNX_CONFORMANCE_SIMD` caps it) and the thread count.
//! `cargo xtask bench-compare` reads that.
//! `cargo bench --bench kernels -- --levels [--repeat N] [--threads T] [--n ELEMENTS] [--stores]
//! [FILTER]` times each case at every SIMD level the CPU has, the levels interleaved call by
//! call in one process, so that a loaded machine slows them alike: best and median per level,
//! and their ratio to the best level. `--n` shrinks Cast inputs (a cache-resident size shows
//! the compute cost that a memory-bound size hides). `--stores` runs every level twice, with
//! ordinary and with streaming stores whatever the size, to measure the streaming threshold
//! on a new host.

#[path = "kernels/cases.rs"]
mod cases;

use cases::{Case, Gen, Kind, Prepared, CASES};
use divan::counter::{BytesCount, ItemsCount};
use divan::Bencher;
use onnx_conformance::tuning::{self, SimdLevel};
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};
use vocab::Tensor;

fn main() {
    if std::env::var_os("KERNELS_FRESH_PAGES").is_none() {
        keep_freed_memory();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--json") {
        json_main(&args);
    } else if args.iter().any(|a| a == "--levels") {
        levels_main(&args);
    } else {
        divan::main();
    }
}

/// Makes glibc keep freed memory for reuse instead of unmapping it, as onnxruntime's arena
/// does: otherwise every 16M-element output is written to freshly faulted 4 KiB pages, which on
/// a VM costs several times the copy itself. `KERNELS_FRESH_PAGES=1` measures that case.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_MMAP_MAX: i32 = -4;
    // SAFETY: mallopt only sets allocator parameters; called before any other thread exists.
    unsafe {
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, i32::MAX);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}

/// Prepares a case and runs it once to check the output. Any failure panics: a missing or
/// broken kernel must never look like a skipped or a fast one.
fn prepare_checked(case: &Case) -> Prepared {
    let prepared = case
        .prepare()
        .unwrap_or_else(|e| panic!("benchmark {case}: cannot prepare: {e}"));
    match prepared.run() {
        Ok(out) => check_output(case, &out),
        Err(e) => panic!("benchmark {case} failed: {e}"),
    }
    prepared
}

fn check_output(case: &Case, out: &[Tensor]) {
    let [t] = out else {
        panic!("benchmark {case}: expected one output, got {}", out.len());
    };
    assert_eq!(t.len(), case.elements(), "benchmark {case}: output length");
    if let Kind::Cast { to, .. } = case.kind {
        assert_eq!(t.dtype(), to, "benchmark {case}: output type");
    }
}

#[divan::bench(args = CASES, sample_count = 10, sample_size = 1)]
fn kernel(bencher: Bencher<'_, '_>, case: &Case) {
    let prepared = prepare_checked(case);
    let bencher = bencher.counter(ItemsCount::new(case.elements()));
    let bencher = match case.traffic_bytes() {
        Some(b) => bencher.counter(BytesCount::new(b)),
        None => bencher,
    };
    bencher.bench_local(|| prepared.run());
}

/// memcpy of 64 MiB (128 MiB moved): the physical limit the numeric casts are held to.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn memcpy_64mib(bencher: Bencher<'_, '_>) {
    let src = vec![1u8; 64 << 20];
    let mut dst = vec![0u8; 64 << 20];
    bencher
        .counter(BytesCount::new(2 * src.len()))
        .bench_local(|| dst.copy_from_slice(black_box(&src)));
}

/// The same copy into a fresh `Vec`, as a kernel returning a new tensor must: the cost of
/// faulting in new pages is part of every kernel figure.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn memcpy_64mib_fresh(bencher: Bencher<'_, '_>) {
    let src = vec![1u8; 64 << 20];
    bencher
        .counter(BytesCount::new(2 * src.len()))
        .bench_local(|| black_box(&src).to_vec());
}

/// Best wall-clock time of `repeat` calls, after one untimed warm-up call.
fn best_of(repeat: usize, mut f: impl FnMut()) -> Duration {
    f();
    (0..repeat)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn json_main(args: &[String]) {
    let mut repeat = 5;
    let mut filter = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" | "--bench" => {}
            "--repeat" => match it.next().and_then(|s| s.parse().ok()) {
                Some(n) => repeat = n,
                None => panic!("--repeat needs a positive integer"),
            },
            other => filter = Some(other.to_owned()),
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let level = match std::env::var(tuning::SIMD_VAR) {
        Ok(v) => SimdLevel::parse(&v)
            .unwrap_or_else(|e| panic!("{e}"))
            .min(SimdLevel::detected()),
        Err(_) => SimdLevel::detected(),
    };
    let meta = json!({
        "meta": true,
        "simd": level.name(),
        "detected": SimdLevel::detected().name(),
        "threads": threads,
    });
    println!("{meta}");
    for case in CASES {
        if filter
            .as_ref()
            .is_some_and(|f| !case.name.contains(f.as_str()))
        {
            continue;
        }
        let p = prepare_checked(case);
        let time_at = |n| {
            tuning::set_threads(n);
            best_of(repeat, || {
                black_box(p.run().ok());
            })
        };
        let ours = (time_at(1), time_at(threads));
        tuning::set_threads(0);
        drop(p);
        let memcpy = case.traffic_bytes().map(|b| {
            (
                memcpy_best(b / 2, repeat, 1),
                memcpy_best(b / 2, repeat, threads),
            )
        });
        println!("{}", json_line(case, ours, memcpy));
    }
}

/// The `--levels` mode: see the module comment.
fn levels_main(args: &[String]) {
    let (mut repeat, mut threads, mut n, mut filter) = (15, 1, None, None);
    let mut stores = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = |what: &str| -> usize {
            it.next()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a positive integer"))
        };
        match a.as_str() {
            "--levels" | "--bench" => {}
            "--repeat" => repeat = number("--repeat"),
            "--threads" => threads = number("--threads"),
            "--n" => n = Some(number("--n")),
            "--stores" => stores = true,
            other => filter = Some(other.to_owned()),
        }
    }
    tuning::set_threads(threads);
    // (streaming threshold, label): `None` is the default threshold.
    let store_modes: &[(Option<usize>, &str)] = if stores {
        &[(Some(usize::MAX), " ordinary"), (Some(0), " streaming")]
    } else {
        &[(None, "")]
    };
    let levels: Vec<(SimdLevel, Option<usize>, &str)> = SimdLevel::supported()
        .flat_map(|l| store_modes.iter().map(move |&(s, label)| (l, s, label)))
        .collect();
    for case in CASES {
        if filter
            .as_ref()
            .is_some_and(|f| !case.name.contains(f.as_str()))
        {
            continue;
        }
        let case = case.with_len(n.unwrap_or(case.elements()));
        let p = prepare_checked(&case);
        // Enough calls per sample that a small size still takes about a millisecond.
        let calls = (1 << 20) / case.elements().max(1) + 1;
        let mut times = vec![Vec::new(); levels.len()];
        for _ in 0..repeat {
            for (l, &(level, stream_min, _)) in levels.iter().enumerate() {
                tuning::set_simd_cap(level);
                tuning::set_stream_min_bytes(stream_min);
                let t = Instant::now();
                for _ in 0..calls {
                    black_box(p.run().ok());
                }
                times[l].push(t.elapsed() / calls as u32);
            }
        }
        let rate = |d: Duration| case.elements() as f64 / d.as_secs_f64() / 1e9;
        let mut line = format!("{:<34} n={:<9} t={threads}", case.name, case.elements());
        let best_rate = times
            .iter()
            .map(|t| rate(*t.iter().min().unwrap()))
            .fold(0.0, f64::max);
        for ((level, _, label), t) in levels.iter().zip(&mut times) {
            t.sort_unstable();
            let (best, median) = (rate(t[0]), rate(t[t.len() / 2]));
            line += &format!(
                " | {}{label} best {best:.2} median {median:.2} Gelem/s ({:.2}x)",
                level.name(),
                best / best_rate
            );
        }
        println!("{line}");
    }
    tuning::set_threads(0);
    tuning::set_stream_min_bytes(None);
}

/// Best time to copy `bytes` bytes between two buffers that are already faulted in, split
/// into `threads` contiguous pieces copied at once.
fn memcpy_best(bytes: usize, repeat: usize, threads: usize) -> Duration {
    let src = vec![1u8; bytes];
    let mut dst = vec![0u8; bytes];
    let piece = bytes.div_ceil(threads).next_multiple_of(64).max(64);
    best_of(repeat, || {
        std::thread::scope(|s| {
            for (d, from) in dst.chunks_mut(piece).zip(src.chunks(piece)) {
                s.spawn(move || d.copy_from_slice(black_box(from)));
            }
        })
    })
}

/// One case's JSON object; serde_json writes it, so any name or value is escaped correctly.
fn json_line(
    case: &Case,
    ours: (Duration, Duration),
    memcpy: Option<(Duration, Duration)>,
) -> serde_json::Value {
    let mut line = match case.kind {
        Kind::Cast {
            from,
            to,
            opset,
            saturate,
            n,
            gen,
        } => json!({
            "op": "Cast", "from": from.code(), "to": to.code(), "opset": opset,
            "shape": [n], "gen": gen_name(gen), "saturate": saturate,
        }),
        Kind::Concat { shape, count, axis } => json!({
            "op": "Concat", "from": 1, "to": 1, "opset": 13, "shape": shape,
            "count": count, "axis": axis, "gen": "wide",
        }),
    };
    let fields = line.as_object_mut().expect("an object");
    // An absent attribute is left out, not written as null (saturate is Cast-19+ only).
    fields.retain(|_, v| !v.is_null());
    fields.extend([
        ("name".to_owned(), json!(case.name)),
        ("elements".to_owned(), json!(case.elements())),
        ("status".to_owned(), json!("ok")),
        ("seconds_1t".to_owned(), json!(ours.0.as_secs_f64())),
        ("seconds_mt".to_owned(), json!(ours.1.as_secs_f64())),
    ]);
    if let Some(b) = case.traffic_bytes() {
        fields.insert("bytes".to_owned(), json!(b));
    }
    if let Some((one, all)) = memcpy {
        fields.insert("memcpy_1t_seconds".to_owned(), json!(one.as_secs_f64()));
        fields.insert("memcpy_mt_seconds".to_owned(), json!(all.as_secs_f64()));
    }
    line
}

fn gen_name(gen: Gen) -> &'static str {
    match gen {
        Gen::Wide => "wide",
        Gen::Small => "small",
        Gen::Int => "int",
        Gen::Bits => "bits",
        Gen::Text => "text",
    }
}
