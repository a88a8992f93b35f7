//! `vectors export`, `vectors check`, `vectors run` and `findings merge`: the options read,
//! the library called (`deep::vectors`), its summary printed.

use crate::args::{ExportArgs, SelectArgs, VectorsRunArgs};
use crate::home::Home;
use deep::vectors::{self, Filter, Level, Options, Shard};
use harness::backend::{start_backend, Starting};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
/// `vectors export`.
pub fn export(args: &ExportArgs) -> ExitCode {
    match run_export(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(&e),
    }
}

fn options(args: &SelectArgs) -> Result<Options, String> {
    let level = Level::parse(&args.level).map_err(|e| format!("--level: {e}"))?;
    let shard = Shard::parse(&args.shard).map_err(|e| format!("--shard: {e}"))?;
    if args.sample == 0 {
        return Err("--sample: at least 1".into());
    }
    let seed = args.seed.unwrap_or_else(drawn_seed);
    let filter = Filter::parse(
        args.op.as_deref(),
        args.version,
        args.from.as_deref(),
        args.to.as_deref(),
    )?;
    Ok(Options {
        level,
        seed,
        sample: args.sample,
        shard,
        filter,
    })
}

/// A seed from the clock, when none is given: each export samples anew, and prints the seed
/// that repeats it.
fn drawn_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (t as u64) ^ ((t >> 64) as u64) ^ u64::from(std::process::id()).rotate_left(32)
}

fn run_export(args: &ExportArgs) -> Result<(), String> {
    let opts = options(&args.select)?;
    if opts.level == Level::Two {
        eprintln!(
            "vectors: seed {} (repeat with --seed {})",
            opts.seed, opts.seed
        );
    }
    if args.count_only {
        let planned = vectors::plan(&opts);
        for p in &planned {
            println!("{:>12} {}", p.candidates, p.name);
        }
        let total: u64 = planned.iter().map(|p| p.candidates).sum();
        println!("{total:>12} candidate elements in {} files", planned.len());
        return Ok(());
    }
    let s = vectors::export(&opts, &args.out, &mut crate::say).map_err(|e| e.to_string())?;
    if s.files == 0 {
        return Err("no file matches the filters".into());
    }
    println!(
        "wrote {} files, {} lines ({} undefined inputs left out), {} bytes into {}; sha256 of {}: {}",
        s.files,
        s.lines,
        s.left_out,
        s.bytes,
        args.out.display(),
        vectors::SUMS,
        s.sha256
    );
    Ok(())
}

/// `vectors check FILE...`: the report printed; exit 1 on any mismatch, 2 on a file that
/// cannot be read.
pub fn check(files: &[PathBuf]) -> ExitCode {
    match vectors::check(files) {
        Ok(report) => {
            print!("{}", vectors::render(&report));
            if report.mismatches == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `vectors run`: the level through a backend, findings written under `--out`; exit 1 when
/// any element differs or a file could not be fed whole, 2 when the run could not be made.
pub fn run(home: &Home, args: &VectorsRunArgs, python: Option<&Path>) -> ExitCode {
    found_or_error(run_through(home, args, python))
}

/// Exit status 0 when nothing was found, 1 when something was, 2 (the message printed) when
/// there is no answer, as `vectors check`.
fn found_or_error(r: Result<bool, String>) -> ExitCode {
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_through(home: &Home, args: &VectorsRunArgs, python: Option<&Path>) -> Result<bool, String> {
    let opts = options(&args.select)?;
    if opts.level == Level::Two {
        eprintln!(
            "vectors: seed {} (repeat with --seed {})",
            opts.seed, opts.seed
        );
    }
    let timeout = harness::runner::worker_timeout(args.timeout)
        .ok_or_else(|| format!("--timeout {}: give seconds above 0", args.timeout))?;
    let how = Starting {
        target: home.dir().to_path_buf(),
        python: Some(python.map_or_else(|| PathBuf::from("python3"), Path::to_path_buf)),
        timeout,
        configuration: args.configuration.clone(),
    };
    let name = harness::backend::backend_name(&args.backend).map_err(|e| e.to_string())?;
    let lock = deep::runs::lock(
        &args.out,
        "onnx-conformance vectors run",
        deep::WhenBusy::Wait,
        &crate::say,
    )
    .map_err(|e| e.to_string())?;
    let backend =
        start_backend(&args.backend, &how).map_err(|e| format!("backend {}: {e}", args.backend))?;
    let work = lock.dir().join(format!(".models-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let ran = vectors::run(&*backend, &name, &opts, &work, &mut crate::say);
    let _ = std::fs::remove_dir_all(&work);
    let (found, timings) = ran.map_err(|e| e.to_string())?;
    vectors::publish(lock.dir(), &found, &timings).map_err(|e| e.to_string())?;
    Ok(summary(&found, &timings, lock.dir()))
}

/// Prints what a run or a merge found and where its time went; whether it found nothing.
fn summary(found: &vectors::RunFindings, timings: &vectors::Timings, out: &Path) -> bool {
    let mismatches: u64 = found.units.iter().map(|u| u.mismatches).sum();
    let stopped = found.units.iter().filter(|u| u.failure.is_some()).count();
    let t = &timings.total;
    println!(
        "vectors run: {} files, {} elements fed, {mismatches} mismatches in {} groups, {stopped} files stopped by the runtime",
        found.units.len(),
        t.elements,
        found.groups.len()
    );
    let runtime = t
        .runtime
        .map_or("unknown".to_string(), |r| format!("{r:.2} s"));
    println!(
        "time: harness {:.2} s (inputs {:.2}, our outputs {:.2}, transfer {:.2}, compare {:.2}, judge {:.2}), runtime {runtime}",
        t.harness(),
        t.generate,
        t.expected,
        t.backend - t.runtime.unwrap_or(0.0),
        t.compare,
        t.judge
    );
    println!(
        "wrote {}/findings.{{json,md}} and timing.json",
        out.display()
    );
    mismatches == 0 && stopped == 0
}

/// `findings merge --out DIR SHARD_DIR...`: the shards' findings merged into the whole run's.
pub fn merge(out: &Path, shards: &[PathBuf]) -> ExitCode {
    let merged = || -> Result<bool, String> {
        let mut found = Vec::new();
        let mut timings = Vec::new();
        for dir in shards {
            let (f, t) = vectors::read(dir).map_err(|e| e.to_string())?;
            found.push(f);
            timings.push(t);
        }
        let whole = vectors::merge(found).map_err(|e| e.to_string())?;
        let timings = vectors::merge_timings(&timings);
        let lock = deep::runs::lock(
            out,
            "onnx-conformance findings merge",
            deep::WhenBusy::Wait,
            &crate::say,
        )
        .map_err(|e| e.to_string())?;
        vectors::publish(lock.dir(), &whole, &timings).map_err(|e| e.to_string())?;
        Ok(summary(&whole, &timings, lock.dir()))
    };
    found_or_error(merged())
}
