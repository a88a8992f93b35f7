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
    /// The wheel's file name (empty for a [generated](Generated) release, which has no
    /// wheel with data).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub wheel: String,
    /// The wheel's sha256, lowercase hex (empty for a generated release).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sha256: String,
    /// sha256 of every extracted file, keyed by path relative to the release directory
    /// (`node/<case>/model.onnx`).
    pub files: BTreeMap<String, String>,
    /// For a release that ships no data files (onnx 1.23 and later): how its recorded files
    /// were generated and how the default fetch derives them. Absent for a wheel release, so a
    /// lock written before this field existed reads unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<Generated>,
}

/// How a release without data files was recorded (`fetch-tests --generate V --update-lock`)
/// and is derived by the default fetch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Generated {
    /// The versions of the packages that generated the recorded files (`onnx`, `numpy`,
    /// `ml_dtypes`, `protobuf`, `python`), as onnx's generators reported them.
    pub packages: BTreeMap<String, String>,
    /// The wheel release whose files the default fetch copies: a file with the same path and
    /// hash there is copied as is.
    pub derived_from: String,
    /// The `ir_version` written into a `model.onnx` whose hash differs from `derived_from`'s.
    pub ir_version: i64,
    /// The default-domain opset written into such a model.
    pub opset: i64,
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
