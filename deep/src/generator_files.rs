//! Which of this crate's files write the tree, and so count in its fingerprint
//! ([`crate::fingerprint`]): read by build.rs, which hashes them, and by the tests.

/// The paths hashed, relative to the crate (tests are always left out).
pub const PATHS: &[&str] = &["src"];

/// Files under [`PATHS`] that read a tree but never write one (the findings, their diagnosis
/// and rendering, the integrity check, the task that runs them, a test, and the vectors, which
/// call the generator but write no tree), so that a change
/// to them leaves the tree current. Anything else there counts, new files included.
pub const READERS: &[&str] = &[
    "src/findings.rs",
    "src/findings/",
    "src/generate/class_check.rs",
    "src/names.rs",
    "src/integrity.rs",
    "src/runs.rs",
    "src/vectors.rs",
    "src/vectors/",
];
