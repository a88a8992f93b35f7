//! The command line of every task, in one clap parser. It is compiled in the light build too
//! (without `full`), so that `--help` and a mistyped flag are answered at once, before the
//! full build that most tasks rerun themselves with (main.rs).

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

pub use fetch::Options as FetchTests;

/// `cargo xtask <task> [options]`.
#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "Project tasks of onnx-conformance",
    disable_version_flag = true
)]
pub struct Cli {
    /// The task to run.
    #[command(subcommand)]
    pub task: Task,
}

/// One task and its options.
#[derive(Debug, Subcommand)]
pub enum Task {
    /// Set up the other runtimes the suite can judge, list them, write their known-failures lists
    Backends(Backends),
    /// Our kernel benchmarks beside onnxruntime, in one table
    ///
    /// Creates target/bench-venv with the pinned packages of xtask/bench-requirements.txt, runs
    /// `cargo bench --bench kernels`, then times the same single-node models in onnxruntime.
    BenchCompare(BenchCompare),
    /// Rewrite the README coverage table and docs/coverage.md
    ///
    /// Per operator version, the type pairs the implementation supports and those the official
    /// data, our own cases and the exhaustive format tests exercise: from the version table, a
    /// run of every allowed pair through ops::run, the sweep list of the format tests and the
    /// last conformance run's report.json (`cargo test --test onnx_backend`).
    Coverage(Coverage),
    /// Run the deep suite on backends and group the disagreements into findings
    ///
    /// Runs the tree of `cargo xtask deep-cases` on each backend (default onnxruntime) and
    /// writes target/onnx-conformance/deep/findings.{json,md,html} with a reproducer per class
    /// under findings/<backend>/. See docs/deep.md.
    Deep(Deep),
    /// Write the deep suite's cases (every pair at every Cast/CastLike version, boundary values)
    ///
    /// Writes target/onnx-conformance/deep/cases/<case>/ in the node-test layout and
    /// target/onnx-conformance/deep/index.json; expected outputs come from our implementation.
    /// See docs/deep.md.
    DeepCases(DeepCases),
    /// Audit the deep tree's expected values against onnx's reference evaluator
    ///
    /// Checks every element of every case of the tree against onnx.reference (numpy and
    /// ml_dtypes), in the venv of `cargo xtask backends setup reference`. Each difference must
    /// fall under a named rule of docs/semantics.md that verifies it element by element; an
    /// unexplained one fails the task. Pairs the reference cannot run are counted as having no
    /// oracle. Also counts the files onnx re-serializes to other bytes. Prints a table and
    /// writes it as JSON (default: audit.json in the tree). See docs/deep.md.
    DeepAudit(DeepAudit),
    /// clippy and the Miri subset on other targets (aarch64; s390x, big-endian)
    ///
    /// Installs the targets and Miri with rustup, runs `cargo clippy --target
    /// aarch64-unknown-linux-gnu --workspace --all-targets -- -D warnings` (needs
    /// aarch64-linux-gnu-gcc for a dependency's build script), then the Miri subset of
    /// docs/fuzzing.md under --target aarch64-unknown-linux-gnu and s390x-unknown-linux-gnu,
    /// so that the portable paths and the reader's byte order are executed. Prints each
    /// step's time.
    CrossCheck(CrossCheck),
    /// Fetch the official ONNX node-test data
    ///
    /// Fetches the backend node-test data (Cast, CastLike, Concat by default) of onnx releases
    /// 1.2.3 .. 1.22.0 through your own pip ($PYTHON, default python3), derives 1.23.2's from
    /// 1.22.0's (1.23 ships only generators), verifies all against
    /// onnx-backend-data.lock.json, and extracts it into
    /// onnx-backend-data/onnx-<release>/node/<case>/.
    FetchTests(FetchTests),
    /// Run the cargo-fuzz targets (nightly)
    ///
    /// Runs the targets of fuzz/ with their committed seeds and, when the official data is
    /// fetched, seeds made from it. Needs the nightly toolchain and cargo-fuzz. Any finding
    /// (crash, panic, timeout, memory limit) fails the task; the input that caused it is under
    /// fuzz/artifacts/TARGET. See docs/fuzzing.md.
    Fuzz(Fuzz),
    /// Rewrite our own cases under tests/cases from their generator
    OwnCases(OwnCases),
    /// Re-render report.md, .html and .junit.xml from report.json, or build them from a nextest run
    ///
    /// Re-renders report.md, report.html and report.junit.xml beside a report.json (default: the last run's,
    /// under target/onnx-conformance/). With --nextest, builds all three reports from the
    /// records that the processes of a `cargo nextest run` appended, says how many listed
    /// trials did not run, and keeps the newest run files only. With --diff, prints what moved
    /// since an older report of the same backend, as Markdown for a pull-request comment.
    Report(Report),
    /// The official suite on every set-up backend, side by side
    ///
    /// Runs the official cases (trials named onnx-*) on each backend and writes
    /// target/onnx-conformance/scoreboard.{json,md,html}; each backend's reports of these runs
    /// go to target/onnx-conformance/scoreboard/, never over its own. With --diff, runs
    /// nothing and prints what moved per backend since an older scoreboard.json, as Markdown.
    Scoreboard(Scoreboard),
}

impl Task {
    /// Whether the task needs the `full` feature (the kernels, the harness or the crates over them): every
    /// task but the fetch and the cross-check, which only runs cargo and rustup.
    pub fn needs_full(&self) -> bool {
        !matches!(self, Task::FetchTests(_) | Task::CrossCheck(_))
    }
}

/// The options of `cargo xtask backends`.
#[derive(Debug, Args)]
pub struct Backends {
    /// What to do.
    #[command(subcommand)]
    pub command: BackendsCommand,
}

/// The commands of `cargo xtask backends`.
#[derive(Debug, Subcommand)]
pub enum BackendsCommand {
    /// The shipped backends and whether each is set up
    List,
    /// Prepare backends
    ///
    /// onnxruntime, reference, openvino and iree: one venv in target/backends/venv with the pinned
    /// packages of backends/python/requirements.txt, installed by your own pip ($PYTHON,
    /// default python3).
    /// tract: builds backends/tract-worker (several minutes).
    /// rten, candle: build the conformance binary with that feature (minutes; candle installs
    /// protoc with apt-get when there is none).
    Setup {
        /// Backends to prepare (default: onnxruntime reference openvino iree; `all` adds tract, rten
        /// and candle)
        #[arg(value_name = "NAME")]
        names: Vec<String>,
    },
    /// Write a backend's known-failures list from its last run
    ///
    /// Writes tests/known-failures/NAME.json (or FILE): every failing trial that the data
    /// list (harness/known-failures/data.json) does not hold, grouped by failure kind and cause
    /// (one entry per data type all of whose trials fail alike, then one per cause), each
    /// entry expecting the part of the message its trials share. Entries keep the reason of
    /// the entries they replace; new ones say REVIEW:. Review it before committing it. The
    /// report must be of a whole run (no filter, every listed trial run): a list written
    /// from a partial run would drop the entries of the trials it did not run, unless
    /// --merge keeps them.
    KnownFailures {
        /// The backend: a shipped name, or a worker's label (or its whole
        /// worker:<label>=<command line>)
        name: String,
        /// The run's report (default: target/onnx-conformance/backend-NAME/report.json)
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Where to write the list (default: the backend's own list,
        /// tests/known-failures/NAME.json)
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Accept a partial run (a filter, trials that did not run): the old list's entries
        /// for the trials it did not run are kept (narrowed to those trials when some of
        /// theirs ran)
        #[arg(long)]
        merge: bool,
    },
    /// Build examples/external-runtime and run its in-process conformance test
    ///
    /// The example is a runtime's own crate outside the workspace (harness::runner::Suite);
    /// its toy runtime must pass every FLOAT-to-DOUBLE Cast and fail a refused case as
    /// unsupported. Compiles the harness a second time, into target/external-runtime.
    CheckExample,
    /// Read report.junit.xml files with junitparser and check them against report.json
    ///
    /// First a self-test: a report of every outcome and failure kind, written by the harness,
    /// must pass backends/python/check_junit.py, and the same file with a wrong failure type
    /// must be refused. Then each DIR (a run's report directory) is checked. Needs the
    /// backends' venv (`cargo xtask backends setup onnxruntime`); fails naming it otherwise.
    CheckJunit {
        /// Report directories to check, as target/onnx-conformance/backend-onnxruntime
        #[arg(value_name = "DIR")]
        dirs: Vec<PathBuf>,
    },
    /// Write a skeleton Python worker to start a runtime's worker from
    ///
    /// Writes backends/workers/NAME_worker.py (or PATH; an existing file is never
    /// overwritten): the protocol loop of harness/python/worker_loop.py over onnx's reference
    /// evaluator, with `# TODO: your runtime` at each spot to replace. Prints the commands that
    /// check it (check-worker) and run the suite with it. NAME is the worker's label.
    NewWorker {
        /// The worker's label: 1 to 40 of a-z, 0-9, '.', '_' and '-', no shipped backend's name
        name: String,
        /// Where to write it (default: backends/workers/NAME_worker.py)
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
    },
    /// Run a worker over a dozen chosen cases (two built in memory), printing each protocol step
    ///
    /// For someone writing a worker (docs/worker-protocol.md): start and hello, each request
    /// and answer with its time, the outputs read back and compared with the expected ones.
    /// Exits non-zero when a step breaks the protocol; wrong outputs and refusals do not.
    CheckWorker {
        /// The worker's command line, split as a POSIX shell would (no shell runs it)
        #[arg(value_name = "COMMAND")]
        command: String,
        /// The official data (default: onnx-backend-data of the workspace)
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
        /// Seconds the worker may take for its hello and for each answer
        #[arg(long, value_name = "SECS", default_value_t = 30.0)]
        timeout: f64,
    },
}

/// The options of `cargo xtask bench-compare`.
#[derive(Debug, Args)]
pub struct BenchCompare {
    /// Best of N timed runs per figure
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Cap our SIMD level (sets ONNX_CONFORMANCE_SIMD for the benchmark)
    #[arg(long, value_name = "LEVEL", default_value = "native",
          value_parser = ["native", "avx512", "avx2", "baseline"])]
    pub simd: String,
    /// Also write the rows as JSON (element rates in Gelem/s, null where onnxruntime has no
    /// kernel)
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Let the allocator return freed memory to the system, so every output is written to
    /// freshly faulted pages (the default keeps freed memory, as onnxruntime's arena does)
    #[arg(long)]
    pub fresh_pages: bool,
    /// Only cases whose name contains this text
    pub filter: Option<String>,
}

/// The options of `cargo xtask coverage`.
#[derive(Debug, Args)]
pub struct Coverage {
    /// Change nothing; fail if README.md or docs/coverage.md is out of date
    #[arg(long)]
    pub check: bool,
    /// The conformance run's report (default: the last run's, under target/onnx-conformance/)
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

/// The cargo-fuzz targets of fuzz/, in the order `cargo xtask fuzz` runs them.
pub const FUZZ_TARGETS: [&str; 5] = ["trial", "ops", "tensor", "worker", "fast_paths"];

/// The options of `cargo xtask deep`.
#[derive(Debug, Args)]
pub struct Deep {
    /// The backends, comma-separated, the flag repeatable (default: onnxruntime). A
    /// `worker:<label>=<command line>` item takes the rest of its value, commas included:
    /// `--backends onnxruntime,worker:myrt=python3 w.py --opts a,b`
    #[arg(long, value_name = "A,B,...")]
    pub backends: Vec<String>,
    /// Run nothing: write findings.md and findings.html again from findings.json
    #[arg(long, conflicts_with = "backends")]
    pub render_only: bool,
    /// When another task holds the deep tree (a deep run, deep-cases), stop naming it rather
    /// than wait for it
    #[arg(long)]
    pub no_wait: bool,
}

impl Deep {
    /// The backends asked for, in order: each `--backends` value split on its commas, except
    /// that a `worker:` item runs to the end of its value (a command line may hold commas).
    /// Empty items are dropped; no value at all means onnxruntime.
    #[cfg_attr(
        not(feature = "full"),
        allow(dead_code, reason = "only `cargo xtask deep`, a `full` task, reads it")
    )]
    pub fn backend_values(&self) -> Vec<String> {
        let mut out = split_backends(&self.backends);
        if out.is_empty() {
            out.push("onnxruntime".to_string());
        }
        out
    }
}

/// The backends of repeated `--backends` values, in order: each value split on its commas,
/// except that a `worker:` item runs to the end of its value (a command line may hold
/// commas). Empty items are dropped. `deep` and `scoreboard` read their flag with it.
#[cfg_attr(
    not(feature = "full"),
    allow(
        dead_code,
        reason = "only `deep` and `scoreboard`, `full` tasks, read it"
    )
)]
pub fn split_backends(values: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for value in values {
        let mut rest = value.as_str();
        while !rest.is_empty() {
            if rest.trim_start().starts_with("worker:") {
                out.push(rest.trim().to_string());
                break;
            }
            let (item, tail) = rest.split_once(',').unwrap_or((rest, ""));
            if !item.trim().is_empty() {
                out.push(item.trim().to_string());
            }
            rest = tail;
        }
    }
    out
}

/// The options of `cargo xtask cross-check` (none: every task takes its own options type).
#[derive(Debug, Args)]
pub struct CrossCheck {}

/// The options of `cargo xtask deep-cases`.
#[derive(Debug, Args)]
pub struct DeepCases {
    /// Write the tree here instead of target/onnx-conformance/deep
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// When another task holds the tree (a deep run, deep-cases), stop naming it rather than
    /// wait for it
    #[arg(long)]
    pub no_wait: bool,
}

/// The options of `cargo xtask deep-audit`.
#[derive(Debug, Args)]
pub struct DeepAudit {
    /// The tree to audit (default: target/onnx-conformance/deep)
    #[arg(long, value_name = "DIR")]
    pub tree: Option<PathBuf>,
    /// Write the table as JSON here (default: audit.json in the tree)
    #[arg(long, value_name = "FILE", conflicts_with = "self_test")]
    pub json: Option<PathBuf>,
    /// Python processes auditing cases in parallel
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub workers: u32,
    /// Only this case (repeatable)
    #[arg(long = "case", value_name = "NAME", conflicts_with = "self_test")]
    pub cases: Vec<String>,
    /// Check the audit itself: a few cases of the tree (written first when missing or stale)
    /// must pass untouched, and fail, naming the element, once an expected bit is flipped
    #[arg(long)]
    pub self_test: bool,
}

/// The options of `cargo xtask fuzz`.
#[derive(Debug, Args)]
pub struct Fuzz {
    /// One target (default: all four, one after another)
    #[arg(value_parser = FUZZ_TARGETS)]
    pub target: Option<String>,
    /// Fuzz each target for N seconds (default 300)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub seconds: Option<u64>,
    /// Fuzz each target for 30 seconds; for CI-like checks
    #[arg(long, conflicts_with = "seconds")]
    pub smoke: bool,
    /// Rewrite the committed seeds under fuzz/seeds from the official data instead of fuzzing
    #[arg(long)]
    pub write_seeds: bool,
}

/// The options of `cargo xtask own-cases`.
#[derive(Debug, Args)]
pub struct OwnCases {
    /// Compare tests/cases with what the generator writes; write nothing
    #[arg(long)]
    pub check: bool,
}

/// The options of `cargo xtask report`.
#[derive(Debug, Args)]
pub struct Report {
    /// The report to re-render (default: the last run's, under target/onnx-conformance/)
    #[arg(value_name = "FILE", conflicts_with = "nextest")]
    pub json: Option<PathBuf>,
    /// Build the reports from a nextest run: its id, or latest (the default)
    #[arg(long, value_name = "RUN_ID", num_args = 0..=1, default_missing_value = "latest")]
    pub nextest: Option<String>,
    /// Print, as Markdown, the trials that moved since this older report.json: newly failing,
    /// newly passing, failure kind changed, added, removed
    #[arg(long, value_name = "OLD_REPORT", conflicts_with_all = ["json", "nextest"])]
    pub diff: Option<PathBuf>,
    /// With --diff: the backend compared, whose latest report is the new side (default native)
    #[arg(long, value_name = "NAME", requires = "diff")]
    pub backend: Option<String>,
    /// With --diff: this report is the new side instead of the backend's latest
    #[arg(long, value_name = "FILE", requires = "diff")]
    pub new: Option<PathBuf>,
    /// With --diff: compare even when OLD_REPORT is a run of another backend
    #[arg(long, requires = "diff")]
    pub any_backend: bool,
    /// With --diff: exit non-zero when a trial regressed (a pass became a failure, or a
    /// refusal at load another kind of failure)
    #[arg(long, requires = "diff")]
    pub fail_on_regression: bool,
    /// With --diff: list at most N trials, and count the rest by operator version and types
    #[arg(long, value_name = "N", default_value_t = DIFF_ROWS)]
    pub max_rows: usize,
}

/// How many trials a diff lists by default (a pull-request comment holds about 65,000
/// characters; a row is under 200).
pub const DIFF_ROWS: usize = 60;

impl Scoreboard {
    /// The backends asked for, in order, read as `deep` reads its own ([`split_backends`]);
    /// empty when none is (the scoreboard then runs every set-up backend).
    #[cfg_attr(
        not(feature = "full"),
        allow(
            dead_code,
            reason = "only `cargo xtask scoreboard`, a `full` task, reads it"
        )
    )]
    pub fn backend_values(&self) -> Vec<String> {
        split_backends(&self.backends)
    }
}

/// The options of `cargo xtask scoreboard`.
#[derive(Debug, Args)]
pub struct Scoreboard {
    /// The backends, comma-separated, the flag repeatable (default: native and every shipped
    /// backend that is set up; see `cargo xtask backends list`). A
    /// `worker:<label>=<command line>` item takes the rest of its value, commas included:
    /// `--backends native,worker:myrt=python3 w.py --opts a,b`
    #[arg(long, value_name = "A,B,...", conflicts_with = "diff")]
    pub backends: Vec<String>,
    /// Run nothing; print, as Markdown, the trials that moved per backend since this older
    /// scoreboard.json
    #[arg(long, value_name = "OLD_SCOREBOARD")]
    pub diff: Option<PathBuf>,
    /// With --diff: this scoreboard is the new side instead of the last one written
    #[arg(long, value_name = "FILE", requires = "diff")]
    pub new: Option<PathBuf>,
    /// With --diff: exit non-zero when a trial regressed on any backend
    #[arg(long, requires = "diff")]
    pub fail_on_regression: bool,
    /// With --diff: list at most N trials, and count the rest by operator version and types
    #[arg(long, value_name = "N", default_value_t = DIFF_ROWS)]
    pub max_rows: usize,
}

#[cfg(test)]
mod tests;
