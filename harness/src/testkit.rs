//! Test-only fixtures shared by the tests of more than one module: the crate's one place for
//! them, so that no test module reaches into another's `tests`.

use crate::index::{Index, Instance, Lock, LockedRelease, DATA_DIR, INDEX_FILE, LOCK_FILE};
use crate::outcome::FailureKind;
use crate::outcome::Outcome;
use crate::report::{RuleName, TrialRecord};
use crate::source::{IndexedCase, IndexedTree, Unusable};
use std::collections::BTreeMap;
use std::path::Path;

/// A fresh empty directory under the system temp dir, removed when dropped.
pub(crate) fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("onnx-conf-{tag}-"))
        .tempdir()
        .expect("temp dir")
}

/// An index entry for a Cast case of `release`.
pub(crate) fn instance(release: &str, case: &str, opset: i64) -> Instance {
    Instance {
        release: release.into(),
        case: case.into(),
        op_type: "Cast".into(),
        opset,
        dir: format!("onnx-{release}/node/{case}"),
    }
}

/// Writes `onnx-backend-data/index.json` under the workspace `ws`.
pub(crate) fn write_index(ws: &Path, instances: Vec<Instance>) {
    let dir = ws.join(DATA_DIR);
    std::fs::create_dir_all(&dir).expect("data dir");
    let index = Index {
        format: 1,
        instances,
    };
    let text = serde_json::to_string(&index).expect("json");
    std::fs::write(dir.join(INDEX_FILE), text).expect("index");
}

/// Writes a lock file under `ws` that pins `cases` of `release`, two files each.
pub(crate) fn write_lock(ws: &Path, release: &str, cases: &[&str]) {
    let files: BTreeMap<String, String> = cases
        .iter()
        .flat_map(|c| {
            [
                (format!("node/{c}/model.onnx"), "00".to_string()),
                (
                    format!("node/{c}/test_data_set_0/input_0.pb"),
                    "11".to_string(),
                ),
            ]
        })
        .collect();
    let lock = Lock {
        format: 1,
        ops: vec!["test_cast".into()],
        releases: vec![LockedRelease {
            release: release.into(),
            wheel: "w.whl".into(),
            sha256: "00".into(),
            files,
            generated: None,
        }],
    };
    let text = serde_json::to_string(&lock).expect("json");
    std::fs::write(ws.join(LOCK_FILE), text).expect("lock");
}

/// A trial record of a Cast/Concat case with the given outcome.
pub(crate) fn record(
    release: &str,
    opset: i64,
    case: &str,
    op: &str,
    outcome: Outcome,
) -> TrialRecord {
    let t = TrialRecord::case_for_test(release, opset, case, outcome)
        .with_op(&format!("{op}-{}", if opset >= 19 { 19 } else { 13 }))
        .with_types(&["FLOAT"], &["FLOAT16"])
        .with_rule(RuleName::OnnxDefault, Some(1e-3), Some(1e-7))
        .with_duration(0.1);
    let t = match outcome {
        Outcome::Pass => t,
        _ => t.with_message("output 0: 1 of 2 elements <differ>\n  more"),
    };
    match outcome {
        Outcome::Fail | Outcome::KnownFailure => t.with_kind(Some(FailureKind::Mismatch)),
        _ => t,
    }
}

/// `n` codes of `dtype` spread over the whole range of its bits (bool: 0 and 1).
pub(crate) fn spread_codes(dtype: vocab::DataType, n: usize) -> Vec<u128> {
    let bits = dtype.bit_width();
    (1..=n as u128)
        .map(|i| match dtype {
            vocab::DataType::Bool => i % 2,
            _ => i.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835) >> (128 - bits),
        })
        .collect()
}

/// An indexed tree at `root` as its writer hands it over: one current case `c` (Cast at
/// opset 13) under `cases/`, with content hash `abc`.
pub(crate) fn indexed(root: &Path) -> IndexedTree {
    IndexedTree {
        root: root.to_path_buf(),
        cases: root.join("cases"),
        content_sha256: Some("abc".into()),
        listing: Ok(vec![IndexedCase {
            case: "c".into(),
            op_type: "Cast".into(),
            opset: 13,
        }]),
    }
}

/// The deep suite as a test links it ([`crate::source::link_deep`]): [`indexed`] at the
/// tree's place under the target directory, stale while a file `stale` sits in it.
pub(crate) fn deep_source(target: &Path) -> IndexedTree {
    let mut tree = indexed(&target.join("onnx-conformance/deep"));
    if tree.root.join("stale").exists() {
        tree.listing = Err(Unusable {
            check: "stale".into(),
            why: "written by other sources; write it again".into(),
        });
    }
    tree
}

/// The data list and a backend list `tests/known-failures/rt.json` of these entries.
pub(crate) fn lists(
    data: Vec<crate::known::KnownFailure>,
    backend: Vec<crate::known::KnownFailure>,
) -> crate::known::Lists {
    let list = |entries| crate::known::KnownFailures {
        format: crate::known::FORMAT,
        entries,
    };
    crate::known::Lists::new(
        list(data),
        list(backend),
        "tests/known-failures/rt.json".into(),
    )
}
