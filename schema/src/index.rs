//! The data index (`onnx-backend-data/index.json`) and the committed lock file
//! (`onnx-backend-data.lock.json`): written by the fetch, read by the test runner.

use serde::de::{Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Directory (relative to the workspace root) where fetched data lives.
pub const DATA_DIR: &str = "onnx-backend-data";
/// File name of the index inside [`DATA_DIR`].
pub const INDEX_FILE: &str = "index.json";
/// What the fetch appends to a release to name the data it exported with that release's onnx
/// (`fetch-tests --generate`) rather than the data the release shipped: `1.23.2-generated`.
pub const GENERATED_SUFFIX: &str = "-generated";
/// File name of the lock file at the workspace root.
pub const LOCK_FILE: &str = "onnx-backend-data.lock.json";

/// Every fetched case instance, so trials can be listed without opening a model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// Schema version of this file; 1.
    pub format: u32,
    /// Case instances, sorted by release then case; a case of a release at most once.
    #[serde(deserialize_with = "unique_instances")]
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
    /// One entry per release; a release at most once.
    #[serde(deserialize_with = "unique_releases")]
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
    /// (`node/<case>/model.onnx`); a path at most once.
    #[serde(deserialize_with = "unique_files")]
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

// Project-written JSON read back: an item given twice (two locks merged by hand, an edit
// gone wrong) is refused by every reader, naming it, rather than one of the two silently
// winning. serde already refuses a struct field given twice, but not two equal keys of a map,
// and arrays allow anything.

/// The lock's releases, none twice: readers look an entry up by release, so a second one
/// would never be checked.
fn unique_releases<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<LockedRelease>, D::Error> {
    let releases = Vec::<LockedRelease>::deserialize(d)?;
    let mut seen = BTreeSet::new();
    if let Some(twice) = releases.iter().find(|r| !seen.insert(r.release.as_str())) {
        return Err(D::Error::custom(format!(
            "onnx {} is listed twice",
            twice.release
        )));
    }
    Ok(releases)
}

/// The index's instances, no case of a release twice: it would be two trials of one name.
fn unique_instances<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Instance>, D::Error> {
    let instances = Vec::<Instance>::deserialize(d)?;
    let mut seen = BTreeSet::new();
    if let Some(twice) = instances
        .iter()
        .find(|i| !seen.insert((i.release.as_str(), i.case.as_str())))
    {
        return Err(D::Error::custom(format!(
            "case {} of onnx {} is listed twice",
            twice.case, twice.release
        )));
    }
    Ok(instances)
}

/// A lock entry's files, no path twice: with two hashes for one file, the last would win.
fn unique_files<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    struct Files;
    impl<'de> Visitor<'de> for Files {
        type Value = BTreeMap<String, String>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map of file paths to sha256")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut files = BTreeMap::new();
            while let Some((path, hash)) = map.next_entry::<String, String>()? {
                if files.contains_key(&path) {
                    return Err(A::Error::custom(format!("file {path} is listed twice")));
                }
                files.insert(path, hash);
            }
            Ok(files)
        }
    }
    d.deserialize_map(Files)
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
