use super::*;

/// The committed `tests/cases` must be exactly what the generator writes.
#[test]
fn committed_cases_are_fresh() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = crate_dir
        .parent()
        .expect("the workspace")
        .join("tests/cases");
    let stale = check(&root).expect("readable");
    assert!(stale.is_empty(), "{stale:?}; run `cargo xtask own-cases`");
}

/// Every file under `root`, with its contents.
fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().display().to_string(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect()
}

#[test]
fn check_writes_nothing_and_names_every_difference() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("cases");
    let stale = check(&root).expect("readable");
    assert!(stale.iter().all(|s| s.ends_with("(missing)")), "{stale:?}");
    assert_eq!(stale.len(), files().len());
    assert!(!root.exists(), "check wrote the cases");

    write(&root).expect("write");
    assert_eq!(check(&root).expect("readable"), Vec::<String>::new());
    let (rel, _) = &files()[0];
    std::fs::write(root.join(rel), b"stale").expect("tamper");
    std::fs::write(root.join("extra.pb"), b"x").expect("extra");
    let before = snapshot(&root);
    let stale = check(&root).expect("readable");
    assert!(stale.contains(&format!("{rel} (stale)")), "{stale:?}");
    assert!(
        stale.contains(&"extra.pb (not generated)".to_string()),
        "{stale:?}"
    );
    assert_eq!(snapshot(&root), before, "check changed files");
}

/// A case directory the generator no longer makes still runs as a case, even empty.
#[test]
fn an_orphaned_case_directory_is_stale() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("cases");
    write(&root).expect("write");
    assert_eq!(check(&root).expect("readable"), Vec::<String>::new());
    let case = &files()[0].0;
    let case = case.split('/').next().expect("a case directory");
    std::fs::create_dir_all(root.join("test_orphan/test_data_set_0")).expect("orphan");
    std::fs::create_dir(root.join(case).join("test_data_set_1")).expect("empty data set");
    assert_eq!(
        check(&root).expect("readable"),
        [
            format!("{case}/test_data_set_1/ (directory not generated)"),
            "test_orphan/ (directory not generated)".to_string(),
            "test_orphan/test_data_set_0/ (directory not generated)".to_string(),
        ]
    );
}
