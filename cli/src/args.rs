//! The command line: one parser for every subcommand.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Run the official ONNX node tests of Cast, CastLike and Concat against a runtime.
#[derive(Debug, Parser)]
#[command(name = "onnx-conformance", version, about, long_about = None)]
pub struct Cli {
    /// Where the fetched data, the lock and the own cases live (default: $ONNX_CONFORMANCE_HOME,
    /// else the platform's cache directory: $XDG_CACHE_HOME/onnx-conformance or
    /// ~/.cache/onnx-conformance)
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// The Python for pip (fetch) and for the Python backends (default: python3 on PATH)
    #[arg(long, global = true, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// What to do
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Fetch the official node-test data of every onnx release into the home, verified
    /// against the lock compiled into this binary
    Fetch(fetch::Options),
    /// Run the suite on a backend: one line per case, a table by opset, reports under --out
    Run(RunArgs),
    /// The deep suite (every value class of every Cast pair at every version, expected values
    /// from this binary's implementation) on backends, grouped into findings by cause
    Findings(FindingsArgs),
    /// The official cases on several backends and one board of their outcomes side by side
    Scoreboard(ScoreboardArgs),
    /// What moved between two runs of one backend (two report.json files)
    Diff(DiffArgs),
    /// Write (or rewrite) a runtime's known-failures list from a whole run's report, grouped by
    /// failure kind and cause; entries you reviewed keep their reasons
    KnownFailures(KnownArgs),
    /// Your own worker process (docs/worker-protocol.md)
    #[command(subcommand)]
    Worker(WorkerCommand),
    /// Plain-text test vectors of every Cast pair (docs/vectors.md): write them, or check a
    /// converter's outputs written beside them
    #[command(subcommand)]
    Vectors(VectorsCommand),
    /// Hold this binary's fast Cast paths to its exact path over every code of every source of
    /// at most 32 bits (FLOAT, INT32 and UINT32 included: 2^32 each), at every SIMD level this
    /// CPU has, under every rule set; prints the rate beside memcpy's and fails on a mismatch
    SelfCheck(SelfCheckArgs),
    /// Print the home directory
    Home,
}

/// `self-check`'s options.
#[derive(Debug, Args)]
pub struct SelfCheckArgs {
    /// Only these source types, as ONNX spells them (repeat for each; default: every one)
    #[arg(long = "from", value_name = "TYPE")]
    pub from: Vec<String>,
    /// Only these target types (repeat for each; default: every one)
    #[arg(long = "to", value_name = "TYPE")]
    pub to: Vec<String>,
    /// Only the first N codes of each source, for a quick run (default: every code)
    #[arg(long, value_name = "N")]
    pub codes: Option<u64>,
    /// Threads the check splits its chunks over (default: the available cores)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Codes per chunk: what one thread holds at a time (with its outputs, some 30 bytes each).
    /// At 4096 every buffer stays below the allocator's mapping threshold: at 16384 a fifth to
    /// a half of the time went to page faults, at 1M nearly half
    #[arg(long, value_name = "N", default_value_t = 1 << 12)]
    pub chunk: u64,
}

/// `worker`'s subcommands.
#[derive(Debug, Subcommand)]
pub enum WorkerCommand {
    /// Write a new worker to start from: NAME_worker.py (Python, protocol 1), running onnx's
    /// reference evaluator until you put your runtime at its `# TODO: your runtime` spots,
    /// and the protocol loop it imports, worker_loop.py, beside it
    New {
        /// The worker's label: 1 to 40 of a-z, 0-9, '.', '_' and '-', no shipped backend's name
        #[arg(value_name = "NAME")]
        name: String,
        /// Where to write it (default: ./NAME_worker.py); never over an existing file
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
    },
    /// Check a worker step by step over chosen official cases: every protocol step printed,
    /// protocol breaks counted apart from wrong answers
    Check {
        /// The worker's command line, split as a POSIX shell would (no shell runs it)
        #[arg(value_name = "COMMAND")]
        command: String,
        /// Seconds the worker may take for its hello and for each answer
        #[arg(long, value_name = "S", default_value_t = 30.0)]
        timeout: f64,
    },
}

/// `run`'s options.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The runtime: native (this repository's implementation), onnxruntime, reference,
    /// openvino, iree, onnx-backend:MODULE[:CLASS] (any onnx.backend.base.Backend in --python),
    /// or worker:<label>=<command line>
    #[arg(long, default_value = "native", value_name = "B")]
    pub backend: String,
    /// Bit-exact comparison (any NaN still matches any NaN of its type)
    #[arg(long)]
    pub strict: bool,
    /// The runtime's known-failures list (a missing file is an error: write an empty list as
    /// {"format": 2, "entries": []})
    #[arg(long, value_name = "FILE")]
    pub known: Option<PathBuf>,
    /// Where the reports go
    #[arg(long, value_name = "DIR", default_value = "onnx-conformance-report")]
    pub out: PathBuf,
    /// Seconds a worker may take per data set
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub timeout: f64,
    /// The configuration to run the backend in, of those it declares (onnxruntime:
    /// optimized-1-thread, the default, unoptimized-1-thread, optimized-all-threads,
    /// unoptimized-all-threads); the run fails when the backend does not run in it
    #[arg(long, value_name = "NAME")]
    pub configuration: Option<String>,
    /// Run only the cases whose name contains any of these (end an opset with / to select
    /// exactly it: opset13/)
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
    /// How many cases run at once, each on its own worker process for a worker backend
    /// (default: the available cores)
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Resume the run that last stopped half way on this --out (same backend, mode, data,
    /// filters and list): only the cases it had not finished run
    #[arg(long)]
    pub resume: bool,
    /// Only list the cases
    #[arg(long)]
    pub list: bool,
    /// Print one character per case instead of one line
    #[arg(long, short)]
    pub quiet: bool,
}

/// `findings`' options.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct FindingsArgs {
    /// Another task than a run
    #[command(subcommand)]
    pub task: Option<FindingsTask>,
    /// A backend, as `run --backend` takes it (repeat for each; all go on one page)
    #[arg(long = "backend", value_name = "B", required = true)]
    pub backends: Vec<String>,
    /// Seconds a worker may take per data set
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub timeout: f64,
    /// Run only the deep cases whose name contains any of these (opset13/, FLOAT8E4M3FN): the
    /// findings then cover those cases alone, and the page says so
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
    /// How many cases run at once, each on its own worker process for a worker backend
    /// (default: the available cores)
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// No progress lines
    #[arg(long, short)]
    pub quiet: bool,
}

/// `findings`' tasks.
#[derive(Debug, Subcommand)]
pub enum FindingsTask {
    /// Merge the findings of the shards of one `vectors run` (each `--shard K/N`, every K
    /// once) into the whole run's, as an unsharded run writes them
    Merge {
        /// Where the merged findings.json, findings.md and timing.json go
        #[arg(
            long,
            value_name = "DIR",
            default_value = "onnx-conformance-vectors-run"
        )]
        out: PathBuf,
        /// The shards' directories (their --out)
        #[arg(value_name = "DIR", required = true)]
        shards: Vec<PathBuf>,
    },
}

/// `scoreboard`'s options.
#[derive(Debug, Args)]
pub struct ScoreboardArgs {
    /// A backend, as `run --backend` takes it (repeat for each column)
    #[arg(long = "backend", value_name = "B", required = true)]
    pub backends: Vec<String>,
    /// A backend's known-failures list, as NAME=FILE (NAME as the board names the backend)
    #[arg(long, value_name = "NAME=FILE")]
    pub known: Vec<String>,
    /// Where the board and each backend's reports go
    #[arg(
        long,
        value_name = "DIR",
        default_value = "onnx-conformance-scoreboard"
    )]
    pub out: PathBuf,
    /// Seconds a worker may take per data set
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub timeout: f64,
}

/// `known-failures`' options.
#[derive(Debug, Args)]
pub struct KnownArgs {
    /// The backend the run judged, as `run --backend` named it
    #[arg(long, value_name = "B")]
    pub backend: String,
    /// The run's report
    #[arg(
        long,
        value_name = "FILE",
        default_value = "onnx-conformance-report/report.json"
    )]
    pub report: PathBuf,
    /// The list to write (its reviewed entries are kept where they still hold)
    #[arg(long, value_name = "FILE")]
    pub known: PathBuf,
}

/// `diff`'s options.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The older report.json
    pub old: PathBuf,
    /// The newer report.json
    pub new: PathBuf,
    /// Exit non-zero when a case that passed no longer does
    #[arg(long)]
    pub fail_on_regression: bool,
    /// Compare even when the two reports are runs of different backends
    #[arg(long)]
    pub any_backend: bool,
    /// List at most this many cases; count the rest
    #[arg(long, default_value_t = 60)]
    pub max_rows: usize,
}

/// `vectors`' subcommands.
#[derive(Debug, Subcommand)]
pub enum VectorsCommand {
    /// Write one file per operator version, pair and attributes: lines `input expected
    /// authority/class`, a README of the format and SHA256SUMS
    Export(ExportArgs),
    /// Check files with an observed column (`input expected authority/class observed`, or
    /// `input expected observed`): mismatches grouped and diagnosed; exit 1 when any
    Check {
        /// The files
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
    },
    /// Feed a level's elements to a runtime, in chunks, as one-node Cast models; its outputs
    /// compared with this binary's, mismatches grouped and diagnosed into findings.{json,md}
    /// (and timing.json) under --out; exit 1 when any element differs
    Run(VectorsRunArgs),
}

/// `vectors run`'s options.
#[derive(Debug, Args)]
pub struct VectorsRunArgs {
    /// The backend, as `run --backend` takes it
    #[arg(long, value_name = "B")]
    pub backend: String,
    /// The configuration to run it in, of those it declares (default: its default)
    #[arg(long, value_name = "NAME")]
    pub configuration: Option<String>,
    /// Seconds a worker may take per chunk
    #[arg(long, value_name = "S", default_value_t = 120.0)]
    pub timeout: f64,
    /// Where findings.json, findings.md and timing.json go
    #[arg(
        long,
        value_name = "DIR",
        default_value = "onnx-conformance-vectors-run"
    )]
    pub out: PathBuf,
    /// The level, the seed, the shard and the filters, as `vectors export` takes them
    #[command(flatten)]
    pub select: SelectArgs,
}

/// `vectors export`'s options.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Where the files go
    #[arg(long, value_name = "DIR", default_value = "onnx-conformance-vectors")]
    pub out: PathBuf,
    /// The level, the seed, the shard and the filters
    #[command(flatten)]
    pub select: SelectArgs,
    /// Print the files and their candidate elements; write nothing
    #[arg(long)]
    pub count_only: bool,
}

/// Which elements: the options `vectors export` and `vectors run` share.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// 1: the deep tree's values; 2: and a seeded sample per wide-source pair; exhaustive:
    /// every code of FLOAT, INT32 and UINT32 into every narrower type (4.3 G lines a file:
    /// use --shard and the filters, and --count-only first)
    #[arg(long, value_name = "L", default_value = "1")]
    pub level: String,
    /// The seed of level 2's samples (default: drawn, and printed)
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Candidate elements per sampled file at level 2
    #[arg(long, value_name = "N", default_value_t = deep::vectors::DEFAULT_SAMPLE)]
    pub sample: u64,
    /// Write only shard K of N (a contiguous K-th of every file)
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    pub shard: String,
    /// Only this operator (Cast or CastLike)
    #[arg(long, value_name = "OP")]
    pub op: Option<String>,
    /// Only this operator version (its since-version, as 19)
    #[arg(long, value_name = "V")]
    pub version: Option<u32>,
    /// Only this source type (as FLOAT)
    #[arg(long, value_name = "TYPE")]
    pub from: Option<String>,
    /// Only this target type (as FLOAT8E4M3FN)
    #[arg(long, value_name = "TYPE")]
    pub to: Option<String>,
}
