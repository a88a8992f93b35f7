//! The conformance binary's main: settings from the environment, one libtest-mimic trial per
//! case, then the reports and the per-opset summary after the libtest summary.

use crate::backend::{self, BackendHandle, Selected};
use crate::diag::RerunEnv;
use crate::discover::{Layout, Spec, SpecKind};
use crate::known::{self, KnownFailures, Lists, Outcome, Tolerances};
use crate::provenance::{self, RunInfo, Runner};
use crate::report::{self, nextest, Report, TrialRecord};
use crate::settings::{self, Env};
use crate::source::Source;
use crate::trials::{self, Context};
use libtest_mimic::{Arguments, Completion, FormatSetting, Trial};
use schema::files::{DirLock, WhenBusy};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

pub use crate::settings::{
    worker_timeout, BACKEND_VAR, DATA_VAR, HOME_VAR, KNOWN_VAR, REPORT_DIR_VAR, STRICT_VAR,
};

/// How this process's environment says to start a backend for a run in `workspace`: the
/// target directory (its venv and built workers), `ONNX_CONFORMANCE_PYTHON` and
/// `ONNX_CONFORMANCE_TIMEOUT`; a bad value is an `Err` naming the variable, as a run's setup
/// check would.
pub fn starting(workspace: &Path) -> Result<backend::Starting, crate::Error> {
    let (settings, problems) = settings::read(workspace, &Env::from_process());
    let bad = |check: &str| problems.iter().find(|(name, _)| name == check);
    if let Some((_, why)) = bad("settings/timeout") {
        return Err(crate::Error::Settings(why.clone()));
    }
    Ok(backend::Starting::of(&settings))
}

/// What a run needs before its first trial.
pub(crate) struct Setup {
    /// What every trial shares.
    pub ctx: Context,
    /// One trial per case (a case that cannot be read still is one, and fails).
    pub cases: Vec<Spec>,
    /// Setup checks that failed: bad settings, missing or incomplete data, bad lists. They
    /// fail the run whatever the filter.
    pub guards: Vec<Spec>,
    /// What to do when another run holds the report directory.
    pub when_busy: WhenBusy,
    /// The caller's filters: a case runs when its name holds any of them (none: every case).
    pub filters: Vec<String>,
    /// Print progress and an estimate of the time left to stderr while trials run.
    pub progress: bool,
    /// Trials at once in an in-process run; `None`: the available cores.
    pub threads: Option<usize>,
    /// Keep a journal of the trials as they end: `Some(true)` resumes the one there.
    pub journal: Option<bool>,
}

impl Setup {
    /// Why the run must not start when the caller's filters select no case: a typo, never a
    /// green run of nothing.
    fn unmatched_filters(&self) -> Option<String> {
        let none = !self.filters.is_empty()
            && !self.cases.is_empty()
            && self.selected().count() == self.guards.len();
        none.then(|| {
            format!(
                "no case matches {} (a case runs when its name holds any of them; --list \
                 shows the names)",
                self.filters.join(" ")
            )
        })
    }

    /// The trials this run starts: the cases the caller's filters select, then the failed
    /// setup checks (which no filter leaves out).
    fn selected(&self) -> impl Iterator<Item = &Spec> {
        let chosen = |s: &&Spec| {
            self.filters.is_empty() || self.filters.iter().any(|f| s.name.contains(f.as_str()))
        };
        self.cases.iter().filter(chosen).chain(&self.guards)
    }
}

impl Setup {
    /// Every trial: the cases, then the failed setup checks.
    pub(crate) fn all(&self) -> impl Iterator<Item = &Spec> {
        self.cases.iter().chain(&self.guards)
    }
}

/// Runs the suite for the workspace at `workspace` with the process's arguments.
pub fn main(workspace: &Path) -> ExitCode {
    let args = Arguments::from_args();
    let run_id = std::env::var(nextest::RUN_ID_VAR).ok();
    let run_id = nextest::run_id(run_id.as_deref());
    match run(workspace, &args, &Env::from_process(), run_id) {
        true => ExitCode::SUCCESS,
        false => ExitCode::FAILURE,
    }
}

/// Runs (or lists) the trials `args` select, writes the reports, and says whether the run
/// succeeded. A failed setup check fails the run even when the filter left it out.
pub(crate) fn run(workspace: &Path, args: &Arguments, env: &Env, run_id: Option<String>) -> bool {
    run_with(&Layout::workspace(workspace), args, env, run_id, None)
}

/// The suite run on a backend of the caller's, in-process, from a runtime's own
/// `harness = false` test in any repository: the official data directory is given (fetched
/// with this repository's `cargo xtask fetch-tests`), and optionally its lock file, own cases
/// and a known-failures list. Reports go to `<root>/target/onnx-conformance/backend-<name>/`
/// (or under `CARGO_TARGET_DIR`).
pub struct Suite {
    layout: Layout,
    given: Given,
}

impl Suite {
    /// A suite inside a checkout of this repository at `workspace`, on `backend`: the
    /// checkout's data, lock file, own cases and tolerances, as `cargo test --test
    /// onnx_backend` runs them (the tasks that run several backends, and a runtime tried
    /// from a checkout).
    pub fn in_workspace(workspace: impl AsRef<Path>, backend: BackendHandle) -> Suite {
        let workspace = workspace.as_ref();
        let mut suite = Suite::new(workspace, workspace.join(crate::index::DATA_DIR), backend);
        suite.layout = Layout::workspace(workspace);
        suite
    }

    /// A suite over the official data in `data` (relative paths are taken from `root`, your
    /// crate's directory: `env!("CARGO_MANIFEST_DIR")`), run on `backend`.
    pub fn new(root: impl AsRef<Path>, data: impl AsRef<Path>, backend: BackendHandle) -> Suite {
        let root = root.as_ref().to_path_buf();
        let data = root.join(data);
        Suite {
            layout: Layout {
                root,
                data,
                lock: None,
                own_cases: None,
                tolerances: None,
            },
            given: Given::new(backend),
        }
    }

    /// The command line a failing trial's message gives to rerun it (the trial's name is
    /// appended), for a caller that is not run by `cargo test`.
    pub fn rerun_with(mut self, command: impl Into<String>) -> Suite {
        self.given.rerun = Some(command.into());
        self
    }

    /// Keeps a journal of the trials as they end in the report directory
    /// (`journal.jsonl`, removed once the reports are written); with `resume`, a journal left
    /// there by an interrupted run of the same backend, mode, data, filters and list is
    /// resumed: only the trials it lacks run, and the report holds them all.
    pub fn journal(mut self, resume: bool) -> Suite {
        self.given.journal = Some(resume);
        self
    }

    /// Every few seconds while the trials run, one line on stderr: how many ran, of how many,
    /// and an estimate of the time left from the pace so far (only when stderr is a terminal,
    /// so a CI log holds none of it).
    pub fn progress(mut self, on: bool) -> Suite {
        self.given.progress = on;
        self
    }

    /// How many trials [`Suite::run`] runs at once, each on its own worker process for a worker
    /// backend (default: the available cores). A libtest run ([`Suite::main_with`]) takes its
    /// `--test-threads` instead.
    pub fn threads(mut self, n: usize) -> Suite {
        self.given.threads = Some(n.max(1));
        self
    }

    /// Runs only the cases whose name holds any of `filters` (substrings, as libtest's one
    /// filter: `opset13/`, `FLOAT8`); the failed setup checks run whatever they say, and the
    /// report records them as filters (a partial run).
    pub fn filters(mut self, filters: impl IntoIterator<Item = String>) -> Suite {
        self.given.filters.extend(filters);
        self
    }

    /// Strict comparison (bit-exact; any NaN matches any NaN of its type).
    pub fn strict(mut self, on: bool) -> Suite {
        self.given.strict = on;
        self
    }

    /// The directory the reports (and a failing trial's dumps) go to, instead of the
    /// backend's own under the target directory.
    pub fn report_dir(mut self, dir: impl AsRef<Path>) -> Suite {
        self.given.report_dir = Some(self.layout.root.join(dir));
        self
    }

    /// The cases to run instead of the official data: a directory of the caller's, or an
    /// indexed tree as its writer listed it (the `deep` crate's `deep::source`). The
    /// environment may not ask for another source.
    pub fn source(mut self, source: Source) -> Suite {
        self.given.source = Some(source);
        self
    }

    /// The data's lock file (`onnx-backend-data.lock.json`): the index is then checked for
    /// completeness, and a failing case's files for damage.
    pub fn lock_file(mut self, path: impl AsRef<Path>) -> Suite {
        self.layout.lock = Some(self.layout.root.join(path));
        self
    }

    /// A directory of own cases, run beside the data as `own/...` trials.
    pub fn own_cases(mut self, dir: impl AsRef<Path>) -> Suite {
        self.layout.own_cases = Some(self.layout.root.join(dir));
        self
    }

    /// The runtime's known-failures list, which must exist (an empty list is written as
    /// `{"format": 2, "entries": []}`).
    pub fn known_failures(mut self, path: impl AsRef<Path>) -> Suite {
        self.given.known_failures = Some(self.layout.root.join(path));
        self
    }

    /// Runs (or lists) the trials the process's arguments select, writes the reports, and
    /// says whether the run succeeded.
    pub fn main(self) -> ExitCode {
        self.main_with(Arguments::from_args())
    }

    /// [`Suite::main`] with libtest's arguments given (a command of its own parses its
    /// command line and hands over the filter and libtest's options).
    pub fn main_with(self, args: Arguments) -> ExitCode {
        let run_id = std::env::var(nextest::RUN_ID_VAR).ok();
        let run_id = nextest::run_id(run_id.as_deref());
        let env = Env::from_process();
        match run_with(&self.layout, &args, &env, run_id, Some(self.given)) {
            true => ExitCode::SUCCESS,
            false => ExitCode::FAILURE,
        }
    }

    /// Runs every trial in this process (those of the caller's filters), without libtest, writes the
    /// reports (and a failing trial's dumps) and returns the report. A failed setup check is
    /// a failing trial of the report, as in a libtest run; `Err` only when the reports
    /// cannot be written.
    pub fn run(self) -> Result<Report, crate::Error> {
        run_in_process(&self.layout, &Env::from_process(), self.given)
    }
}

/// [`Suite::run`]: every trial on the caller's backend, on all available threads.
fn run_in_process(layout: &Layout, env: &Env, given: Given) -> Result<Report, crate::Error> {
    let started = provenance::now();
    let prep = prepare_with(layout, env, Some(given));
    if let Some(typo) = prep.unmatched_filters() {
        return Err(crate::Error::msg(typo));
    }
    let ctx = &prep.ctx;
    let _held = lock_reports(&ctx.out_dir, ctx, prep.when_busy)?;
    let specs: Vec<&Spec> = prep.selected().collect();
    let listed = prep.all().count();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = prep
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let records = Arc::new(Mutex::new(Vec::with_capacity(specs.len())));
    let progress = prep.progress.then(|| {
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        let estimate = || progress::estimate(&ctx.out_dir, &names, threads);
        progress::Progress::start(specs.len(), Arc::clone(&records), estimate)
    });
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(spec) = specs.get(i) else {
                    return;
                };
                // A trial catches its backend's panics (trials::run), so a thread ends
                // normally, and the lock is never poisoned by one.
                let record = trials::run(ctx, spec).record;
                records
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(record);
            });
        }
    });
    drop(progress);
    let mut trials = std::mem::take(&mut *records.lock().unwrap_or_else(|p| p.into_inner()));
    trials.sort_by(|a, b| a.name.cmp(&b.name));
    let mut run = provenance_of(layout, ctx, &Arguments::default(), None, started);
    run.filters.extend(prep.filters.iter().cloned());
    (run.listed, run.ran) = (listed, trials.len());
    run.judge_complete(prep.guards.is_empty());
    let report = report_of(ctx, run, trials);
    report::write_all(&report::destination(&ctx.out_dir, &report), &report)?;
    Ok(report)
}

/// As [`run`], with the backend given instead of chosen from the environment.
fn run_with(
    layout: &Layout,
    args: &Arguments,
    env: &Env,
    run_id: Option<String>,
    given: Option<Given>,
) -> bool {
    let started = provenance::now();
    let prep = prepare_with(layout, env, given);
    let listed = prep.cases.len() + prep.guards.len();
    if let Some(typo) = prep.unmatched_filters() {
        eprintln!("error: {typo}");
        return false;
    }
    // Held from before the first trial (whose dumps go there too) until the reports are
    // written. Under nextest each process appends one record, which needs no lock; listing
    // writes nothing.
    let _held = match args.list || run_id.is_some() {
        true => None,
        false => match lock_reports(&prep.ctx.out_dir, &prep.ctx, prep.when_busy) {
            Ok(held) => Some(held),
            Err(e) => {
                eprintln!("error: {e}");
                return false;
            }
        },
    };
    let records: Arc<Mutex<Vec<TrialRecord>>> = Arc::default();
    let ctx = Arc::new(prep.ctx.clone());
    let (journal, earlier) = match prep.journal.filter(|_| !args.list && run_id.is_none()) {
        Some(resume) => match open_journal(layout, &prep, resume) {
            Ok((j, earlier)) => (Some(Arc::new(j)), earlier),
            Err(e) => {
                eprintln!("error: {e}");
                return false;
            }
        },
        None => (None, Vec::new()),
    };
    // A guard always runs again; a case the journal holds does not.
    let cases: BTreeSet<&str> = prep.cases.iter().map(|c| c.name.as_str()).collect();
    let done: BTreeSet<String> = earlier
        .iter()
        .map(|r| r.name.clone())
        .filter(|n| cases.contains(n.as_str()))
        .collect();
    let trials: Vec<Trial> = prep
        .selected()
        .filter(|spec| !done.contains(&spec.name))
        .cloned()
        .map(|spec| {
            libtest_trial(
                spec,
                Arc::clone(&ctx),
                Arc::clone(&records),
                journal.clone(),
            )
        })
        .collect();
    if !done.is_empty() {
        eprintln!(
            "resuming: {} cases ran before the last run stopped; running the other {}",
            done.len(),
            trials.len()
        );
    }
    let threads = args
        .test_threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let progress = (prep.progress && !args.list).then(|| {
        let names: Vec<&str> = trials.iter().map(|t| t.name()).collect();
        let estimate = || progress::estimate(&ctx.out_dir, &names, threads);
        progress::Progress::start(trials.len(), Arc::clone(&records), estimate)
    });
    let conclusion = libtest_mimic::run(args, trials);
    drop(progress);
    if args.list {
        for g in &prep.guards {
            eprintln!("warning: setup check {} fails: {}", g.name, g.guard_text());
        }
        return !conclusion.has_failed();
    }
    let mut trials = std::mem::take(&mut *records.lock().unwrap_or_else(|p| p.into_inner()));
    trials.extend(earlier.into_iter().filter(|r| done.contains(&r.name)));
    let ran = trials.len();
    let unrun = run_filtered_guards(&ctx, &prep.guards, &mut trials);
    trials.sort_by(|a, b| a.name.cmp(&b.name));
    let mut run = provenance_of(layout, &ctx, args, run_id.as_deref(), started);
    run.filters.extend(prep.filters.iter().cloned());
    (run.listed, run.ran) = (listed, ran);
    run.judge_complete(prep.guards.is_empty());
    let report = report_of(&ctx, run, trials);
    let written = match &run_id {
        // One process per trial: each appends its record; `cargo xtask report --nextest`
        // assembles the reports, since any file written here would hold one trial only.
        Some(id) => append_for_nextest(&ctx.out_dir, id, report),
        None => write_reports(&ctx.out_dir, &report, args),
    };
    if let Err(e) = written {
        eprintln!("error: {e}");
        return false;
    }
    if let Some(j) = journal.and_then(Arc::into_inner) {
        j.finish();
    }
    if !unrun.is_empty() {
        eprintln!(
            "error: the setup is broken, so this run fails whatever the filter; \
             the filter left out these checks:"
        );
        for g in &unrun {
            eprintln!("  {}: {}", g.name, g.guard_text());
        }
        return false;
    }
    !conclusion.has_failed()
}

/// The journal of this run in its report directory, and the records of the run it resumes.
fn open_journal(
    layout: &Layout,
    prep: &Setup,
    resume: bool,
) -> Result<(journal::Journal, Vec<TrialRecord>), crate::Error> {
    let ctx = &prep.ctx;
    let info = ctx.backend.info();
    let known_failures = match &ctx.known_list {
        Some(name) => {
            let bytes = std::fs::read(layout.root.join(name)).unwrap_or_default();
            Some((name.clone(), schema::hash::sha256_hex(&bytes)))
        }
        None => None,
    };
    let header = journal::Header {
        backend: format!("{} ({} {})", info.name, info.runtime, info.version),
        strict: ctx.strict,
        data: ctx.data_root.display().to_string(),
        filters: prep.filters.clone(),
        known_failures,
    };
    journal::Journal::open(&ctx.out_dir, &header, resume)
}

/// Takes the report directory's lock for this run, saying so when it has to wait.
fn lock_reports(dir: &Path, ctx: &Context, busy: WhenBusy) -> Result<DirLock, crate::Error> {
    let purpose = format!("a conformance run on {}", ctx.backend.info().name);
    report::lock(dir, &purpose, busy, |holder| {
        eprintln!(
            "waiting for {}: another run writes its reports there ({holder}); set {}=stop to \
             stop instead",
            dir.display(),
            settings::WHEN_BUSY_VAR
        )
    })
}

/// The report of a run: its records under the context it ran in (the in-process and the
/// libtest run both end here).
fn report_of(ctx: &Context, run: RunInfo, trials: Vec<TrialRecord>) -> Report {
    Report {
        format: report::FORMAT,
        strict: ctx.strict,
        data: ctx.data_root.display().to_string(),
        run: Some(run),
        backend: ctx.backend.info(),
        known_failures: ctx.known_list.clone(),
        trials,
    }
}

/// The run's provenance, less the trial counts.
fn provenance_of(
    layout: &Layout,
    ctx: &Context,
    args: &Arguments,
    run_id: Option<&str>,
    started: String,
) -> RunInfo {
    // Under nextest, the first process of a run records the commit and the lock hash for
    // all: the others skip the git call and the hashing.
    let first = run_id.is_none_or(|id| !nextest::run_file(&ctx.out_dir, id).exists());
    RunInfo {
        started,
        commit: first
            .then(|| provenance::git_commit(&layout.root))
            .flatten(),
        data_lock_sha256: first
            .then(|| {
                let lock = ctx.source.lock_file(layout);
                lock.as_deref().and_then(provenance::lock_hash)
            })
            .flatten(),
        source: ctx.source.provenance(),
        deep_tree: ctx.source.deep_tree(),
        runner: match run_id {
            Some(_) => Runner::Nextest,
            None => Runner::Libtest,
        },
        filters: match run_id {
            Some(_) => Vec::new(),
            None => provenance::filters(args),
        },
        listed: 0,
        ran: 0,
        complete: false,
        configuration: ctx.backend.configuration(),
    }
}

/// Runs the failed setup checks that a filter kept from running, so that they still reach
/// the report; returns them.
fn run_filtered_guards<'a>(
    ctx: &Context,
    guards: &'a [Spec],
    records: &mut Vec<TrialRecord>,
) -> Vec<&'a Spec> {
    let ran: BTreeSet<String> = records.iter().map(|r| r.name.clone()).collect();
    let unrun: Vec<&Spec> = guards.iter().filter(|g| !ran.contains(&g.name)).collect();
    records.extend(unrun.iter().map(|g| trials::run(ctx, g).record));
    unrun
}

/// Writes the reports (where [`report::destination`] says) and, unless libtest prints JSON, the
/// per-opset table.
fn write_reports(out_dir: &Path, report: &Report, args: &Arguments) -> Result<(), crate::Error> {
    let dest = report::destination(out_dir, report);
    let written = report::write_all(&dest, report);
    if !matches!(args.format, Some(FormatSetting::Json)) {
        print!("{}", report::summary_table(report));
        println!(
            "reports: {}/report.{{json,md,html,junit.xml}}",
            dest.display()
        );
        if dest != out_dir {
            println!(
                "(a partial run: the complete run's reports in {} stay as they were)",
                out_dir.display()
            );
        }
    }
    written
}

/// Appends this process's trial records to the nextest run's JSONL file; the first process
/// of a run prunes old run files.
fn append_for_nextest(out_dir: &Path, run_id: &str, report: Report) -> Result<(), crate::Error> {
    let run = report.run.clone();
    let lines: Vec<nextest::Line> = report
        .trials
        .into_iter()
        .map(|trial| nextest::Line {
            strict: report.strict,
            data: report.data.clone(),
            run: run.clone(),
            known_failures: report.known_failures.clone(),
            trial,
        })
        .collect();
    nextest::append_to_run(out_dir, run_id, &lines)
}

/// Wraps one spec as a libtest trial that records its result. A known failure shows as
/// ignored (with its kind), so the libtest summary counts it neither as passed nor failed.
fn libtest_trial(
    spec: Spec,
    ctx: Arc<Context>,
    records: Arc<Mutex<Vec<TrialRecord>>>,
    journal: Option<Arc<journal::Journal>>,
) -> Trial {
    let name = spec.name.clone();
    Trial::ignorable_test(name, move || {
        let judged = trials::run(&ctx, &spec);
        let rec = judged.record;
        if let Some(j) = &journal {
            j.record(&rec);
        }
        let (outcome, message) = (rec.outcome, rec.message.clone());
        records.lock().unwrap_or_else(|p| p.into_inner()).push(rec);
        match (outcome, judged.ignored_note) {
            (Outcome::Pass, _) => Ok(Completion::Completed),
            (Outcome::KnownFailure | Outcome::DataProblem | Outcome::Predates, Some(note)) => {
                Ok(Completion::ignored_with(note))
            }
            _ => Err(message.unwrap_or_else(|| "failed".into()).into()),
        }
    })
}

/// The shared context, the case trials and the failed setup checks, from the workspace and
/// the environment `env`. Problems with the settings or the lists become failing checks,
/// never a panic.
#[cfg(test)]
pub(crate) fn prepare(workspace: &Path, env: &Env) -> Setup {
    prepare_with(&Layout::workspace(workspace), env, None)
}

/// A backend of the caller's, with its own known-failures list, and the cases it chose.
struct Given {
    backend: BackendHandle,
    known_failures: Option<PathBuf>,
    source: Option<Source>,
    /// Strict comparison, whatever the environment says.
    strict: bool,
    /// The report directory instead of the backend's own.
    report_dir: Option<PathBuf>,
    /// Run only the cases whose name holds any of these.
    filters: Vec<String>,
    /// Print progress while trials run.
    progress: bool,
    /// Trials at once in [`Suite::run`]; `None`: the available cores.
    threads: Option<usize>,
    /// Keep a journal; `Some(true)`: resume the one in the report directory.
    journal: Option<bool>,
    /// How a failing trial's message says to rerun it, when not with `cargo test`.
    rerun: Option<String>,
}

impl Given {
    /// `backend`, with nothing else chosen: the environment's source and mode, the backend's
    /// own report directory, every case, no progress, journal or rerun line of the caller's.
    fn new(backend: BackendHandle) -> Given {
        Given {
            backend,
            known_failures: None,
            source: None,
            strict: false,
            report_dir: None,
            filters: Vec::new(),
            progress: false,
            threads: None,
            journal: None,
            rerun: None,
        }
    }
}

/// As [`prepare`], with the backend given instead of chosen from the environment.
fn prepare_with(layout: &Layout, env: &Env, mut given: Option<Given>) -> Setup {
    let workspace = &layout.root;
    let (mut settings, mut problems) = settings::read(workspace, env);
    let when_busy = settings.when_busy;
    let filters = given
        .as_mut()
        .map(|g| std::mem::take(&mut g.filters))
        .unwrap_or_default();
    let progress = given.as_ref().is_some_and(|g| g.progress);
    let threads = given.as_ref().and_then(|g| g.threads);
    let journal = given.as_ref().and_then(|g| g.journal);
    let rerun = given.as_mut().and_then(|g| g.rerun.take());
    if let Some(chosen) = given.as_mut().and_then(|g| g.source.take()) {
        // The caller's choice stands; the environment asking for another is a conflict.
        if settings.source != Source::Official && settings.source != chosen {
            problems.push((
                "settings/suite".into(),
                format!(
                    "the caller runs {chosen:?}, but {} or {} asks for {:?}; unset them",
                    settings::SUITE_VAR,
                    settings::DATA_VAR,
                    settings.source
                ),
            ));
        }
        settings.source = chosen;
    }
    if let Some(g) = &mut given {
        settings.strict |= g.strict;
        if let Some(dir) = g.report_dir.take() {
            settings.report_dir = Some(dir);
        }
    }
    let mut guards: Vec<Spec> = problems
        .into_iter()
        .map(|(name, msg)| Spec {
            name,
            kind: SpecKind::Guard(msg),
        })
        .collect();
    let mut problem = |name: &str, msg: String| {
        guards.push(Spec {
            name: name.to_string(),
            kind: SpecKind::Guard(msg),
        })
    };
    // A given backend is the caller's choice, not the variable's: its rerun line names none.
    let from_variable = given.is_none().then(|| settings.backend.clone());
    let selected = match given {
        Some(g) => Selected::given(&settings.target, g.backend, g.known_failures),
        None => backend::select(workspace, &settings),
    };
    // A backend that cannot start is not replaced: its trials fail as crashes, and the run
    // fails on this check whatever the filter.
    if let Err(why) = &selected.backend {
        problem("settings/backend", why.to_string());
    }
    let (known, known_list, tolerances) =
        judged_by(layout, &selected, &settings.source, &mut problem);
    let source = &settings.source;
    let known = source.lists(known);
    let (cases, found): (Vec<Spec>, Vec<Spec>) = source
        .discover(layout)
        .into_iter()
        .partition(|s| matches!(s.kind, SpecKind::Case(_)));
    // Over every case, whatever the filter: stale entries only over the whole official data.
    let names: Vec<&str> = cases.iter().map(|s| s.name.as_str()).collect();
    let stale = source.checks_stale_entries() && found.is_empty();
    for (check, msg) in known.checks(&names, stale) {
        problem(check, msg);
    }
    guards.extend(found);
    let out_dir = match &settings.report_dir {
        Some(dir) => dir.clone(),
        None => source.report_dir(&selected.report_dir, &selected.name),
    };
    let ctx = Context {
        strict: source.strict(settings.strict),
        known,
        tolerances,
        backend: selected.handle(),
        out_dir,
        lock_file: source.lock_file(layout),
        data_root: source.data_root(layout),
        rerun: RerunEnv {
            backend: from_variable,
            source: source.clone(),
            known_failures: settings.worker_list,
            command: rerun,
            ..RerunEnv::of_this_binary()
        },
        // A source without lists names none (the deep suite).
        known_list: known_list.filter(|_| source.uses_lists()),
        source: settings.source,
    };
    Setup {
        ctx,
        cases,
        guards,
        when_busy,
        filters,
        progress,
        threads,
        journal,
    }
}

/// The known-failure lists (with the backend list's name) and the tolerances a run judges by;
/// a list or tolerance file that cannot be read is a `problem`, and the run goes on with none.
fn judged_by(
    layout: &Layout,
    selected: &Selected,
    source: &Source,
    problem: &mut dyn FnMut(&str, String),
) -> (Lists, Option<String>, Tolerances) {
    // A list that is named must exist (an empty list is written as one); a source that
    // judges by no list (a deep tree) reads none.
    let backend_list = match &selected.known_failures {
        Some(path) if source.uses_lists() => KnownFailures::load(path).unwrap_or_else(|e| {
            problem(known::LIST_CHECK, e.to_string());
            KnownFailures::default()
        }),
        _ => KnownFailures::default(),
    };
    let known_list = selected
        .known_failures
        .as_deref()
        .map(|p| list_name(&layout.root, p));
    let data_list = KnownFailures::data().unwrap_or_else(|e| {
        problem("settings/known-failures-data", e.to_string());
        KnownFailures::default()
    });
    let backend_path = known_list
        .clone()
        .unwrap_or_else(|| "no known-failures list".into());
    let known = Lists::new(data_list, backend_list, backend_path);
    let tolerances = match &layout.tolerances {
        Some(path) => Tolerances::load(path).unwrap_or_else(|e| {
            problem("settings/tolerances", e.to_string());
            Tolerances::default()
        }),
        None => Tolerances::default(),
    };
    (known, known_list, tolerances)
}

/// How messages and reports name the list at `path`: relative to the workspace when inside it.
fn list_name(workspace: &Path, path: &Path) -> String {
    path.strip_prefix(workspace)
        .unwrap_or(path)
        .display()
        .to_string()
}

mod journal;
mod progress;

#[cfg(test)]
mod tests;
