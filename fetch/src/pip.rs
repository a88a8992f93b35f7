//! Obtaining wheels: the cache in `onnx-backend-data/.cache`, and downloads through the
//! user's own `python3 -m pip download` (so their index, proxy and certificates apply).

use super::error::{Error, Result};
use super::releases::python_versions;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cached wheel of `release`: the locked file name if known, else any `onnx-<release>-*.whl`.
pub fn cached(cache: &Path, release: &str, locked_name: Option<&str>) -> Option<PathBuf> {
    if let Some(name) = locked_name {
        let p = cache.join(name);
        return p.is_file().then_some(p);
    }
    let prefix = format!("onnx-{release}-");
    let mut found: Vec<PathBuf> = fs::read_dir(cache)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with(&prefix) && n.ends_with(".whl")
        })
        .map(|e| e.path())
        .collect();
    found.sort();
    found.into_iter().next()
}

/// Checks that `python -m pip` runs; returns pip's version line.
pub fn check(python: &str) -> Result<String> {
    let out = Command::new(python)
        .args(["-m", "pip", "--version"])
        .output()
        .map_err(|e| {
            Error::new(format!("cannot run `{python}`: {e}")).hint(
                "install Python 3 with pip, or set PYTHON to its path; without it use \
                 --offline (wheels already in onnx-backend-data/.cache) or --from <wheel>",
            )
        })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(Error::new(format!(
            "`{python} -m pip` does not work: {}",
            last_line(&err)
        ))
        .hint(format!(
            "install pip (`{python} -m ensurepip --user`, or your system's python3-pip), or \
             use --offline or --from <wheel>"
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Downloads the wheel of `release` into `cache`, trying each plausible Python version.
pub fn download(python: &str, release: &str, cache: &Path) -> Result<PathBuf> {
    // pip writes into a private staging directory; only a complete wheel reaches the cache.
    // One per release: several downloads run at once (`download_all`).
    let stage = cache.join(format!(".download-{}-{release}", std::process::id()));
    fs::create_dir_all(&stage).map_err(|e| Error::io("create directory", &stage, e))?;
    let result = download_into(python, release, &stage).and_then(|wheel| {
        let name = wheel.file_name().map(|n| n.to_owned()).unwrap_or_default();
        let dest = cache.join(name);
        fs::rename(&wheel, &dest).map_err(|e| Error::io("move into the cache", &dest, e))?;
        Ok(dest)
    });
    let _ = fs::remove_dir_all(&stage);
    result
}

/// How many pip processes [`download_all`] runs at once: each spends most of its second in
/// pip's own start-up and a short transfer, so a few at once divide the wall time without
/// crowding the package index.
pub const PARALLEL_DOWNLOADS: usize = 4;

/// Downloads the wheels of `releases` into `cache`, up to [`PARALLEL_DOWNLOADS`] at once;
/// one result per release, in the order given. `done` is called as each one ends.
pub fn download_all(
    python: &str,
    releases: &[&str],
    cache: &Path,
    done: &(dyn Fn(&str, &Result<PathBuf>) + Sync),
) -> Vec<Result<PathBuf>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Each worker takes the next release and keeps (index, result); the merge puts them back
    // in the order given.
    let mut done_all: Vec<(usize, Result<PathBuf>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..PARALLEL_DOWNLOADS.min(releases.len()))
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(release) = releases.get(i) else {
                            break mine;
                        };
                        let r = download(python, release, cache);
                        done(release, &r);
                        mine.push((i, r));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done_all.sort_by_key(|(i, _)| *i);
    done_all.into_iter().map(|(_, r)| r).collect()
}

fn download_into(python: &str, release: &str, stage: &Path) -> Result<PathBuf> {
    let mut tried = Vec::new();
    let mut last_err = String::new();
    for py in python_versions(release) {
        let out = Command::new(python)
            .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
            .args(["--platform", "manylinux_2_28_x86_64"])
            .args(["--platform", "manylinux2014_x86_64"])
            .args(["--python-version", py, "--disable-pip-version-check"])
            // -vv: with retries off pip mentions an unreachable index only at this level.
            .arg("-vv")
            .arg(format!("onnx=={release}"))
            .arg("-d")
            .arg(stage)
            .output()
            .map_err(|e| Error::new(format!("cannot run `{python} -m pip`: {e}")))?;
        // pip logs its debug lines (where an unreachable index shows) on stdout.
        let stderr = format!(
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if out.status.success() {
            return find_wheel(stage, release);
        }
        if is_network_error(&stderr) {
            return Err(Error::new(format!(
                "pip could not reach the package index for onnx {release}: {}",
                network_line(&stderr)
            ))
            .hint(
                "check the network, proxy and pip settings (`pip config list`); or use \
                 --offline with wheels in onnx-backend-data/.cache, or --from <wheel>",
            ));
        }
        tried.push(py);
        last_err = stderr;
    }
    Err(Error::new(format!(
        "pip found no onnx {release} wheel for Linux x86_64 on your package index (tried \
         Python {}): {}",
        tried.join(", "),
        last_line(&last_err)
    ))
    .hint("check that your index has this release; or use --from <wheel> with a copy of it"))
}

fn find_wheel(stage: &Path, release: &str) -> Result<PathBuf> {
    let found = fs::read_dir(stage)
        .map_err(|e| Error::io("list", stage, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"));
    found.ok_or_else(|| {
        Error::new(format!(
            "pip reported success for onnx {release} but wrote no wheel"
        ))
    })
}

/// pip retries and then reports "no matching distribution" even when the index was never
/// reached; these markers in its log tell the two apart.
fn is_network_error(stderr: &str) -> bool {
    const MARKERS: [&str; 10] = [
        ": connection error:",
        "NewConnectionError",
        "ConnectTimeoutError",
        "Temporary failure in name resolution",
        "Name or service not known",
        "Max retries exceeded",
        "ProxyError",
        "SSLError",
        "Network is unreachable",
        "Connection refused",
    ];
    MARKERS.iter().any(|m| stderr.contains(m))
}

fn network_line(stderr: &str) -> &str {
    stderr
        .lines()
        .find(|l| is_network_error(l))
        .map(str::trim)
        .unwrap_or_else(|| last_line(stderr))
}

fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("(no output)")
}

#[cfg(test)]
mod tests;
