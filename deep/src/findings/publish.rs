//! A finished run's findings written under the tree directory's lock: the reproducers and
//! findings.{json,md,html}, all of one run, moved into place together.

use super::finding::{Finding, Findings, RunSummary};
use super::group::causes;
use super::issue;
use super::render::{self, Links};
use super::reproducer;
use crate::index::{self, CaseEntry};
use crate::Error;
use schema::files::{DirLock, Staged};
use std::collections::BTreeMap;
use std::path::Path;

/// `cargo xtask deep --render-only`: findings.md and findings.html written again from the
/// findings.json in the tree directory `lock` holds, both renamed into place together.
pub fn render_again(root: &Path, lock: &DirLock) -> Result<(), Error> {
    let out = lock.dir();
    let path = out.join("findings.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e}; run `cargo xtask deep` first", path.display()))?;
    let all: Findings =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let links = Links::of(root, out);
    let mut pages = Staged::new();
    stage_pages(&mut pages, out, &all, &links)?;
    pages.commit()?;
    Ok(())
}

/// findings.md and findings.html of `all`, written aside into `pages` for `out`.
fn stage_pages(
    pages: &mut Staged,
    out: &Path,
    all: &Findings,
    links: &Links,
) -> Result<(), schema::files::Error> {
    pages.add(
        &out.join("findings.md"),
        render::markdown(all, links).as_bytes(),
    )?;
    pages.add(
        &out.join("findings.html"),
        render::html(all, links).as_bytes(),
    )
}

/// The prefix of the directory a run builds its reproducers in, beside the findings.
const STAGING_PREFIX: &str = "findings.new-";

/// Writes the reproducers and findings.{json,md,html} of a finished run into the tree
/// directory `lock` holds (`cargo xtask deep` holds it for its whole run): the reproducers into
/// a staging directory, the pages as [`Staged`] files, all moved into place only once
/// everything is written. So the set on disk is all of one run: a failure leaves the last good
/// set as it was (and no staging directory), and a second run, waiting for the lock, replaces
/// it whole after this one.
pub fn publish(
    root: &Path,
    lock: &DirLock,
    by_case: &BTreeMap<&str, &CaseEntry>,
    findings: Vec<Finding>,
    runs: Vec<RunSummary>,
    tree_sha256: &str,
) -> Result<Findings, Error> {
    let out = lock.dir();
    remove_leftovers(out)?;
    let staging = out.join(format!("{STAGING_PREFIX}{}", std::process::id()));
    let written = write_outputs(root, out, &staging, by_case, findings, runs, tree_sha256);
    // Holds the old reproducers after a success, the partial new ones after a failure.
    let _ = std::fs::remove_dir_all(&staging);
    written
}

/// Removes what a run killed half way left in `out`: its staging directory and the
/// temporary files of its pages. Only the holder of the lock writes them, so any found by the
/// holder is a leftover.
fn remove_leftovers(out: &Path) -> Result<(), Error> {
    let Ok(listing) = std::fs::read_dir(out) else {
        return Ok(());
    };
    for entry in listing.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if name.starts_with(STAGING_PREFIX) && path.is_dir() {
            std::fs::remove_dir_all(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        } else if name.starts_with(schema::files::TEMP_PREFIX) && path.is_file() {
            std::fs::remove_file(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

fn write_outputs(
    root: &Path,
    out: &Path,
    staging: &Path,
    by_case: &BTreeMap<&str, &CaseEntry>,
    mut findings: Vec<Finding>,
    runs: Vec<RunSummary>,
    tree_sha256: &str,
) -> Result<Findings, Error> {
    let repro = staging.join("findings");
    std::fs::create_dir_all(&repro)
        .map_err(|e| format!("cannot create {}: {e}", repro.display()))?;
    let links = Links::of(root, out);
    reproducer::write_all(
        &repro,
        &out.join(index::CASES_DIR),
        by_case,
        &mut findings,
        &links,
    )?;
    let mut all = Findings {
        tree_sha256: tree_sha256.to_string(),
        runs,
        causes: causes(&findings),
        findings,
    };
    for (rel, text) in issue::write_all(&mut all) {
        let path = repro.join(&rel);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, text));
        written.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut pages = Staged::new();
    let json = serde_json::to_string_pretty(&all)? + "\n";
    pages.add(&out.join("findings.json"), json.as_bytes())?;
    stage_pages(&mut pages, out, &all, &links)?;
    // Everything is written: the reproducers' directory is swapped in, then the pages renamed,
    // five renames in one directory.
    let place = out.join("findings");
    let old = staging.join("old");
    if place.exists() {
        std::fs::rename(&place, &old)
            .map_err(|e| format!("cannot move {} aside: {e}", place.display()))?;
    }
    if let Err(e) = std::fs::rename(&repro, &place) {
        // Back as it was, so the pages and reproducers on disk stay one run's.
        let _ = std::fs::rename(&old, &place);
        return Err(format!("cannot move {} into place: {e}", place.display()).into());
    }
    pages.commit()?;
    Ok(all)
}
