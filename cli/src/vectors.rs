//! `vectors export` and `vectors check`: the options read, the library called
//! (`deep::vectors`), its summary printed.

use crate::args::ExportArgs;
use deep::vectors::{self, Filter, Level, Options, Shard};
use std::path::PathBuf;
use std::process::ExitCode;
/// `vectors export`.
pub fn export(args: &ExportArgs) -> ExitCode {
    match run_export(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(&e),
    }
}

fn options(args: &ExportArgs) -> Result<Options, String> {
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
    let opts = options(args)?;
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
