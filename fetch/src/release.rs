//! Fetching one release: hash and check the wheel, extract into a temporary directory,
//! check every file against the lock, stamp, and rename into place.

use super::error::{Error, Result};
use super::extract::{self, covered_by, Extracted, NODE_PREFIX};
use super::install::{self, Stamp};
use super::lock::{check_files, check_wheel, entry_sha256, sha256_file};
use super::plural;
use super::present::Stats;
use schema::index::LockedRelease;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a release's data comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// An onnx wheel (cached, downloaded, or given with `--from`).
    Wheel(PathBuf),
    /// An onnx source checkout with `onnx/backend/test/data/node`.
    Checkout(PathBuf),
}

/// What applies to every release of a run.
pub struct Ctx<'a> {
    /// The data directory.
    pub data: &'a Path,
    /// Case prefixes to extract: the lock's, then those `--ops` adds.
    pub ops: &'a [String],
    /// The lock's case prefixes: the files under them are checked against the lock.
    pub locked_ops: &'a [String],
    /// Record instead of check.
    pub update_lock: bool,
}

/// The result of fetching one release: its counts and the lock entry describing it.
pub struct Fetched {
    /// Counts of the installed data.
    pub stats: Stats,
    /// The lock entry for what was installed (written with `--update-lock`).
    pub locked: LockedRelease,
}

/// Fetches `release` from `source`; on any failure the previous tree is left as it was.
pub fn fetch(
    ctx: &Ctx<'_>,
    release: &str,
    entry: Option<&LockedRelease>,
    source: &Source,
) -> Result<Fetched> {
    let (source_name, wheel, sha256) = identify(ctx, release, entry, source)?;
    let tmp = install::make_temp_dir(ctx.data, release)?;
    let fetched = extract_checked(ctx, release, entry, source, &tmp).and_then(|ex| {
        let locked = LockedRelease {
            release: release.to_string(),
            wheel,
            sha256: sha256.clone(),
            files: ex.hashes(),
            generated: None,
        };
        // The entry the files were checked against, or the one recorded now.
        let truth = match entry {
            Some(e) if !ctx.update_lock => e,
            _ => &locked,
        };
        let stamp = Stamp {
            release: release.to_string(),
            source: source_name,
            wheel_sha256: sha256,
            lock_entry_sha256: entry_sha256(truth)?,
            ops: ctx.ops.to_vec(),
            files: ex.sizes(),
        };
        install::write_stamp(&tmp, &stamp)?;
        install::install(ctx.data, release, &tmp)?;
        let stats = Stats::of(&ex.sizes());
        Ok(Fetched { stats, locked })
    });
    if fetched.is_err() {
        install::discard(&tmp);
    }
    fetched
}

/// Names the source and, for a wheel, hashes it and checks it against the lock.
/// Returns (source name, wheel file name, wheel sha256).
fn identify(
    ctx: &Ctx<'_>,
    release: &str,
    entry: Option<&LockedRelease>,
    source: &Source,
) -> Result<(String, String, String)> {
    match source {
        Source::Wheel(path) => {
            let sha = sha256_file(path)?;
            let name = path
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            match entry {
                Some(e) if !ctx.update_lock => {
                    check_wheel(e, path, &sha)?;
                    eprintln!("  onnx {release}: wheel sha256 matches the lock");
                }
                _ => eprintln!("  onnx {release}: wheel sha256 {sha} (to record)"),
            }
            Ok((name.clone(), name, sha))
        }
        Source::Checkout(root) => {
            if !root.join(NODE_PREFIX).is_dir() {
                return Err(Error::new(format!(
                    "{} has no {NODE_PREFIX} directory",
                    root.display()
                ))
                .hint("--from takes an onnx wheel or the root of an onnx source checkout"));
            }
            // No wheel to hash: the files themselves are checked against the lock.
            let (wheel, sha) = entry.map_or((String::new(), String::new()), |e| {
                (e.wheel.clone(), e.sha256.clone())
            });
            Ok((root.display().to_string(), wheel, sha))
        }
    }
}

/// Extracts into `tmp` and checks the files against the lock (unless recording).
fn extract_checked(
    ctx: &Ctx<'_>,
    release: &str,
    entry: Option<&LockedRelease>,
    source: &Source,
    tmp: &Path,
) -> Result<Extracted> {
    let ex = match source {
        Source::Wheel(p) => extract::from_wheel(p, ctx.ops, tmp)?,
        Source::Checkout(p) => extract::from_checkout(p, ctx.ops, tmp)?,
    };
    let stats = Stats::of(&ex.sizes());
    if stats.files == 0 {
        eprintln!(
            "  warning: onnx {release} has no case starting with {}",
            ctx.ops.join(", ")
        );
    }
    let checked = match entry {
        _ if ctx.update_lock => "hashes recorded for the lock".to_string(),
        Some(e) => {
            let (locked, extra): (BTreeMap<_, _>, BTreeMap<_, _>) = ex
                .hashes()
                .into_iter()
                .partition(|(path, _)| covered_by(path, ctx.locked_ops));
            check_files(e, &locked)?;
            match extra.len() {
                0 => "every file matches the lock".to_string(),
                n => format!(
                    "every file of {} matches the lock, {} of --ops not covered by it",
                    ctx.locked_ops.join(","),
                    plural(n, "file")
                ),
            }
        }
        None => "no lock entry to check the files against".to_string(),
    };
    eprintln!(
        "  onnx {release}: extracted {}, {}, {}; {checked}",
        plural(stats.cases, "case"),
        plural(stats.files, "file"),
        super::human_bytes(stats.bytes)
    );
    Ok(ex)
}
