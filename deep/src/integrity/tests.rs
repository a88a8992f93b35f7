use super::*;
use crate::testkit::small_tree;

const CASES: [&str; 2] = [
    "cast19_FLOAT_to_FLOAT8E4M3FN_saturate0",
    "cast19_FLOAT_to_INT8",
];

fn output_of(root: &Path, case: &str) -> std::path::PathBuf {
    root.join(CASES_DIR)
        .join(case)
        .join("test_data_set_0/output_0.pb")
}

/// The tree as written verifies, and its index records one hash per file: each the file's.
#[test]
fn a_tree_as_written_verifies_and_records_each_files_sha256() {
    let tmp = tempfile::tempdir().unwrap();
    let index = small_tree(tmp.path(), &CASES, "sources");
    verify(tmp.path(), &index).unwrap();
    let on_disk: Vec<String> = walkdir::WalkDir::new(tmp.path().join(CASES_DIR))
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(tmp.path().join(CASES_DIR)).unwrap();
            rel.to_string_lossy().replace('\\', "/")
        })
        .collect();
    assert_eq!(index.files.keys().cloned().collect::<Vec<_>>(), on_disk);
    for (rel, hash) in &index.files {
        let bytes = std::fs::read(tmp.path().join(CASES_DIR).join(rel)).unwrap();
        assert_eq!(*hash, schema::hash::sha256_hex(&bytes), "{rel}");
    }
}

/// One flipped bit in an expected output (the "expected 16777218, actual 2") is a
/// setup error naming the file, its case and the command that writes the tree again, and
/// names nothing of the case that is intact. Whatever a runtime answered on it: a runtime
/// that agrees with the changed file would pass it.
#[test]
fn a_flipped_bit_in_an_expected_output_is_a_setup_error_naming_the_file_and_case() {
    let tmp = tempfile::tempdir().unwrap();
    let index = small_tree(tmp.path(), &CASES, "sources");
    let path = output_of(tmp.path(), CASES[1]);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = verify(tmp.path(), &index).unwrap_err().to_string();
    assert!(e.contains(&path.display().to_string()), "{e}");
    assert!(e.contains(&format!("(case {})", CASES[1])), "{e}");
    assert!(e.contains(REGENERATE), "{e}");
    assert!(!e.contains(CASES[0]), "{e}");
}

/// A file the index does not record (a second data set would run too) and a missing file are
/// named as well.
#[test]
fn an_extra_or_missing_case_file_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let index = small_tree(tmp.path(), &CASES, "sources");
    let case = tmp.path().join(CASES_DIR).join(CASES[0]);
    std::fs::create_dir_all(case.join("test_data_set_1")).unwrap();
    let extra = case.join("test_data_set_1/input_0.pb");
    std::fs::copy(case.join("test_data_set_0/input_0.pb"), &extra).unwrap();
    let model = tmp.path().join(CASES_DIR).join(CASES[1]).join("model.onnx");
    std::fs::remove_file(&model).unwrap();
    let e = verify(tmp.path(), &index).unwrap_err().to_string();
    assert!(
        e.contains(&format!("{} (not in {INDEX_FILE})", extra.display())),
        "{e}"
    );
    assert!(
        e.contains(&format!("{} is missing", model.display())),
        "{e}"
    );
}

/// A tree written again over a changed file repairs it: the writer compares bytes, so the
/// command the error names is the fix.
#[test]
fn writing_the_tree_again_repairs_a_changed_file() {
    let tmp = tempfile::tempdir().unwrap();
    small_tree(tmp.path(), &CASES, "sources");
    let path = output_of(tmp.path(), CASES[0]);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[0] ^= 0x80;
    std::fs::write(&path, &bytes).unwrap();
    let index = small_tree(tmp.path(), &CASES, "sources");
    verify(tmp.path(), &index).unwrap();
}
