//! The data index (`onnx-backend-data/index.json`) and the committed lock file
//! (`onnx-backend-data.lock.json`): written by `cargo xtask fetch-tests`, read by the test runner.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Directory (relative to the workspace root) where fetched data lives.
pub const DATA_DIR: &str = "onnx-backend-data";
/// File name of the index inside [`DATA_DIR`].
pub const INDEX_FILE: &str = "index.json";
/// File name of the lock file at the workspace root.
pub const LOCK_FILE: &str = "onnx-backend-data.lock.json";

/// Every fetched case instance, so trials can be listed without opening a model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// Schema version of this file; 1.
    pub format: u32,
    /// Case instances, sorted by release then case.
    pub instances: Vec<Instance>,
}

/// One case directory of one release.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instance {
    /// The release, as in `1.22.0` (or `1.23.0-generated` for exported cases).
    pub release: String,
    /// The case directory name, as in `test_cast_FLOAT_to_FLOAT16`.
    pub case: String,
    /// The operator under test, as in `Cast`: the op_type of the model's node, except that an
    /// `_expanded` case (a function body inlined) takes the op_type of its non-expanded twin.
    pub op_type: String,
    /// The model's opset for the default domain.
    pub opset: i64,
    /// The case directory relative to [`DATA_DIR`], with `/` separators.
    pub dir: String,
}

/// The lock file: what each release's wheel and extracted files must hash to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lock {
    /// Schema version of this file; 1.
    pub format: u32,
    /// The case-directory prefixes extracted, as in `["test_cast", "test_concat"]`.
    pub ops: Vec<String>,
    /// One entry per release.
    pub releases: Vec<LockedRelease>,
}

/// One release in the lock file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LockedRelease {
    /// The release, as in `1.22.0`.
    pub release: String,
    /// The wheel's file name.
    pub wheel: String,
    /// The wheel's sha256, lowercase hex.
    pub sha256: String,
    /// sha256 of every extracted file, keyed by path relative to the release directory
    /// (`node/<case>/model.onnx`).
    pub files: BTreeMap<String, String>,
}

impl LockedRelease {
    /// The case directory names this release holds.
    pub fn cases(&self) -> BTreeSet<&str> {
        self.files
            .keys()
            .filter_map(|p| p.strip_prefix("node/")?.split('/').next())
            .collect()
    }
}

impl Lock {
    /// Total number of case instances across all releases.
    pub fn case_count(&self) -> usize {
        self.releases.iter().map(|r| r.cases().len()).sum()
    }
}

/// The numeric parts of a release name (`1.22.0` gives `[1, 22, 0]`; a suffix after `-`, as in
/// `1.23.0-generated`, is left out), or `None` for a name that is not a version (`own`).
pub fn release_numbers(release: &str) -> Option<Vec<u64>> {
    let numbers = release.split_once('-').map_or(release, |(n, _)| n);
    numbers.split('.').map(|p| p.parse().ok()).collect()
}

/// Version order of release names: `1.9.0` before `1.10.2`, `1.22.0` before
/// `1.22.0-generated`; names that are not versions come after every version, by name.
pub fn release_cmp(a: &str, b: &str) -> Ordering {
    let key = |r| (release_numbers(r).is_none(), release_numbers(r), r);
    key(a).cmp(&key(b))
}

#[cfg(test)]
mod tests;
