//! A run's journal: each trial's record appended as it ends, so that a run interrupted half way
//! (a slow runtime, a killed CI job) can be resumed where it stopped, running only the trials
//! it had not finished. Removed once the run's reports are written.

use crate::error::Error;
use crate::report::TrialRecord;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The journal's file name in the report directory.
pub(crate) const FILE: &str = "journal.jsonl";

/// What a run's records depend on beyond the case: a journal resumes only a run that agrees
/// on all of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Header {
    /// The backend's name, runtime and version.
    pub backend: String,
    /// Strict comparison or not.
    pub strict: bool,
    /// The data root.
    pub data: String,
    /// The caller's filters.
    pub filters: Vec<String>,
    /// The known-failures list's name and the sha256 of its bytes, if any.
    pub known_failures: Option<(String, String)>,
}

/// The journal of the run under way.
pub(crate) struct Journal {
    path: PathBuf,
    file: Mutex<Option<File>>,
}

impl Journal {
    /// Opens the journal in `dir` for a run of `header`. With `resume`, the records an earlier
    /// run of the same header left there are returned (none when there is no journal); a
    /// journal of another header is an error naming it and what differs. Without `resume`,
    /// the journal starts anew.
    pub(crate) fn open(
        dir: &Path,
        header: &Header,
        resume: bool,
    ) -> Result<(Journal, Vec<TrialRecord>), Error> {
        let path = dir.join(FILE);
        let earlier = match resume {
            true => read(&path, header)?,
            false => Vec::new(),
        };
        std::fs::create_dir_all(dir).map_err(|e| Error::at(dir, format!("cannot create: {e}")))?;
        let mut text = line(header)?;
        for r in &earlier {
            text.push_str(&line(r)?);
        }
        // The earlier records and the header, written aside and renamed: a run killed now
        // leaves the journal it found.
        schema::files::write_atomic(&path, text.as_bytes())?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| Error::at(&path, format!("cannot open: {e}")))?;
        let journal = Journal {
            path,
            file: Mutex::new(Some(file)),
        };
        Ok((journal, earlier))
    }

    /// Appends `record`, one line in one write. A journal that cannot be written stops being
    /// written (said once); the run itself goes on.
    pub(crate) fn record(&self, record: &TrialRecord) {
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        let Some(f) = file.as_mut() else { return };
        let written = line(record)
            .map_err(|e| e.to_string())
            .and_then(|l| f.write_all(l.as_bytes()).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!(
                "warning: {}: cannot append ({e}); this run cannot be resumed",
                self.path.display()
            );
            *file = None;
        }
    }

    /// The run's reports are written: the journal goes.
    pub(crate) fn finish(self) {
        drop(self.file);
        let _ = std::fs::remove_file(&self.path);
    }
}

fn line<T: Serialize>(value: &T) -> Result<String, Error> {
    let mut text = serde_json::to_string(value)
        .map_err(|e| Error::msg(format!("cannot serialise the journal: {e}")))?;
    text.push('\n');
    Ok(text)
}

/// The records of the journal at `path` for `header`; a last line cut short (the run was
/// killed while writing it) is dropped, as its trial did not finish.
fn read(path: &Path, header: &Header) -> Result<Vec<TrialRecord>, Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::at(path, format!("cannot read: {e}"))),
    };
    let mut lines = text.lines();
    let Some(first) = lines.next() else {
        return Ok(Vec::new());
    };
    let held: Header = serde_json::from_str(first)
        .map_err(|e| Error::at(path, format!("line 1 is no journal header: {e}")))?;
    if held != *header {
        return Err(Error::at(
            path,
            format!(
                "the journal is of another run ({held:?}), not of this one ({header:?}): \
                 run without --resume to start anew"
            ),
        ));
    }
    let mut records = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, raw) in lines.enumerate() {
        match serde_json::from_str::<TrialRecord>(raw) {
            Ok(r) if seen.insert(r.name.clone()) => records.push(r),
            Ok(r) => {
                return Err(Error::at(
                    path,
                    format!("line {}: trial {} is recorded twice", i + 2, r.name),
                ))
            }
            // Only the last line may be cut short: its trial had not finished.
            Err(_) if i + 2 == text.lines().count() && !text.ends_with('\n') => {}
            Err(e) => return Err(Error::at(path, format!("line {}: {e}", i + 2))),
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests;
