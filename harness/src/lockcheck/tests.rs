//! Unit tests of hashing a failing trial's files against the lock.

use super::*;
use crate::index::LockedRelease;
use std::path::PathBuf;

/// A copy of a real own case as release `9.9.9` of a locked tree, and its lock.
fn locked_copy(root: &Path) -> (PathBuf, CaseSpec) {
    let own =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/test_cast1_FLOAT_to_INT32");
    let dir = root.join("onnx-9.9.9/node/test_cast1_FLOAT_to_INT32");
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&own) {
        let entry = entry.expect("list the own case");
        let rel = entry.path().strip_prefix(&own).expect("inside");
        let to = dir.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).expect("dir");
            continue;
        }
        let bytes = std::fs::read(entry.path()).expect("read");
        std::fs::write(&to, &bytes).expect("copy");
        let key = format!("node/test_cast1_FLOAT_to_INT32/{}", rel.display());
        files.insert(key, sha256_hex(&bytes));
    }
    let lock = Lock {
        format: 1,
        ops: vec!["test_cast".into()],
        releases: vec![LockedRelease {
            release: "9.9.9".into(),
            wheel: "w".into(),
            sha256: "0".into(),
            files,
            generated: None,
        }],
    };
    let lock_path = root.join(LOCK_FILE);
    let text = serde_json::to_string(&lock).expect("json");
    std::fs::write(&lock_path, text).expect("lock");
    let spec = CaseSpec {
        dir,
        release: "9.9.9".into(),
        case: "test_cast1_FLOAT_to_INT32".into(),
        op_type: Some("Cast".into()),
        opset: Some(1),
        indexed: true,
    };
    (lock_path, spec)
}

#[test]
fn a_same_size_bit_flip_is_named_with_the_verify_hint() {
    let root_tmp = tempfile::Builder::new()
        .prefix("lockcheck")
        .tempdir()
        .expect("temp dir");
    let root = root_tmp.path();
    let (lock, spec) = locked_copy(root);
    assert_eq!(check(&lock, &spec), None, "an intact copy matches");
    let pb = spec.dir.join("test_data_set_0/output_0.pb");
    let mut bytes = std::fs::read(&pb).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&pb, &bytes).expect("flip");
    let note = check(&lock, &spec).expect("a note");
    assert!(
        note.contains("test_data_set_0/output_0.pb (sha256 "),
        "{note}"
    );
    assert!(note.contains("cargo xtask fetch-tests --verify"), "{note}");
    std::fs::remove_file(spec.dir.join("test_data_set_0/input_0.pb")).expect("rm");
    std::fs::write(spec.dir.join("extra.pb"), b"x").expect("extra");
    let note = check(&lock, &spec).expect("a note");
    assert!(
        note.contains("test_data_set_0/input_0.pb (missing)"),
        "{note}"
    );
    assert!(note.contains("extra.pb (not in the lock)"), "{note}");
}

#[cfg(feature = "native")]
#[test]
fn a_damaged_official_trial_says_so_and_an_unlocked_one_does_not() {
    use crate::discover::{Spec, SpecKind};
    use crate::trials::{run, Context};
    let root_tmp = tempfile::Builder::new()
        .prefix("lockcheck-trial")
        .tempdir()
        .expect("temp dir");
    let root = root_tmp.path();
    let (lock, spec) = locked_copy(root);
    let pb = spec.dir.join("test_data_set_0/output_0.pb");
    let mut bytes = std::fs::read(&pb).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&pb, &bytes).expect("flip");
    let trial = Spec {
        name: "onnx-9.9.9/opset1/test_cast1_FLOAT_to_INT32".into(),
        kind: SpecKind::Case(spec.clone()),
    };
    let mut ctx = Context {
        out_dir: root.join("out"),
        lock_file: Some(lock),
        ..Context::default()
    };
    let msg = run(&ctx, &trial).record.message.unwrap_or_default();
    assert!(msg.starts_with("the data on disk is damaged"), "{msg}");
    assert!(
        msg.contains("elements differ"),
        "the comparison still shows: {msg}"
    );
    ctx.lock_file = None;
    let msg = run(&ctx, &trial).record.message.unwrap_or_default();
    assert!(!msg.contains("damaged"), "{msg}");
}
