//! `cargo xtask fuzz [TARGET] [--seconds N] [--smoke] [--write-seeds]`: runs the cargo-fuzz
//! targets of `fuzz/` (nightly), each with its committed seeds and, when the official data is
//! fetched, seeds made from it. Any finding fails the task. See docs/fuzzing.md.

use harness::read::bundle;
use std::error::Error;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// The targets, in the order they run.
pub const TARGETS: [&str; 5] = crate::cli::FUZZ_TARGETS;

/// The targets whose committed seeds `--write-seeds` takes from the official data; the others
/// keep hand-written seeds (`worker`) or none (`ops`, `fast_paths`: structures no file maps to).
const OFFICIAL_SEEDED: [&str; 2] = ["trial", "tensor"];

/// Seconds per target for `--smoke`.
const SMOKE_SECONDS: u64 = 30;

/// Seconds per target when neither `--seconds` nor `--smoke` is given.
const DEFAULT_SECONDS: u64 = 300;

/// Committed seeds per target: enough to reach every operator and several types, small
/// enough to read in a review.
const COMMITTED_SEEDS: usize = 16;

/// Largest file taken as a committed seed.
const MAX_COMMITTED_SEED_BYTES: usize = 1000;

/// Lines of cargo's output a build failure repeats (all of it was echoed as it came).
const BUILD_OUTPUT_LINES: usize = 60;

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// The targets to run, in order.
    pub targets: Vec<&'static str>,
    /// Seconds per target.
    pub seconds: u64,
    /// Rewrite the committed seeds instead of fuzzing.
    pub write_seeds: bool,
}

impl From<&crate::cli::Fuzz> for Options {
    fn from(args: &crate::cli::Fuzz) -> Options {
        let seconds = match (args.seconds, args.smoke) {
            (Some(n), _) => n,
            (None, true) => SMOKE_SECONDS,
            (None, false) => DEFAULT_SECONDS,
        };
        let targets = match &args.target {
            Some(name) => TARGETS.iter().copied().filter(|t| t == name).collect(),
            None => TARGETS.to_vec(),
        };
        Options {
            targets,
            seconds,
            write_seeds: args.write_seeds,
        }
    }
}

/// Runs the task with the options after `fuzz`.
pub fn main(root: &Path, args: &crate::cli::Fuzz) -> Result<(), Box<dyn Error>> {
    let options = Options::from(args);
    if options.write_seeds {
        return write_committed_seeds(root);
    }
    install_tools(root);
    check_tools(&|cmd: &[&str]| probe(root, cmd))?;
    let mut findings = Vec::new();
    for target in &options.targets {
        let (stats, verdict) = run_target(root, target, options.seconds)?;
        eprintln!("fuzz {target}: {stats}");
        match verdict {
            Verdict::Clean => {}
            Verdict::BuildFailed => {
                return Err(format!(
                    "fuzz {target}: the fuzz target failed to build (cargo exited before \
                     libFuzzer started; nothing was fuzzed). The end of the compiler's \
                     output:\n{}",
                    stats.build_output_tail(BUILD_OUTPUT_LINES).join("\n")
                )
                .into())
            }
            Verdict::Finding(Some(artifact)) => findings.push(format!("{target}: see {artifact}")),
            Verdict::Finding(None) => findings.push(format!(
                "{target}: libFuzzer failed without writing a test unit; see its output above"
            )),
        }
    }
    if findings.is_empty() {
        Ok(())
    } else {
        Err(format!("findings in {}", findings.join("; ")).into())
    }
}

/// Whether `cargo <args>` runs and exits 0 in `root`.
fn probe(root: &Path, args: &[&str]) -> bool {
    Command::new("cargo")
        .args(args)
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Installs the nightly toolchain (with rustup) and cargo-fuzz (with `cargo install`) when
/// missing, as the other tasks install what they need; [`check_tools`] then says what is still
/// missing if an install failed.
fn install_tools(root: &Path) {
    let install = |what: &str, program: &str, args: &[&str]| {
        let what = format!("installing {what}: {program} {}", args.join(" "));
        let mut cmd = Command::new(program);
        if let Err(e) = crate::workspace::step("fuzz: ", &what, cmd.args(args).current_dir(root)) {
            eprintln!("fuzz: {e}");
        }
    };
    if !probe(root, &["+nightly", "--version"]) {
        let args = ["toolchain", "install", "nightly", "--profile", "minimal"];
        install("the nightly toolchain", "rustup", &args);
    }
    if !probe(root, &["+nightly", "fuzz", "--version"]) {
        install(
            "cargo-fuzz",
            "cargo",
            &["install", "--locked", "cargo-fuzz"],
        );
    }
}

/// Fails, saying how to install it, if the nightly toolchain or cargo-fuzz is missing.
/// `runs(args)` says whether `cargo <args>` succeeds.
pub fn check_tools(runs: &dyn Fn(&[&str]) -> bool) -> Result<(), String> {
    if !runs(&["+nightly", "--version"]) {
        return Err(
            "the nightly toolchain is missing; fuzzing needs it. Install it with \
                    `rustup toolchain install nightly`"
                .into(),
        );
    }
    if !runs(&["+nightly", "fuzz", "--version"]) {
        return Err(
            "cargo-fuzz is missing. Install it with `cargo install --locked cargo-fuzz`".into(),
        );
    }
    Ok(())
}

/// libFuzzer's leak check for `target`: off for `fast_paths`, whose scoped threads leave
/// std's per-thread handle and TLS destructor record (80 bytes, `Thread::new` and
/// `__cxa_thread_atexit_impl`) for LeakSanitizer to find after the join; every other target
/// keeps it.
fn leak_flag(target: &str) -> Option<&'static str> {
    (target == "fast_paths").then_some("-detect_leaks=0")
}

/// How one `cargo fuzz run` ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It exited 0: libFuzzer ran its time without a finding.
    Clean,
    /// It failed before libFuzzer started: the target did not build (or cargo could not run).
    /// Nothing was fuzzed, and there is no artifact.
    BuildFailed,
    /// libFuzzer started and failed: a finding, with the test unit it wrote, if it said so.
    Finding(Option<String>),
}

impl Verdict {
    /// The verdict of a run that exited with `success`, given what its output said.
    pub fn of(success: bool, stats: &Stats) -> Verdict {
        if success {
            Verdict::Clean
        } else if !stats.started {
            Verdict::BuildFailed
        } else {
            Verdict::Finding(stats.artifact.clone())
        }
    }
}

/// What the output of one `cargo fuzz run` said: cargo's build, then libFuzzer's run.
#[derive(Debug, Default)]
pub struct Stats {
    /// No finding, and libFuzzer exited normally.
    pub clean: bool,
    /// libFuzzer started (its `INFO: Seed:` or `INFO: Running with` line): the target built.
    pub started: bool,
    /// The lines before libFuzzer started: cargo's build output, compiler errors included.
    pub before_start: Vec<String>,
    /// The test unit libFuzzer wrote (`Test unit written to <path>`).
    pub artifact: Option<String>,
    /// `stat::number_of_executed_units`.
    pub execs: Option<u64>,
    /// The last `cov:` figure (coverage points reached).
    pub cov: Option<u64>,
    /// The last `ft:` figure (features).
    pub features: Option<u64>,
    /// Corpus entries at the end.
    pub corpus: Option<u64>,
    /// Seconds libFuzzer says it fuzzed.
    pub seconds: Option<u64>,
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = |v: Option<u64>| v.map_or_else(|| "?".to_string(), |v| v.to_string());
        write!(
            f,
            "{} in {} s: {} execs, cov {}, ft {}, corpus {}",
            match (self.clean, self.started) {
                (true, _) => "clean",
                (false, true) => "FINDING",
                (false, false) => "BUILD FAILED",
            },
            n(self.seconds),
            n(self.execs),
            n(self.cov),
            n(self.features),
            n(self.corpus)
        )
    }
}

impl Stats {
    /// The last `n` lines before libFuzzer started, where a build failure's errors are.
    pub fn build_output_tail(&self, n: usize) -> &[String] {
        &self.before_start[self.before_start.len().saturating_sub(n)..]
    }

    /// Takes what a line of the output tells.
    pub fn read_line(&mut self, line: &str) {
        if line.starts_with("INFO: Seed:") || line.starts_with("INFO: Running with") {
            self.started = true;
        }
        if !self.started {
            self.before_start.push(line.to_string());
        }
        if let Some((_, path)) = line.split_once("Test unit written to ") {
            self.artifact = Some(path.trim().to_string());
        }
        if let Some(v) = line.strip_prefix("stat::number_of_executed_units:") {
            self.execs = v.trim().parse().ok();
        }
        // "Done 178200 runs in 61 second(s)": the fuzzing time, without the build.
        if let Some(rest) = line.strip_prefix("Done ") {
            if let Some(s) = rest.split(" in ").nth(1) {
                self.seconds = s.split_whitespace().next().and_then(|n| n.parse().ok());
            }
        }
        let mut words = line.split_whitespace();
        while let Some(w) = words.next() {
            let slot = match w {
                "cov:" => &mut self.cov,
                "ft:" => &mut self.features,
                "corp:" => &mut self.corpus,
                _ => continue,
            };
            if let Some(v) = words.next().and_then(|v| v.split('/').next()?.parse().ok()) {
                *slot = Some(v);
            }
        }
    }
}

/// Fuzzes `target` for `seconds`, echoing cargo's and libFuzzer's output and collecting its
/// figures; how the run ended.
fn run_target(root: &Path, target: &str, seconds: u64) -> Result<(Stats, Verdict), Box<dyn Error>> {
    let fuzz = root.join("fuzz");
    let corpus = fuzz.join("corpus").join(target);
    std::fs::create_dir_all(&corpus)?;
    if std::fs::read_dir(&corpus)?.next().is_none() {
        let n = write_official_seeds(root, target, &corpus, usize::MAX, usize::MAX)?;
        eprintln!("fuzz {target}: seeded {n} inputs from the official data");
    }
    let seeds = fuzz.join("seeds").join(target);
    std::fs::create_dir_all(&seeds)?;
    let mut child = Command::new("cargo")
        .args(["+nightly", "fuzz", "run", "--debug-assertions", target])
        .arg(&corpus)
        .arg(&seeds)
        .args([
            "--",
            &format!("-max_total_time={seconds}"),
            "-timeout=10",
            "-rss_limit_mb=2048",
            "-print_final_stats=1",
        ])
        .args(leak_flag(target))
        .current_dir(root)
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stats = Stats::default();
    if let Some(err) = child.stderr.take() {
        for line in BufReader::new(err).lines() {
            let line = line?;
            eprintln!("{line}");
            stats.read_line(&line);
        }
    }
    stats.clean = child.wait()?.success();
    let verdict = Verdict::of(stats.clean, &stats);
    Ok((stats, verdict))
}

/// Writes seeds for `target` made from the official data into `dir`, each named by its hash:
/// at most `limit` of them, none larger than `max_bytes`, spread evenly over the releases and
/// cases. Returns how many it wrote.
fn write_official_seeds(
    root: &Path,
    target: &str,
    dir: &Path,
    limit: usize,
    max_bytes: usize,
) -> Result<usize, Box<dyn Error>> {
    let cases = walkdir::WalkDir::new(root.join("onnx-backend-data"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == schema::layout::MODEL)
        .filter_map(|e| Some(e.path().parent()?.to_path_buf()));
    let mut seeds = std::collections::BTreeMap::new();
    for case in cases {
        let case_name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for seed in seeds_of(target, &case)? {
            if seed.len() <= max_bytes {
                // The first 8 bytes of its sha256: a stable name, unique in practice.
                let name = schema::hash::sha256_hex(&seed)[..16].to_string();
                let order = (case_name.clone(), seeds.len());
                seeds.entry(name).or_insert((order, seed));
            }
        }
    }
    // By case name, so that every k-th takes from each operator and type pair alike.
    let mut found: Vec<((String, usize), String, Vec<u8>)> = seeds
        .into_iter()
        .map(|(name, (key, seed))| (key, name, seed))
        .collect();
    found.sort();
    let step = found.len().div_ceil(limit.max(1)).max(1);
    let mut written = 0;
    for (_, name, seed) in found.into_iter().step_by(step).take(limit) {
        std::fs::write(dir.join(name), seed)?;
        written += 1;
    }
    Ok(written)
}

/// The seeds one official case gives `target`: the whole case for `trial`, each tensor file
/// (with a header byte leaving the type to the file) for `tensor`, none for `ops`, whose
/// input is a structure no file maps to.
fn seeds_of(target: &str, case: &Path) -> Result<Vec<Vec<u8>>, Box<dyn Error>> {
    let files = bundle::read_case(case)?;
    Ok(match target {
        "trial" => bundle::join(&files).into_iter().collect(),
        "tensor" => files
            .inputs
            .iter()
            .chain(&files.outputs)
            .map(|f| [&[0u8][..], f].concat())
            .collect(),
        _ => Vec::new(),
    })
}

/// Rewrites `fuzz/seeds/<target>` with a few small seeds from the official data.
fn write_committed_seeds(root: &Path) -> Result<(), Box<dyn Error>> {
    for target in OFFICIAL_SEEDED {
        let dir = root.join("fuzz/seeds").join(target);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        let n = write_official_seeds(
            root,
            target,
            &dir,
            COMMITTED_SEEDS,
            MAX_COMMITTED_SEED_BYTES,
        )?;
        eprintln!("wrote {n} seeds under {}", dir.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
