//! Which cases a run judges: the official data, a directory of the caller's, or a deep tree.
//! Chosen once (from the environment in `settings`, or by an in-process caller), it decides
//! everything that differs between them: discovery, the data root, the report directory, the
//! lists, the comparison rule, the lock check and the provenance.

use crate::discover::{self, Layout, Spec};
use crate::known::Lists;
use crate::provenance::{self, DeepTree};
use crate::report::ReportDir;
use std::path::{Path, PathBuf};

/// The cases of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The official data of the layout (`onnx-backend-data`), plus its own cases.
    Official,
    /// A tree laid out like the official data (`ONNX_BACKEND_DATA`), plus the layout's own
    /// cases: no index, no lock.
    Custom(PathBuf),
    /// A deep tree (`index.json` and `cases/`, written by the `deep` crate) at `dir`, which
    /// must have been written by the sources whose fingerprint is `fingerprint`: a tree
    /// written by other sources is stale, a failing guard.
    Deep {
        /// The tree's root.
        dir: PathBuf,
        /// The fingerprint of the sources that must have written it.
        fingerprint: String,
    },
}

impl Default for Source {
    /// The official data.
    fn default() -> Source {
        Source::Official
    }
}

impl Source {
    /// The trials: every case of the source, and the guards that stand for a missing,
    /// unreadable or stale source.
    pub(crate) fn discover(&self, layout: &Layout) -> Vec<Spec> {
        match self {
            Source::Official => discover::discover(layout, None),
            Source::Custom(dir) => discover::discover(layout, Some(dir)),
            Source::Deep { dir, fingerprint } => crate::deep::discover(dir, fingerprint),
        }
    }

    /// The names of every case trial of this source in the workspace at `workspace`, as a run
    /// lists them before any filter (the data's cases and the own cases); `Err` naming the
    /// setup check that fails when the source cannot be listed whole (missing data).
    pub fn case_names(&self, workspace: &Path) -> Result<Vec<String>, String> {
        let (cases, guards): (Vec<Spec>, Vec<Spec>) = self
            .discover(&Layout::workspace(workspace))
            .into_iter()
            .partition(|s| matches!(s.kind, discover::SpecKind::Case(_)));
        match guards.first() {
            Some(g) => Err(format!("{}: {}", g.name, g.guard_text())),
            None => Ok(cases.into_iter().map(|s| s.name).collect()),
        }
    }

    /// The directory the trials' case paths are under.
    pub(crate) fn data_root(&self, layout: &Layout) -> PathBuf {
        match self {
            Source::Official => layout.data.clone(),
            Source::Custom(dir) => dir.clone(),
            Source::Deep { dir, .. } => dir.join(crate::deep::CASES_DIR),
        }
    }

    /// Where a run of backend `backend` reports when no directory is asked for: the
    /// backend's own directory (`official` and `custom`), or the tree's `reports/`.
    pub(crate) fn report_dir(&self, own: &ReportDir, backend: &str) -> PathBuf {
        match self {
            Source::Deep { dir, .. } => ReportDir::deep(dir, backend).into_path(),
            _ => own.path().to_path_buf(),
        }
    }

    /// Whether known-failure lists apply: not to a deep tree, which exists to list
    /// disagreements, not to stay green.
    pub(crate) fn uses_lists(&self) -> bool {
        !matches!(self, Source::Deep { .. })
    }

    /// The known-failure lists that apply ([`Source::uses_lists`]).
    pub(crate) fn lists(&self, lists: Lists) -> Lists {
        match self.uses_lists() {
            true => lists,
            false => Lists::default(),
        }
    }

    /// Whether a list entry that selects no trial is a setup problem: only over the whole
    /// official data, where every entry should select something.
    pub(crate) fn checks_stale_entries(&self) -> bool {
        matches!(self, Source::Official)
    }

    /// Whether outputs are compared bit for bit (any NaN matches any NaN of the type):
    /// when asked, and always for a deep tree, whose expected values are exact.
    pub(crate) fn strict(&self, asked: bool) -> bool {
        asked || matches!(self, Source::Deep { .. })
    }

    /// The lock file a failing case's files are checked against: the official data's only.
    pub(crate) fn lock_file(&self, layout: &Layout) -> Option<PathBuf> {
        match self {
            Source::Official => layout.lock.clone(),
            _ => None,
        }
    }

    /// How `report.json` names the source.
    pub(crate) fn provenance(&self) -> provenance::Source {
        match self {
            Source::Official => provenance::Source::Official,
            Source::Custom(_) => provenance::Source::Custom,
            Source::Deep { .. } => provenance::Source::Deep,
        }
    }

    /// The deep tree's path and content hash, for the provenance (`None` for other sources,
    /// or when the index cannot be read: the run then fails on its guard).
    pub(crate) fn deep_tree(&self) -> Option<DeepTree> {
        let Source::Deep { dir, .. } = self else {
            return None;
        };
        let index = crate::deep::read_index_at(dir).ok()?;
        Some(DeepTree {
            path: dir.display().to_string(),
            content_sha256: index.content_sha256,
        })
    }

    /// The deep tree at its default place under `target`, fingerprinted from the sources of
    /// the workspace at `workspace`.
    pub fn deep_at_default(workspace: &Path, target: &Path) -> Result<Source, crate::Error> {
        Ok(Source::Deep {
            dir: crate::deep::default_dir(target),
            fingerprint: crate::deep::fingerprint(workspace)?,
        })
    }
}
