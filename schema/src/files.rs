//! How every file the project writes for a user reaches the disk: written aside and renamed
//! into place ([`write_atomic`]), a set of files that belong together renamed only once all are
//! written ([`Staged`]), and a directory held by one run at a time ([`DirLock`]).
//!
//! One module for the fetch, the harness, the deep suite, the reports and the xtask, so that
//! no writer of a user's state can forget the rename or the lock.

use std::fmt;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A failure to write a state file or to take a directory's lock, naming the path.
#[derive(Debug)]
pub enum Error {
    /// An I/O operation (`op`) on `path` failed.
    Io {
        /// What was being done: "create", "write", "rename into place", ...
        op: &'static str,
        /// The file or directory concerned.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// Another process holds the lock of `dir` and this one was asked not to wait.
    Busy {
        /// The locked directory.
        dir: PathBuf,
        /// What the holder wrote into the lock file (process id and command), if readable.
        holder: String,
    },
}

impl Error {
    fn io(op: &'static str, path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            op,
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { op, path, source } => {
                write!(f, "{}: cannot {op}: {source}", path.display())
            }
            Error::Busy { dir, holder } => write!(
                f,
                "{}: in use by another run ({holder}); wait for it, or give this run a \
                 directory of its own",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Busy { .. } => None,
        }
    }
}

/// The prefix of every temporary file this module writes: a leftover of a killed process is
/// recognisable, and readers that list a directory can skip it.
pub const TEMP_PREFIX: &str = ".onnx-conformance-tmp-";

/// A fresh name for a temporary sibling of `path` (same directory, so the rename is atomic):
/// unique per process and call.
fn temp_sibling(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = path.parent().unwrap_or(Path::new("."));
    dir.join(format!("{TEMP_PREFIX}{}-{n}-{name}", std::process::id()))
}

/// The process id in the name of a temporary file this module wrote (`None` for any other
/// name), so that a cleaner removes only the leftovers of processes that are gone.
pub fn temp_owner(file_name: &str) -> Option<u32> {
    file_name
        .strip_prefix(TEMP_PREFIX)?
        .split('-')
        .next()?
        .parse()
        .ok()
}

/// Writes `bytes` to a temporary file beside `path` and flushes it to the disk; the caller
/// renames it. On failure the temporary file is removed.
fn write_aside(path: &Path, bytes: &[u8]) -> Result<PathBuf, Error> {
    write_aside_with(path, bytes, true)
}

/// [`write_aside`], flushing to the disk only when `sync`.
fn write_aside_with(path: &Path, bytes: &[u8], sync: bool) -> Result<PathBuf, Error> {
    stream_aside(path, sync, |f| f.write_all(bytes))
}

/// A temporary file beside `path` filled by `fill`, flushed to the disk when `sync`; the
/// caller renames it. On failure the temporary file is removed.
fn stream_aside(
    path: &Path,
    sync: bool,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<PathBuf, Error> {
    let tmp = temp_sibling(path);
    let written = File::create(&tmp)
        .map_err(|e| Error::io("create", &tmp, e))
        .and_then(|f| {
            stream(f, fill)
                .and_then(|f| if sync { f.sync_all() } else { Ok(()) })
                .map_err(|e| Error::io("write", &tmp, e))
        });
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// What `fill` writes, through a buffer, into `file`, which comes back flushed.
fn stream(
    file: File,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<File> {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, file);
    fill(&mut w)?;
    w.into_inner().map_err(std::io::IntoInnerError::into_error)
}

/// Writes `bytes` to `path` atomically: a reader sees the old file or the new one, never a
/// mixture, and a process killed half way leaves the old file as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    rename_into_place(write_aside(path, bytes)?, path)
}

/// Renames the temporary file `tmp` to `path`, removing it when the rename fails.
fn rename_into_place(tmp: PathBuf, path: &Path) -> Result<(), Error> {
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io("rename into place", path, e)
    })
}

/// [`write_atomic`] without the flush to the disk: a reader, or a process killed half way,
/// still never sees a file cut short, but a power loss may. For the many files of a tree that
/// a check of their hashes guards (the deep tree: tens of thousands of files, where a flush
/// each costs tens of seconds).
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    rename_into_place(write_aside_with(path, bytes, false)?, path)
}

/// Streams what `fill` writes over `path` in place, keeping the file's blocks, and cuts it to
/// that length. Only for a scratch file that its writer rewrites again and again and that no
/// one reads while it is written (a worker's input, tens of megabytes a chunk, read only after
/// the request that names it): a fresh file each time cost more in the file system's block
/// allocation and release than the writing itself.
pub fn overwrite_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .and_then(|f| {
            let mut f = stream(f, fill)?;
            let end = f.stream_position()?;
            f.set_len(end)
        })
        .map_err(|e| Error::io("write", path, e))
}

/// A set of files that belong together (a run's reports, a findings page and its data):
/// each is written aside as it is added, and all are renamed into place by [`Staged::commit`].
/// Dropped without a commit, the temporary files are removed and nothing in place changes.
///
/// Between the first and the last rename a reader can see some new files beside old ones; the
/// writers of such sets hold the directory's [`DirLock`] across the commit, and readers that
/// must see one run take it too.
#[derive(Debug, Default)]
pub struct Staged {
    pending: Vec<(PathBuf, PathBuf)>,
}

impl Staged {
    /// An empty set.
    pub fn new() -> Staged {
        Staged::default()
    }

    /// Writes `bytes` aside for `path`; nothing in place changes yet.
    pub fn add(&mut self, path: &Path, bytes: &[u8]) -> Result<(), Error> {
        let tmp = write_aside(path, bytes)?;
        self.pending.push((tmp, path.to_path_buf()));
        Ok(())
    }

    /// Renames every file of the set into place, in the order they were added.
    pub fn commit(mut self) -> Result<(), Error> {
        let pending = std::mem::take(&mut self.pending);
        let mut iter = pending.into_iter();
        while let Some((tmp, path)) = iter.next() {
            if let Err(e) = std::fs::rename(&tmp, &path) {
                let _ = std::fs::remove_file(&tmp);
                for (rest, _) in iter {
                    let _ = std::fs::remove_file(rest);
                }
                return Err(Error::io("rename into place", &path, e));
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for (tmp, _) in &self.pending {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// The name of the lock file a [`DirLock`] keeps in its directory.
pub const LOCK_FILE: &str = ".onnx-conformance.lock";

/// What to do when another process holds a directory's lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenBusy {
    /// Say so (through the callback given to [`DirLock::acquire`]) and wait for it.
    Wait,
    /// Stop with [`Error::Busy`], naming the directory and the holder.
    Stop,
}

impl WhenBusy {
    /// What a `--no-wait` flag asks for: [`WhenBusy::Stop`] when given, else
    /// [`WhenBusy::Wait`].
    pub fn no_wait(given: bool) -> WhenBusy {
        match given {
            true => WhenBusy::Stop,
            false => WhenBusy::Wait,
        }
    }
}

/// An advisory lock on a directory, held until dropped: one run at a time writes there.
/// The lock file holds the holder's process id and command line, so a second run can name it.
/// The lock is the operating system's (`flock` on Unix, `LockFileEx` on Windows): a holder that
/// dies releases it, and no stale lock file can block a later run.
#[derive(Debug)]
pub struct DirLock {
    // Held for its lock; closed (and so released) on drop.
    _file: File,
    dir: PathBuf,
}

impl DirLock {
    /// Takes the lock of `dir` (created if missing) for `purpose` (a few words, recorded for
    /// whoever finds the directory busy). When another process holds it, `busy` is either waited
    /// for, after `on_wait` is told who holds it, or an [`Error::Busy`].
    pub fn acquire(
        dir: &Path,
        purpose: &str,
        busy: WhenBusy,
        on_wait: impl FnOnce(&str),
    ) -> Result<DirLock, Error> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io("open the lock file", &path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file);
                match busy {
                    WhenBusy::Stop => {
                        return Err(Error::Busy {
                            dir: dir.to_path_buf(),
                            holder,
                        })
                    }
                    WhenBusy::Wait => {
                        on_wait(&holder);
                        file.lock().map_err(|e| Error::io("lock", &path, e))?;
                    }
                }
            }
            Err(TryLockError::Error(e)) => return Err(Error::io("lock", &path, e)),
        }
        let me = format!(
            "process {} ({}), {purpose}",
            std::process::id(),
            command_line()
        );
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(me.as_bytes()))
            .map_err(|e| Error::io("write the lock file", &path, e))?;
        Ok(DirLock {
            _file: file,
            dir: dir.to_path_buf(),
        })
    }

    /// The locked directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

fn read_holder(file: &mut File) -> String {
    let mut text = String::new();
    let read = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_string(&mut text));
    match read {
        Ok(_) if !text.trim().is_empty() => text.trim().to_string(),
        _ => "a process that has not said who it is".to_string(),
    }
}

fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    let line = args.join(" ");
    // A long test command line says little past its start.
    match line.char_indices().nth(160) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line,
    }
}

#[cfg(test)]
mod tests;
