//! `onnx-conformance run` and `diff`: the suite through the harness's `Suite`, on a backend
//! started by name, with the data, lock and own cases of the home.

use crate::args::{DiffArgs, FindingsArgs, KnownArgs, RunArgs, ScoreboardArgs};
use crate::home::Home;
use harness::backend::{start_backend, Starting};
use harness::runner::Suite;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    let cwd = current_dir()?;
    let given = Given {
        backend: &args.backend,
        python,
        timeout: args.timeout,
        known: args.known.as_ref().map(|k| cwd.join(k)),
        out: Some(cwd.join(&args.out)),
        configuration: args.configuration.clone(),
    };
    if args.resume && !cwd.join(&args.out).join("journal.jsonl").is_file() {
        eprintln!(
            "--resume: no run stopped half way in {}; running every case",
            cwd.join(&args.out).display()
        );
    }
    let suite = suite(home, &given)?
        .strict(args.strict)
        .filters(args.filters.iter().cloned())
        .progress(!args.quiet)
        .journal(args.resume)
        .rerun_with(rerun_line(args));
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

/// How a failing case's message says to rerun it: this command with the options that shaped
/// the run, the case's name appended by the harness.
fn rerun_line(args: &RunArgs) -> String {
    let mut words = vec!["onnx-conformance".to_string(), "run".into()];
    words.extend(["--backend".into(), args.backend.clone()]);
    if args.strict {
        words.push("--strict".into());
    }
    if let Some(k) = &args.known {
        words.extend(["--known".into(), k.display().to_string()]);
    }
    words.extend(["--out".into(), args.out.display().to_string()]);
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}

/// What one run of the suite is given on the command line.
struct Given<'a> {
    backend: &'a str,
    python: Option<&'a Path>,
    timeout: f64,
    known: Option<PathBuf>,
    /// The report directory; `None`: the source's own (a deep run reports under its tree).
    out: Option<PathBuf>,
    /// The configuration to run the backend in, of those it declares; `None`: its default.
    configuration: Option<String>,
}

fn current_dir() -> Result<PathBuf, String> {
    std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))
}

/// The suite on the backend `given` names, over the home's data, lock and own cases, with
/// its reports under `given.out`; or why it cannot start (before any case runs).
fn suite(home: &Home, given: &Given<'_>) -> Result<Suite, String> {
    let data = home.data();
    if !data.join(schema::index::INDEX_FILE).is_file() {
        return Err(format!(
            "{}: no fetched data here; run `onnx-conformance fetch` first",
            data.display()
        ));
    }
    let out = given
        .out
        .as_ref()
        .map(|o| std::path::absolute(o).unwrap_or_else(|_| o.clone()));
    if let Some(out) = out.as_ref().filter(|o| o.starts_with(home.dir())) {
        return Err(format!(
            "--out {}: inside the home {}, whose data a report must not mix with; give a \
             directory outside it",
            out.display(),
            home.dir().display()
        ));
    }
    let timeout = harness::runner::worker_timeout(given.timeout)
        .ok_or_else(|| format!("--timeout {}: give seconds above 0", given.timeout))?;
    if let Some(k) = &given.known {
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
        python: Some(
            given
                .python
                .map_or_else(|| PathBuf::from("python3"), Path::to_path_buf),
        ),
        timeout,
        configuration: given.configuration.clone(),
    };
    let lock = home.lock()?;
    let own = home.own_cases()?;
    let backend = start_backend(given.backend, &how)
        .map_err(|e| format!("backend {}: {e}", given.backend))?;
    let mut suite = Suite::new(current_dir()?, &data, backend)
        .lock_file(lock)
        .own_cases(own);
    if let Some(out) = out {
        suite = suite.report_dir(out);
    }
    if let Some(k) = &given.known {
        suite = suite.known_failures(k);
    }
    Ok(suite)
}

/// `scoreboard`: the official cases on each backend, in-process one after the other (each
/// backend's reports under `--out/<name>/`), then one board of their outcomes side by side,
/// `scoreboard.{json,md,html}` under `--out`.
pub fn scoreboard(home: &Home, args: &ScoreboardArgs, python: Option<&Path>) -> ExitCode {
    match board(home, args, python) {
        Ok(out) => {
            eprintln!("wrote {}/scoreboard.{{json,md,html}}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => crate::fail(&e),
    }
}

fn board(home: &Home, args: &ScoreboardArgs, python: Option<&Path>) -> Result<PathBuf, String> {
    let cwd = current_dir()?;
    let out = cwd.join(&args.out);
    let mut lists = std::collections::BTreeMap::new();
    for pair in &args.known {
        let (name, file) = pair
            .split_once('=')
            .ok_or_else(|| format!("--known {pair}: write NAME=FILE"))?;
        lists.insert(name.to_string(), cwd.join(file));
    }
    let lock = home.lock()?;
    let data_lock =
        schema::hash::lock_sha256(home.dir()).map_err(|e| format!("{}: {e}", lock.display()))?;
    let mut board = reports::scoreboard::Scoreboard {
        data_lock,
        backends: Vec::new(),
        not_set_up: Vec::new(),
    };
    for value in &args.backends {
        let name = harness::backend::backend_name(value).map_err(|e| e.to_string())?;
        let dir = out.join(name.replace([':', '/'], "-"));
        let given = Given {
            backend: value,
            python,
            timeout: args.timeout,
            known: lists.get(&name).cloned(),
            out: Some(dir.clone()),
            configuration: None,
        };
        eprintln!(
            "scoreboard: the official cases on {name} (reports in {})",
            dir.display()
        );
        let report = suite(home, &given)?
            .filters(["onnx-".to_string()])
            .run()
            .map_err(|e| e.to_string())?;
        let json = dir.join(harness::report::JSON_FILE);
        let run = reports::scoreboard::run_of(report, &name, &json).map_err(|e| e.to_string())?;
        board.backends.push(run);
    }
    reports::scoreboard::write(&out, &board).map_err(|e| e.to_string())?;
    print!("{}", reports::scoreboard::summary(&board));
    Ok(out)
}

/// `findings`: the deep tree in the home (written from this binary when missing or stale),
/// run on each backend in this process, its failures grouped into findings by cause, written
/// beside the tree: `findings.{json,md,html}` and a reproducer per class.
pub fn findings(home: &Home, args: &FindingsArgs, python: Option<&Path>) -> ExitCode {
    match deep_findings(home, args, python) {
        Ok(out) => {
            eprintln!("wrote {}/findings.{{json,md,html}}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => crate::fail(&e),
    }
}

fn deep_findings(
    home: &Home,
    args: &FindingsArgs,
    python: Option<&Path>,
) -> Result<PathBuf, String> {
    let tree = home.dir().join("deep");
    let mut chosen = Vec::new();
    for value in &args.backends {
        // The name the run's report records: findings check it, and it names the report
        // directory (ReportDir::deep) and the reproducers.
        let label = harness::backend::backend_name(value).map_err(|e| e.to_string())?;
        if chosen
            .iter()
            .any(|c: &deep::names::Chosen| c.label == label)
        {
            return Err(format!("--backend {value}: asked for twice"));
        }
        chosen.push(deep::names::Chosen {
            value: value.clone(),
            label,
            configuration: None,
        });
    }
    let lock = deep::runs::lock(
        &tree,
        "onnx-conformance findings",
        deep::WhenBusy::Wait,
        &crate::say,
    )
    .map_err(|e| e.to_string())?;
    if !deep::is_current(&tree) {
        eprintln!(
            "findings: writing the deep tree into {} (once per version of this command)",
            tree.display()
        );
        deep::write(&lock).map_err(|e| e.to_string())?;
    }
    let run_suite = |c: &deep::names::Chosen| -> Result<harness::report::Report, deep::Error> {
        eprintln!("findings: the deep cases on {}", c.label);
        let given = Given {
            backend: &c.value,
            python,
            timeout: args.timeout,
            known: None,
            // A deep run reports under its tree (`reports/<label>`), where findings read it.
            out: None,
            configuration: c.configuration.clone(),
        };
        let mut suite = suite(home, &given)?
            .source(deep::source(&tree))
            .filters(args.filters.iter().cloned())
            .progress(!args.quiet);
        if let Some(jobs) = args.jobs {
            suite = suite.threads(jobs.into());
        }
        Ok(suite.run()?)
    };
    let all = deep::runs::findings(
        &deep::sources_root(),
        &lock,
        &chosen,
        run_suite,
        &crate::say,
    )
    .map_err(|e| e.to_string())?;
    print!("{}", deep::findings::render::summary(&all));
    Ok(tree)
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

/// `worker new NAME`: the skeleton worker and its protocol loop written (never over a file of
/// the user's), then the commands that check it, run the suite with it and write its list.
pub fn new_worker(name: &str, out: Option<&Path>, python: Option<&Path>) -> ExitCode {
    match write_worker(name, out, python) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(&format!("worker new: {e}")),
    }
}

fn write_worker(name: &str, out: Option<&Path>, python: Option<&Path>) -> Result<(), String> {
    use harness::worker_skeleton::{quoted, write, LoopAt, Words};
    let cwd = current_dir()?;
    let out = match out {
        Some(path) => cwd.join(path),
        None => cwd.join(format!("{name}_worker.py")),
    };
    let python = python.map_or_else(|| "python3".to_string(), |p| p.display().to_string());
    let command = format!("{} {}", quoted(&python), quoted(&out.display().to_string()));
    let check = format!("onnx-conformance worker check {}", quoted(&command));
    let words = Words {
        written_by: &format!("onnx-conformance worker new {name}"),
        check: &check,
    };
    let written = write(name, &out, &LoopAt::Beside, &words).map_err(|e| e.to_string())?;
    println!("wrote {}", written.worker.display());
    if let Some(copy) = &written.worker_loop {
        println!("wrote {} (the protocol loop it imports)", copy.display());
    }
    let backend = quoted(&format!("worker:{name}={command}"));
    println!("check it step by step:\n  {check}");
    println!("run the suite with it:\n  onnx-conformance run --backend {backend}");
    println!(
        "then keep what still fails, with its reasons, in a known-failures list that the next \
         runs take with --known:\n  onnx-conformance known-failures --backend {backend} --known \
         {name}.json"
    );
    println!("({python} needs onnx installed, and numpy; the skeleton runs onnx's reference evaluator until you change it)");
    Ok(())
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
    let written = harness::refresh::run(
        home.dir(),
        home.dir(),
        &args.backend,
        Some(&args.report),
        Some(&args.known),
        false,
    );
    match written {
        Ok(wrote) => {
            eprintln!("{wrote}");
            ExitCode::SUCCESS
        }
        Err(e) => crate::fail(&e),
    }
}
