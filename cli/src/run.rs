//! `onnx-conformance run` and `diff`: the suite through the harness's `Suite`, on a backend
//! started by name, with the data, lock and own cases of the home.

use crate::args::{DiffArgs, KnownArgs, RunArgs};
use crate::home::Home;
use harness::backend::{start_backend, Starting};
use harness::runner::Suite;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Runs the suite as `args` say; the exit status is the run's.
pub fn main(home: &Home, args: &RunArgs, python: Option<&Path>) -> ExitCode {
    match prepare(home, args, python) {
        Ok((suite, libtest)) => suite.main_with(libtest),
        Err(e) => crate::fail(&e),
    }
}

/// The suite and libtest's arguments, or why the run cannot start (before any case runs).
fn prepare(
    home: &Home,
    args: &RunArgs,
    python: Option<&Path>,
) -> Result<(Suite, libtest_mimic::Arguments), String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let data = home.data();
    if !data.join(schema::index::INDEX_FILE).is_file() {
        return Err(format!(
            "{}: no fetched data here; run `onnx-conformance fetch` first",
            data.display()
        ));
    }
    let out = std::path::absolute(cwd.join(&args.out)).unwrap_or_else(|_| cwd.join(&args.out));
    if out.starts_with(home.dir()) {
        return Err(format!(
            "--out {}: inside the home {}, whose data a report must not mix with; give a \
             directory outside it",
            out.display(),
            home.dir().display()
        ));
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 86_400.0) {
        return Err(format!("--timeout {}: give seconds above 0", args.timeout));
    }
    let known = args.known.as_ref().map(|k| cwd.join(k));
    if let Some(k) = &known {
        if !k.is_file() {
            return Err(format!(
                "--known {}: no such file (an empty list is written as {{\"format\": 2, \
                 \"entries\": []}})",
                k.display()
            ));
        }
    }
    let how = Starting {
        target: home.dir().to_path_buf(),
        python: Some(python.map_or_else(|| PathBuf::from("python3"), Path::to_path_buf)),
        timeout: Duration::from_secs_f64(args.timeout),
    };
    let lock = home.lock()?;
    let own = home.own_cases()?;
    let backend =
        start_backend(&args.backend, &how).map_err(|e| format!("backend {}: {e}", args.backend))?;
    let mut suite = Suite::new(&cwd, &data, backend)
        .lock_file(lock)
        .own_cases(own)
        .strict(args.strict)
        .report_dir(&out)
        .filters(args.filters.iter().cloned());
    if let Some(k) = known {
        suite = suite.known_failures(k);
    }
    let mut argv = vec!["onnx-conformance".to_string()];
    if args.list {
        argv.push("--list".into());
    }
    if args.quiet {
        argv.push("--quiet".into());
    }
    if let Some(jobs) = args.jobs {
        argv.extend(["--test-threads".to_string(), jobs.to_string()]);
    }
    Ok((suite, libtest_mimic::Arguments::from_iter(argv)))
}

/// `diff OLD NEW`: what moved, as Markdown; non-zero under `--fail-on-regression` when a case
/// regressed.
pub fn diff(args: &DiffArgs) -> ExitCode {
    let options = reports::report_diff::DiffOptions {
        target: PathBuf::new(),
        new: Some(args.new.clone()),
        backend: None,
        any_backend: args.any_backend,
        max_rows: args.max_rows,
    };
    match reports::report_diff::diff_text(&args.old, &options) {
        Ok((text, regressions)) => {
            print!("{text}");
            match reports::diff::judge(regressions, args.fail_on_regression) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => crate::fail(&e),
            }
        }
        Err(e) => crate::fail(&e),
    }
}

/// `worker check COMMAND`: the harness's step-by-step check over the home's data, printed;
/// non-zero when the worker broke the protocol.
pub fn check_worker(home: &Home, command: &str, timeout: f64) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match harness::worker_check::check(&home.data(), command, timeout, home.dir(), &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(&e),
    }
}

/// `known-failures`: the list at `--known` written from a whole run's report (a partial run
/// is refused: a list written from it would drop the entries of every case it did not run).
/// Paths under the home are written relative to it, so the list holds on any machine.
pub fn known_failures(home: &Home, args: &KnownArgs) -> ExitCode {
    let written = harness::known::refresh::run(
        home.dir(),
        home.dir(),
        &args.backend,
        Some(&args.report),
        Some(&args.known),
        false,
    );
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(&e),
    }
}
