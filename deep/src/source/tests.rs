//! The tree as a harness source: its guards, and what its fingerprint covers.

use super::*;
use harness::source::IndexedTree;

/// The one guard of a tree that cannot run, by its check; `None` when the tree lists cases.
fn guard(tree: &IndexedTree) -> Option<&str> {
    let unusable = tree.listing.as_ref().err()?;
    assert!(unusable.why.contains(REGENERATE), "{}", unusable.why);
    Some(unusable.check.as_str())
}

#[test]
fn a_missing_bad_or_stale_tree_is_one_guard_naming_the_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let target = dir.path().join("target");
    let root = index::default_dir(&target);
    assert_eq!(guard(&indexed_source(&target)), Some("missing"));
    let why = index::missing(&root).expect("no tree");
    assert!(
        why.contains(REGENERATE) && why.contains(INDEX_FILE),
        "{why}"
    );
    std::fs::create_dir_all(&root).expect("dir");
    std::fs::write(root.join(INDEX_FILE), "{").expect("write");
    assert_eq!(index::missing(&root), None);
    assert_eq!(guard(&indexed_source(&target)), Some("index"));
    // A tree of two cases, written by other sources than these: stale.
    let names = [
        "cast19_FLOAT_to_FLOAT8E4M3FN_saturate0",
        "cast19_FLOAT_to_INT8",
    ];
    let mut index = crate::testkit::small_tree(&root, &names, "not these sources");
    let tree = indexed_source(&target);
    assert_eq!(guard(&tree), Some("stale"));
    assert!(!is_current(&root));
    // Still named in the run's provenance, as the tree it refused.
    assert_eq!(
        tree.content_sha256.as_deref(),
        Some(index.content_sha256.as_str())
    );
    // Written by these sources: one trial per case, the cases under `cases/`.
    index.fingerprint = fingerprint();
    let write = |index: &Index| {
        let text = serde_json::to_string(index).expect("json");
        std::fs::write(root.join(INDEX_FILE), text).expect("write")
    };
    write(&index);
    let tree = indexed_source(&target);
    let listed: Vec<_> = tree
        .listing
        .as_ref()
        .expect("current")
        .iter()
        .map(|c| (c.case.as_str(), c.op_type.as_str(), c.opset))
        .collect();
    assert_eq!(
        listed,
        [
            ("cast19_FLOAT_to_FLOAT8E4M3FN_saturate0", "Cast", 19),
            ("cast19_FLOAT_to_INT8", "Cast", 19)
        ]
    );
    assert_eq!(
        (tree.root.as_path(), tree.cases.clone()),
        (root.as_path(), root.join(CASES_DIR))
    );
    assert_eq!(source(&root), Source::Indexed(tree));
    assert!(is_current(&root));
    index.format = FORMAT + 1;
    write(&index);
    assert_eq!(guard(&indexed_source(&target)), Some("stale"));
}

/// On a copy of this crate's sources, whose hash is the one build.rs took (so it hashed what
/// `generator_files.rs` names): the findings code leaves the generator's hash alone, and the
/// generator's code, new files included, does not.
#[test]
fn the_findings_code_leaves_the_fingerprint_alone_and_the_generator_does_not() {
    let copy = tempfile::tempdir().expect("tempdir");
    let src = copy.path().join("src");
    for entry in walkdir::WalkDir::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("src")) {
        let entry = entry.expect("listed");
        let rel = entry
            .path()
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .expect("inside");
        match entry.file_type().is_dir() {
            true => std::fs::create_dir_all(copy.path().join(rel)).expect("dir"),
            false => drop(std::fs::copy(entry.path(), copy.path().join(rel)).expect("copy")),
        }
    }
    let (paths, readers) = (
        crate::generator_files::PATHS,
        crate::generator_files::READERS,
    );
    let hash = || source_hash::hash(copy.path(), paths, readers).expect("hashed");
    let before = hash();
    assert_eq!(before, SOURCES[0].1, "the copy is the crate");
    for reader in [
        "findings.rs",
        "findings/diagnosis.rs",
        "findings/render.rs",
        "findings/tests.rs",
        "findings/new_part.rs",
        "integrity.rs",
        "runs.rs",
    ] {
        std::fs::write(src.join(reader), "// changed").expect("write");
    }
    assert_eq!(hash(), before);
    for counted in [
        "generate/values.rs",
        "index.rs",
        "generate/new_file.rs",
        "new_generator_file.rs",
    ] {
        std::fs::write(src.join(counted), "// changed").expect("write");
        assert_ne!(hash(), before, "{counted}");
    }
}
