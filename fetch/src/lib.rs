//! Fetching the official ONNX node-test data of every release: obtained through the user's
//! pip, verified against the committed lock, extracted atomically. [`main`] is the whole
//! command (for `cargo xtask fetch-tests` and `onnx-conformance fetch`); [`run`] the fetch on
//! given paths.

mod args;
mod derive;
mod error;
mod extract;
mod generate;
mod index_file;
mod install;
mod lock;
mod pip;
mod present;
mod release;
mod releases;
#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests;

pub use args::{check as check_options, Options};
pub use error::{Error, Result};

use present::{Expect, Stats};
use release::{Ctx, Source};
use schema::files::{DirLock, WhenBusy};
use schema::index::{release_cmp, Generated, Lock, LockedRelease, DATA_DIR, LOCK_FILE};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The command: checks the options, runs on `paths`, prints the error if any.
pub fn main(opts: &Options, paths: &Paths) -> ExitCode {
    if let Err(e) = check_options(opts) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    match run(opts, paths) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The files a run reads and writes.
#[derive(Debug, Clone)]
pub struct Paths {
    /// The data directory (`onnx-backend-data`).
    pub data: PathBuf,
    /// The lock file.
    pub lock: PathBuf,
    /// The Python interpreter that runs pip.
    pub python: String,
}

impl Paths {
    /// The data directory and lock file of the workspace at `root`, fetched with `python`.
    pub fn workspace(root: &Path, python: String) -> Paths {
        Paths {
            data: root.join(DATA_DIR),
            lock: root.join(LOCK_FILE),
            python,
        }
    }

    pub(crate) fn cache(&self) -> PathBuf {
        self.data.join(".cache")
    }
}

/// Runs the task with `opts` on `paths`.
pub fn run(opts: &Options, paths: &Paths) -> Result<()> {
    run_waiting(opts, paths, |holder| {
        eprintln!(
            "waiting for {} (in use by {holder}); --no-wait stops instead",
            paths.data.display()
        );
    })
}

/// [`run`], telling `on_wait` who holds the data directory when it waits for it.
fn run_waiting(opts: &Options, paths: &Paths, on_wait: impl FnOnce(&str)) -> Result<()> {
    if paths.data.exists() && !paths.data.is_dir() {
        return Err(Error::new(format!(
            "{}: not a directory, but the fetch keeps its data there",
            paths.data.display()
        ))
        .hint("move that file away, then run the fetch again"));
    }
    // One fetch at a time per data directory: two would replace each other's trees, write
    // the index from a half-fetched state, and take each other's temporary directories for
    // leftovers. Held until the end of the run.
    let busy = match opts.no_wait {
        true => WhenBusy::Stop,
        false => WhenBusy::Wait,
    };
    let _lock = DirLock::acquire(&paths.data, "cargo xtask fetch-tests", busy, on_wait)?;
    let start = Instant::now();
    for msg in install::clean_leftovers(&paths.data)? {
        eprintln!("{msg}");
    }
    if !opts.generate.is_empty() {
        return generate_all(opts, paths, start);
    }
    let selected = releases::selected(opts)?;
    let lock = lock_for_run(opts, paths, &selected)?;
    if opts.update_lock || opts.from.is_some() {
        if let Some(g) = selected
            .iter()
            .find(|r| entry(&lock, r).is_some_and(|e| e.generated.is_some()))
        {
            return Err(Error::new(format!(
                "onnx {g} has no data files in a wheel: the lock records what onnx's generators \
                 write, and the default fetch derives it"
            ))
            .hint(format!(
                "record it again with `cargo xtask fetch-tests --generate {g} --update-lock`"
            )));
        }
    }
    let derived = derived_releases(opts, &lock, &selected);
    let releases: Vec<String> = selected
        .into_iter()
        .filter(|r| !derived.contains(r))
        .collect();
    let count = releases.len() + derived.len();
    let ops = with_extra_ops(&lock.ops, &opts.extra_ops);
    if ops.len() > lock.ops.len() && !opts.update_lock {
        eprintln!(
            "note: --ops extracts {} beside the lock's {}: those files are not covered by the lock",
            ops[lock.ops.len()..].join(","),
            lock.ops.join(",")
        );
    }
    let (plan, missing) = plan(opts, paths, &lock, &ops, &releases)?;
    let mut totals = Totals::default();
    if !missing.is_empty() {
        download_missing(paths, &missing)?;
        totals.downloaded = missing.len();
    }
    let ctx = Ctx {
        data: &paths.data,
        ops: &ops,
        locked_ops: &lock.ops,
        update_lock: opts.update_lock,
    };
    let mut new_lock = lock.clone();
    for (i, (release, step)) in releases.iter().zip(plan).enumerate() {
        let tag = format!("[{}/{count}] onnx {release}", i + 1);
        let stats = match step {
            Step::Present(verified) => present(paths, release, &tag, verified, opts.verify)?,
            Step::Fetch(why) => {
                eprintln!("{tag}: {why}");
                let source = obtain(opts, paths, release, entry(&lock, release), &mut totals)?;
                let fetched = release::fetch(&ctx, release, entry(&lock, release), &source)?;
                totals.extracted += 1;
                lock::upsert(&mut new_lock, fetched.locked);
                fetched.stats
            }
        };
        totals.add(stats);
    }
    for (i, release) in derived.iter().enumerate() {
        let tag = format!("[{}/{count}] onnx {release}", releases.len() + i + 1);
        let (stats, derived_now) = derive_one(opts, paths, &lock, release, &tag)?;
        totals.extracted += usize::from(derived_now);
        totals.add(stats);
    }
    if opts.update_lock {
        save_lock(paths, &ops, new_lock, &releases)?;
    }
    let index = index_file::build(&paths.data)?;
    index_file::write(&paths.data, &index)?;
    eprintln!("{}", totals.summary(count, index.instances.len(), start));
    Ok(())
}

/// The lock's generated releases this run derives: those `--release` names, or all of them
/// when it names none; none with `--from` or `--update-lock`, which are about wheels.
fn derived_releases(opts: &Options, lock: &Lock, selected: &[String]) -> Vec<String> {
    if opts.from.is_some() || opts.update_lock {
        return Vec::new();
    }
    lock.releases
        .iter()
        .filter(|r| r.generated.is_some())
        .filter(|r| opts.releases.is_empty() || selected.contains(&r.release))
        .map(|r| r.release.clone())
        .collect()
}

/// Checks or derives one generated release from its `derived_from` release's installed files.
fn derive_one(
    opts: &Options,
    paths: &Paths,
    lock: &Lock,
    release: &str,
    tag: &str,
) -> Result<(Stats, bool)> {
    let Some(e) = entry(lock, release) else {
        return Err(Error::new(format!("not in the lock file: onnx {release}")));
    };
    let Some(generated) = &e.generated else {
        return Err(Error::new(format!(
            "onnx {release} is not a generated release"
        )));
    };
    let want = |entry| Expect {
        entry: Some(entry),
        locked_ops: &lock.ops,
        ops: &lock.ops,
        rehash: opts.verify,
    };
    match present::check(&paths.data, release, &want(e)) {
        Ok(verified) => {
            let stats = present(paths, release, tag, verified, opts.verify)?;
            return Ok((stats, false));
        }
        Err(why) => eprintln!("{tag}: {why}"),
    }
    let from = &generated.derived_from;
    let base = entry(lock, from)
        .filter(|b| b.generated.is_none())
        .ok_or_else(|| {
            Error::new(format!(
                "onnx {release} is derived from onnx {from}, which the lock has no wheel for"
            ))
        })?;
    present::check(&paths.data, from, &want(base)).map_err(|why| {
        Error::new(format!(
            "onnx {release} is derived from onnx {from}'s files, but onnx {from}: {why}"
        ))
        .hint(format!(
            "fetch it too: `cargo xtask fetch-tests --release {from} --release {release}`"
        ))
    })?;
    let stats = derive::derive(&paths.data, &lock.ops, e, generated, base)?;
    eprintln!(
        "  onnx {release}: derived {} from onnx {from} ({} re-stamped: ir_version {}, opset {}); \
         every file matches the lock",
        plural(stats.cases, "case"),
        plural(restamped(e, base), "model"),
        generated.ir_version,
        generated.opset
    );
    Ok((stats, true))
}

/// Says that `release` is present and verified, and when its lock entry changed since its
/// stamp (and its files were re-hashed against the new entry), records the new entry's hash in
/// the stamp, so that the next run is the cheap check again.
fn present(
    paths: &Paths,
    release: &str,
    tag: &str,
    verified: present::Verified,
    rehashed: bool,
) -> Result<Stats> {
    let how = match (&verified.restamp, rehashed) {
        (Some(_), _) => ", its lock entry changed: files re-hashed",
        (None, true) => ", files re-hashed",
        (None, false) => "",
    };
    if let Some(stamp) = &verified.restamp {
        install::write_stamp(&install::release_dir(&paths.data, release), stamp)?;
    }
    eprintln!(
        "{tag}: present and verified ({}{how})",
        plural(verified.stats.cases, "case")
    );
    Ok(verified.stats)
}

/// How many of `entry`'s files differ from `base`'s (the re-stamped models).
fn restamped(entry: &LockedRelease, base: &LockedRelease) -> usize {
    entry
        .files
        .iter()
        .filter(|(p, h)| base.files.get(*p) != Some(*h))
        .count()
}

/// `--generate`: exports each release's cases, then re-indexes.
fn generate_all(opts: &Options, paths: &Paths, start: Instant) -> Result<()> {
    let ops = with_extra_ops(&releases::default_ops(), &opts.extra_ops);
    let mut lock = lock::load(&paths.lock)?;
    if opts.update_lock && lock.is_none() {
        return Err(Error::new(format!(
            "--generate --update-lock records beside the wheel releases, but there is no lock \
             file at {}",
            paths.lock.display()
        )));
    }
    let mut totals = Totals::default();
    for (i, release) in opts.generate.iter().enumerate() {
        eprintln!(
            "[{}/{}] onnx {release}: generating",
            i + 1,
            opts.generate.len()
        );
        let exported = generate::generate(paths, release, &ops)?;
        totals.add(exported.stats);
        totals.extracted += 1;
        let Some(lock) = lock.as_mut() else {
            continue;
        };
        let hashes: BTreeMap<String, String> = exported
            .hashes
            .iter()
            .filter(|(p, _)| extract::covered_by(p, &lock.ops))
            .map(|(p, h)| (p.clone(), h.clone()))
            .collect();
        if opts.update_lock {
            let recorded = record_generated(paths, lock, release, hashes, exported.packages)?;
            lock::upsert(lock, recorded);
        } else if let Some(e) = entry(lock, release) {
            lock::check_files(e, &hashes).map_err(|err| {
                err.hint(
                    "onnx's generators no longer write what the lock records (or the default \
                     fetch derives); review the difference, then re-record with --update-lock",
                )
            })?;
            eprintln!(
                "  onnx {release}: the generated files equal the lock's ({})",
                match &e.generated {
                    Some(_) => "which the default fetch derives",
                    None => "the wheel's files",
                }
            );
            if let Some(g) = &e.generated {
                if g.packages != exported.packages {
                    eprintln!(
                        "  note: generated with {}, the lock recorded {}",
                        describe_packages(&exported.packages),
                        describe_packages(&g.packages)
                    );
                }
            }
        } else {
            eprintln!("  onnx {release}: not in the lock; --update-lock records it");
        }
    }
    if let (Some(lock), true) = (&lock, opts.update_lock) {
        lock::save(&paths.lock, lock)?;
        eprintln!("wrote {}; review and commit it", paths.lock.display());
    }
    let index = index_file::build(&paths.data)?;
    index_file::write(&paths.data, &index)?;
    eprintln!(
        "{}",
        totals.summary(opts.generate.len(), index.instances.len(), start)
    );
    Ok(())
}

/// The lock entry of a generated release: its files, the packages that generated them, and
/// how the default fetch derives them from the newest wheel release before it. Refused when
/// the derivation would not give exactly these files.
fn record_generated(
    paths: &Paths,
    lock: &Lock,
    release: &str,
    files: BTreeMap<String, String>,
    packages: BTreeMap<String, String>,
) -> Result<LockedRelease> {
    let base = lock
        .releases
        .iter()
        .filter(|r| r.generated.is_none() && release_cmp(&r.release, release).is_lt())
        .max_by(|a, b| release_cmp(&a.release, &b.release))
        .ok_or_else(|| Error::new(format!("the lock has no wheel release before {release}")))?;
    let dir = install::release_dir(
        &paths.data,
        &format!("{release}{}", schema::index::GENERATED_SUFFIX),
    );
    let mut stamps = std::collections::BTreeSet::new();
    for (path, hash) in &files {
        if base.files.get(path) == Some(hash) {
            continue;
        }
        if !path.ends_with("/model.onnx") || !base.files.contains_key(path) {
            return Err(Error::new(format!(
                "onnx {release}: {path} cannot be derived from onnx {}: only models that \
                 differ are re-stamped",
                base.release
            )));
        }
        let (_, opset) = index_file::describe(&dir.join(path))?;
        let bytes = std::fs::read(dir.join(path)).map_err(|e| Error::io("read", &dir, e))?;
        let ir = <schema::proto::ModelProto as prost::Message>::decode(bytes.as_slice())
            .map_err(|e| Error::new(format!("{path}: not a valid ModelProto: {e}")))?
            .ir_version;
        stamps.insert((ir, opset));
    }
    let (ir_version, opset) = match stamps.len() {
        0 | 1 => stamps.into_iter().next().unwrap_or((0, 0)),
        _ => {
            return Err(Error::new(format!(
                "onnx {release}: the models that differ from onnx {} carry several \
                 (ir_version, opset) pairs: {stamps:?}; one re-stamp cannot derive them",
                base.release
            )))
        }
    };
    let entry = LockedRelease {
        release: release.to_string(),
        wheel: String::new(),
        sha256: String::new(),
        files,
        generated: Some(Generated {
            packages,
            derived_from: base.release.clone(),
            ir_version,
            opset,
        }),
    };
    // Derive it now, beside the generated tree, and compare.
    let probe = tempdir_in(&paths.data, release)?;
    let result = (|| {
        let base_dir = install::release_dir(&paths.data, &base.release);
        let target = install::release_dir(&probe, &base.release);
        copy_tree(&base_dir, &target)?;
        derive::derive(
            &probe,
            &lock.ops,
            &entry,
            entry.generated.as_ref().expect("set"),
            base,
        )
    })();
    let _ = std::fs::remove_dir_all(&probe);
    result.map_err(|e| e.hint("the generated files cannot be derived; not recorded"))?;
    eprintln!(
        "  onnx {release}: recorded {} (derived from onnx {}: {} re-stamped to ir_version \
         {ir_version}, opset {opset}, checked)",
        plural(entry.cases().len(), "case"),
        base.release,
        plural(restamped(&entry, base), "model")
    );
    Ok(entry)
}

/// A scratch directory inside the data directory (removed by the caller).
fn tempdir_in(data: &Path, release: &str) -> Result<PathBuf> {
    // Named like a partial extraction, so that the next run removes it after a kill.
    let dir = data.join(format!(".tmp-onnx-probe-{release}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("create directory", &dir, e))?;
    Ok(dir)
}

/// Copies the files of `from/node` to `to/node`.
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for rel in extract::list_files(from)?.keys() {
        let dest = to.join(rel);
        if let Some(d) = dest.parent() {
            std::fs::create_dir_all(d).map_err(|e| Error::io("create directory", d, e))?;
        }
        std::fs::copy(from.join(rel), &dest).map_err(|e| Error::io("copy", &dest, e))?;
    }
    Ok(())
}

fn describe_packages(p: &BTreeMap<String, String>) -> String {
    p.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The lock this run checks against (or starts from, with `--update-lock`); without
/// `--update-lock` every selected release must be in it.
fn lock_for_run(opts: &Options, paths: &Paths, releases: &[String]) -> Result<Lock> {
    let lock = match (lock::load(&paths.lock)?, opts.update_lock) {
        (Some(l), _) => l,
        (None, true) => Lock {
            format: 1,
            ops: releases::default_ops(),
            releases: Vec::new(),
        },
        (None, false) => {
            return Err(
                Error::new(format!("no lock file at {}", paths.lock.display()))
                    .hint("restore it from git, or create one with --update-lock and review it"),
            )
        }
    };
    let unlocked: Vec<&str> = releases
        .iter()
        .filter(|r| entry(&lock, r).is_none())
        .map(String::as_str)
        .collect();
    if !opts.update_lock && !unlocked.is_empty() {
        return Err(Error::new(format!(
            "not in the lock file: onnx {}",
            unlocked.join(", ")
        ))
        .hint("add them with --update-lock, then review and commit the lock"));
    }
    Ok(lock)
}

/// The lock's case prefixes followed by those of `--ops` that they do not already name.
fn with_extra_ops(locked: &[String], extra: &[String]) -> Vec<String> {
    let mut ops = locked.to_vec();
    for p in extra {
        if !ops.contains(p) {
            ops.push(p.clone());
        }
    }
    ops
}

fn entry<'a>(lock: &'a Lock, release: &str) -> Option<&'a LockedRelease> {
    lock.releases.iter().find(|r| r.release == release)
}

/// What to do for one release.
enum Step {
    /// Installed and verified: nothing to do (but perhaps a new stamp to write).
    Present(present::Verified),
    /// Needs fetching, and why.
    Fetch(String),
}

/// Decides per release, and names the releases whose wheel must be downloaded; in offline
/// mode fails early listing every missing wheel.
fn plan(
    opts: &Options,
    paths: &Paths,
    lock: &Lock,
    ops: &[String],
    releases: &[String],
) -> Result<(Vec<Step>, Vec<String>)> {
    let steps: Vec<Step> = releases
        .iter()
        .map(|r| {
            if opts.update_lock || opts.from.is_some() {
                return Step::Fetch(
                    if opts.update_lock {
                        "recording"
                    } else {
                        "from --from"
                    }
                    .into(),
                );
            }
            let want = Expect {
                entry: entry(lock, r),
                locked_ops: &lock.ops,
                ops,
                rehash: opts.verify,
            };
            match present::check(&paths.data, r, &want) {
                Ok(verified) => Step::Present(verified),
                Err(why) => Step::Fetch(why.to_string()),
            }
        })
        .collect();
    let need_wheel = |r: &String| {
        opts.from.is_none()
            && pip::cached(&paths.cache(), r, entry(lock, r).map(|e| e.wheel.as_str())).is_none()
    };
    let missing: Vec<&str> = releases
        .iter()
        .zip(&steps)
        .filter(|(r, s)| matches!(s, Step::Fetch(_)) && need_wheel(r))
        .map(|(r, _)| r.as_str())
        .collect();
    if opts.offline && !missing.is_empty() {
        return Err(Error::new(format!(
            "--offline, but {} has no wheel for onnx {}",
            paths.cache().display(),
            missing.join(", ")
        ))
        .hint("run once without --offline to download them, or use --from <wheel> per release"));
    }
    if !missing.is_empty() {
        eprintln!("using {}", pip::check(&paths.python)?);
    }
    let missing = missing.into_iter().map(str::to_owned).collect();
    Ok((steps, missing))
}

/// Downloads every missing wheel before the releases are extracted one by one, several at
/// once: one after another they took 20-37 s of a newcomer's first fetch, most of it waiting.
/// A failed download is reported here, naming its release, after the others have finished.
fn download_missing(paths: &Paths, missing: &[String]) -> Result<()> {
    let cache = paths.cache();
    std::fs::create_dir_all(&cache).map_err(|e| Error::io("create directory", &cache, e))?;
    eprintln!(
        "downloading {} through pip, up to {} at once",
        plural(missing.len(), "wheel"),
        pip::PARALLEL_DOWNLOADS
    );
    let t = Instant::now();
    let names: Vec<&str> = missing.iter().map(String::as_str).collect();
    let results = pip::download_all(&paths.python, &names, &cache, &|release, r| {
        if let Ok(w) = r {
            eprintln!("  onnx {release}: downloaded {}", describe_file(w));
        }
    });
    let mut failed = results.into_iter().filter_map(Result::err);
    if let Some(first) = failed.next() {
        let more = failed.count();
        if more > 0 {
            return Err(Error {
                message: format!(
                    "{} (and {} more)",
                    first.message,
                    plural(more, "failed download")
                ),
                hint: first.hint,
            });
        }
        return Err(first);
    }
    eprintln!(
        "downloaded {} in {:.1} s",
        plural(missing.len(), "wheel"),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The wheel (or checkout) for `release`: `--from`, the cache, or a pip download.
fn obtain(
    opts: &Options,
    paths: &Paths,
    release: &str,
    entry: Option<&LockedRelease>,
    totals: &mut Totals,
) -> Result<Source> {
    if let Some(from) = &opts.from {
        return Ok(if from.is_dir() {
            Source::Checkout(from.clone())
        } else {
            Source::Wheel(from.clone())
        });
    }
    let cache = paths.cache();
    if let Some(w) = pip::cached(&cache, release, entry.map(|e| e.wheel.as_str())) {
        eprintln!("  onnx {release}: cached {}", describe_file(&w));
        return Ok(Source::Wheel(w));
    }
    std::fs::create_dir_all(&cache).map_err(|e| Error::io("create directory", &cache, e))?;
    let t = Instant::now();
    let w = pip::download(&paths.python, release, &cache)?;
    totals.downloaded += 1;
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "  onnx {release}: downloaded {} in {secs:.1} s",
        describe_file(&w)
    );
    Ok(Source::Wheel(w))
}

fn describe_file(p: &Path) -> String {
    let size = std::fs::metadata(p).map_or(0, |m| m.len());
    let name = p
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    format!("{name} ({})", human_bytes(size))
}

/// Writes the lock after `--update-lock`; entries made with fewer ops are dropped.
fn save_lock(paths: &Paths, ops: &[String], mut lock: Lock, fetched: &[String]) -> Result<()> {
    if lock.ops != ops {
        lock.releases.retain(|r| fetched.contains(&r.release));
        lock.ops = ops.to_vec();
    }
    lock::save(&paths.lock, &lock)?;
    eprintln!(
        "wrote {} ({}); review and commit it",
        paths.lock.display(),
        plural(lock.releases.len(), "release")
    );
    Ok(())
}

/// Running totals for the summary.
#[derive(Default)]
struct Totals {
    cases: usize,
    files: usize,
    bytes: u64,
    downloaded: usize,
    extracted: usize,
}

impl Totals {
    fn add(&mut self, s: Stats) {
        self.cases += s.cases;
        self.files += s.files;
        self.bytes += s.bytes;
    }

    /// The closing line of a run.
    fn summary(&self, releases: usize, indexed: usize, start: Instant) -> String {
        format!(
            "fetch-tests: {}, {}, {}, {} ({} downloaded, {} extracted); index.json lists {}; \
             {:.2} s",
            plural(releases, "release"),
            plural(self.cases, "case"),
            plural(self.files, "file"),
            human_bytes(self.bytes),
            self.downloaded,
            self.extracted,
            plural(indexed, "case"),
            start.elapsed().as_secs_f64()
        )
    }
}

/// `1 case`, `2 cases`: a count with its noun, in the singular for one.
pub fn plural(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
}

/// `1234567` -> `1.2 MB`.
pub fn human_bytes(n: u64) -> String {
    match n {
        0..=999 => format!("{n} B"),
        1_000..=999_999 => format!("{:.1} kB", n as f64 / 1e3),
        _ => format!("{:.1} MB", n as f64 / 1e6),
    }
}
