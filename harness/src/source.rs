//! Which cases a run judges: the official data, a directory of the caller's, or an indexed
//! tree (the deep suite's). Chosen once (from the environment in `settings`, or by an
//! in-process caller), it decides everything that differs between them: discovery, the data
//! root, the report directory, the lists, the comparison rule, the lock check and the
//! provenance.
//!
//! An indexed tree is its writer's: the `deep` crate reads its index, decides whether it is
//! stale and hands the harness the listing ([`IndexedTree`]); the harness knows neither the
//! index's format nor the tree's files. `ONNX_CONFORMANCE_SUITE=deep` runs the tree the
//! binary linked ([`link_deep`]).

use crate::discover::{self, CaseSpec, Layout, Spec, SpecKind};
use crate::known::Lists;
use crate::provenance::{self, DeepTree};
use crate::report::ReportDir;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use crate::outcome::DEEP;

/// The cases of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The official data of the layout (`onnx-backend-data`), plus its own cases.
    Official,
    /// A tree laid out like the official data (`ONNX_BACKEND_DATA`), plus the layout's own
    /// cases: no index, no lock.
    Custom(PathBuf),
    /// A tree of cases in the node-test layout listed by its writer's index (the deep suite's,
    /// from the `deep` crate): compared bit for bit, by no known-failures list, reported
    /// under the tree; a tree its writer cannot vouch for is one failing guard.
    Indexed(IndexedTree),
}

/// A tree of cases in the node-test layout as its writer listed it from its index: the cases
/// the run judges, or why the tree cannot run (missing, unreadable, stale). The writer
/// decides; the harness only runs what it is handed.
#[derive(Clone, PartialEq, Eq)]
pub struct IndexedTree {
    /// The tree's root: the reports go under it ([`ReportDir::deep`]).
    pub root: PathBuf,
    /// The directory of the case directories.
    pub cases: PathBuf,
    /// The tree's content hash, for the run's provenance, when its index could be read.
    pub content_sha256: Option<String>,
    /// Every case, or why none can run.
    pub listing: Result<Vec<IndexedCase>, Unusable>,
}

/// One case of an indexed tree: the directory `<cases>/<case>`, its trial
/// `deep/opset<opset>/<case>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedCase {
    /// The case directory's name.
    pub case: String,
    /// The operator under test.
    pub op_type: String,
    /// The model's opset.
    pub opset: i64,
}

/// Why an indexed tree cannot run: the failing guard `deep/<check>` with its message, which
/// says what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unusable {
    /// The guard's name under `deep/`: `missing`, `index` or `stale`.
    pub check: String,
    /// What is wrong and how to mend it.
    pub why: String,
}

// Without the listing, which holds thousands of cases: messages print a source.
impl fmt::Debug for IndexedTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("IndexedTree");
        s.field("root", &self.root);
        match &self.listing {
            Ok(cases) => s.field("cases", &cases.len()),
            Err(unusable) => s.field("unusable", &unusable.check),
        };
        s.finish_non_exhaustive()
    }
}

impl IndexedTree {
    /// The trials: one per case, or the one guard that stands for the tree.
    fn discover(&self) -> Vec<Spec> {
        let cases = match &self.listing {
            Ok(cases) => cases,
            Err(unusable) => {
                return vec![Spec {
                    name: format!("{DEEP}/{}", unusable.check),
                    kind: SpecKind::Guard(unusable.why.clone()),
                }]
            }
        };
        let spec = |c: &IndexedCase| Spec {
            name: format!("{DEEP}/opset{}/{}", c.opset, c.case),
            kind: SpecKind::Case(CaseSpec {
                dir: self.cases.join(&c.case),
                release: DEEP.into(),
                case: c.case.clone(),
                op_type: Some(c.op_type.clone()),
                opset: Some(c.opset),
                indexed: true,
            }),
        };
        cases.iter().map(spec).collect()
    }
}

/// Makes the deep suite's tree from the cargo target directory (`deep::indexed_source`).
pub type DeepSource = fn(&Path) -> IndexedTree;

static DEEP_SOURCE: OnceLock<DeepSource> = OnceLock::new();

/// Makes the deep suite available to `ONNX_CONFORMANCE_SUITE=deep`: the conformance binary's
/// main calls it with `deep::indexed_source`, as it links runtimes with
/// [`crate::backend::link`]. A second call is ignored.
pub fn link_deep(source: DeepSource) {
    let _ = DEEP_SOURCE.set(source);
}

/// The deep suite this binary linked, if any.
pub(crate) fn linked_deep() -> Option<DeepSource> {
    DEEP_SOURCE.get().copied()
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
            Source::Indexed(tree) => tree.discover(),
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
            Source::Indexed(tree) => tree.cases.clone(),
        }
    }

    /// Where a run of backend `backend` reports when no directory is asked for: the
    /// backend's own directory (`official` and `custom`), or the tree's `reports/`.
    pub(crate) fn report_dir(&self, own: &ReportDir, backend: &str) -> PathBuf {
        match self {
            Source::Indexed(tree) => ReportDir::deep(&tree.root, backend).into_path(),
            _ => own.path().to_path_buf(),
        }
    }

    /// Whether known-failure lists apply: not to an indexed tree, which exists to list
    /// disagreements, not to stay green.
    pub(crate) fn uses_lists(&self) -> bool {
        !matches!(self, Source::Indexed(_))
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
    /// when asked, and always for an indexed tree, whose expected values are exact.
    pub(crate) fn strict(&self, asked: bool) -> bool {
        asked || matches!(self, Source::Indexed(_))
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
            Source::Indexed(_) => provenance::Source::Deep,
        }
    }

    /// The indexed tree's path and content hash, for the provenance (`None` for other
    /// sources, or when its index could not be read: the run then fails on its guard).
    pub(crate) fn deep_tree(&self) -> Option<DeepTree> {
        let Source::Indexed(tree) = self else {
            return None;
        };
        Some(DeepTree {
            path: tree.root.display().to_string(),
            content_sha256: tree.content_sha256.clone()?,
        })
    }
}
