//! End-to-end tests of a fetch on small wheels the tests build themselves (no network, no pip).

use super::install::STAMP_FILE;
use super::*;
use harness::proto::{GraphProto, ModelProto, NodeProto, OperatorSetIdProto};
use prost::Message;
use std::fs;
use std::io::Write;

const NODE: &str = "onnx/backend/test/data/node/";
const REL: &str = "9.0.0";

/// A one-node model of `op_type` importing the default domain at `opset`.
fn model(op_type: &str, opset: i64) -> Vec<u8> {
    ModelProto {
        ir_version: 8,
        graph: Some(GraphProto {
            node: vec![NodeProto {
                op_type: op_type.into(),
                ..Default::default()
            }],
            ..Default::default()
        }),
        opset_import: vec![
            OperatorSetIdProto {
                domain: "ai.onnx.ml".into(),
                version: 3,
            },
            OperatorSetIdProto {
                domain: String::new(),
                version: opset,
            },
        ],
        ..Default::default()
    }
    .encode_to_vec()
}

/// Writes a wheel (a zip) holding `entries`, deflated.
fn wheel(path: &Path, entries: &[(String, Vec<u8>)]) {
    let file = fs::File::create(path).expect("create wheel");
    let mut zip = zip::ZipWriter::new(file);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        zip.start_file(name.as_str(), opts).expect("start entry");
        zip.write_all(bytes).expect("write entry");
    }
    zip.finish().expect("finish wheel");
}

/// The entries of a small onnx wheel: two selected cases, one other operator, other files.
fn entries(input: &[u8]) -> Vec<(String, Vec<u8>)> {
    vec![
        ("onnx/__init__.py".into(), b"# onnx".to_vec()),
        (format!("{NODE}test_cast_a/"), Vec::new()),
        (format!("{NODE}test_cast_a/model.onnx"), model("Cast", 13)),
        (
            format!("{NODE}test_cast_a/test_data_set_0/input_0.pb"),
            input.to_vec(),
        ),
        (
            format!("{NODE}test_concat_b/model.onnx"),
            model("Concat", 11),
        ),
        (format!("{NODE}test_add_c/model.onnx"), model("Add", 14)),
    ]
}

struct Setup {
    _dir: tempfile::TempDir,
    paths: Paths,
}

impl Setup {
    /// A workspace with the standard wheel of [`REL`] in the cache and no lock yet.
    fn new() -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        let paths = Paths {
            data: dir.path().join("data"),
            lock: dir.path().join("lock.json"),
            // Any attempt to run pip fails loudly.
            python: "/nonexistent/python3".into(),
        };
        fs::create_dir_all(paths.cache()).expect("cache dir");
        let s = Setup { _dir: dir, paths };
        wheel(&s.wheel_path(), &entries(b"input v1"));
        s
    }

    fn wheel_path(&self) -> PathBuf {
        self.paths
            .cache()
            .join(format!("onnx-{REL}-py3-none-any.whl"))
    }

    fn release_dir(&self) -> PathBuf {
        self.paths.data.join(format!("onnx-{REL}"))
    }

    fn run(&self, opts: Options) -> Result<()> {
        run(
            &Options {
                releases: vec![REL.into()],
                ..opts
            },
            &self.paths,
        )
    }

    /// Fetches once, recording the lock.
    fn locked(self) -> Setup {
        self.run(Options {
            update_lock: true,
            offline: true,
            ..Options::default()
        })
        .expect("record");
        self
    }

    /// Every file under the data directory (except the cache) with its contents.
    fn snapshot(&self) -> BTreeMap<String, Vec<u8>> {
        walkdir::WalkDir::new(&self.paths.data)
            .into_iter()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_file() && !e.path().starts_with(self.paths.cache()))
            .map(|e| {
                let rel = e.path().strip_prefix(&self.paths.data).expect("under data");
                (rel.display().to_string(), fs::read(e.path()).expect("read"))
            })
            .collect()
    }

    fn leftovers(&self) -> Vec<String> {
        fs::read_dir(&self.paths.data)
            .expect("list")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with(".tmp-") || n.starts_with(".old-"))
            .collect()
    }
}

use std::collections::BTreeMap;

#[test]
fn a_recorded_fetch_extracts_selected_cases_and_indexes_them() {
    let s = Setup::new().locked();
    let dir = s.release_dir();
    assert_eq!(
        fs::read(dir.join("node/test_cast_a/test_data_set_0/input_0.pb")).ok(),
        Some(b"input v1".to_vec())
    );
    assert!(dir.join("node/test_concat_b/model.onnx").is_file());
    assert!(
        !dir.join("node/test_add_c").exists(),
        "unselected operator extracted"
    );

    let lock = lock::load(&s.paths.lock).expect("load").expect("written");
    let e = &lock.releases[0];
    assert_eq!(e.wheel, format!("onnx-{REL}-py3-none-any.whl"));
    assert_eq!(e.sha256, lock::sha256_file(&s.wheel_path()).expect("hash"));
    assert_eq!(e.files.len(), 3);
    assert_eq!(
        e.files["node/test_cast_a/test_data_set_0/input_0.pb"],
        lock::sha256_hex(b"input v1")
    );

    let index = index_file::build(&s.paths.data).expect("index");
    let got: Vec<(&str, &str, i64, &str)> = index
        .instances
        .iter()
        .map(|i| (i.case.as_str(), i.op_type.as_str(), i.opset, i.dir.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("test_cast_a", "Cast", 13, "onnx-9.0.0/node/test_cast_a"),
            (
                "test_concat_b",
                "Concat",
                11,
                "onnx-9.0.0/node/test_concat_b"
            ),
        ]
    );
    let on_disk = fs::read_to_string(s.paths.data.join("index.json")).expect("index.json");
    assert_eq!(
        serde_json::from_str::<harness::index::Index>(&on_disk).ok(),
        Some(index)
    );
}

#[test]
fn a_second_run_changes_nothing_even_without_the_wheel() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    // Without the wheel a re-extraction would fail offline: success proves it was a no-op.
    fs::remove_file(s.wheel_path()).expect("remove wheel");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("no-op run");
    s.run(Options {
        offline: true,
        verify: true,
        ..Options::default()
    })
    .expect("verified run");
    assert_eq!(s.snapshot(), before);
}

#[test]
fn a_damaged_tree_is_re_extracted() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    let input = s
        .release_dir()
        .join("node/test_cast_a/test_data_set_0/input_0.pb");
    // Same size, other bytes: only --verify can see it.
    fs::write(&input, b"input XX").expect("tamper");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("cheap check");
    assert_eq!(fs::read(&input).ok(), Some(b"input XX".to_vec()));
    s.run(Options {
        offline: true,
        verify: true,
        ..Options::default()
    })
    .expect("repair");
    assert_eq!(s.snapshot(), before);
    // A missing file is seen by the cheap check.
    fs::remove_file(&input).expect("remove");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("repair");
    assert_eq!(s.snapshot(), before);
}

#[test]
fn offline_without_wheels_lists_what_is_missing() {
    let s = Setup::new();
    fs::remove_file(s.wheel_path()).expect("remove wheel");
    let opts = Options {
        releases: vec![REL.into(), "9.1.0".into()],
        offline: true,
        update_lock: true,
        ..Options::default()
    };
    let e = run(&opts, &s.paths).expect_err("nothing cached");
    assert!(
        e.message.contains("--offline") && e.message.contains("9.0.0, 9.1.0"),
        "{e}"
    );
    assert!(e.hint.as_deref().unwrap_or("").contains("--from"), "{e}");
    assert!(!s.paths.lock.exists(), "a failed run wrote the lock");
}

#[test]
fn a_wheel_that_differs_from_the_lock_is_refused_and_the_old_tree_kept() {
    let s = Setup::new().locked();
    fs::remove_dir_all(s.release_dir().join("node/test_concat_b")).expect("damage tree");
    let before = s.snapshot();
    wheel(&s.wheel_path(), &entries(b"input v2"));
    let e = s
        .run(Options {
            offline: true,
            ..Options::default()
        })
        .expect_err("hash mismatch");
    let sha = lock::sha256_file(&s.wheel_path()).expect("hash");
    assert!(
        e.message.contains(&sha) && e.message.contains("lock pins"),
        "{e}"
    );
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
}

#[test]
fn a_file_that_differs_from_the_lock_is_refused_and_the_old_tree_kept() {
    let s = Setup::new().locked();
    fs::remove_dir_all(s.release_dir().join("node/test_concat_b")).expect("damage tree");
    let before = s.snapshot();
    // A new wheel whose hash the lock accepts (as if re-published) but whose files differ.
    wheel(&s.wheel_path(), &entries(b"input v2"));
    let mut lock = lock::load(&s.paths.lock).expect("load").expect("lock");
    lock.releases[0].sha256 = lock::sha256_file(&s.wheel_path()).expect("hash");
    lock::save(&s.paths.lock, &lock).expect("save");
    let e = s
        .run(Options {
            offline: true,
            ..Options::default()
        })
        .expect_err("file mismatch");
    let (old, new) = (lock::sha256_hex(b"input v1"), lock::sha256_hex(b"input v2"));
    assert!(
        e.message.contains("test_cast_a/test_data_set_0/input_0.pb"),
        "{e}"
    );
    assert!(e.message.contains(&old) && e.message.contains(&new), "{e}");
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
}

#[test]
fn a_failure_mid_extract_leaves_the_old_tree() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    // Good entries first, then an entry escaping the target: extraction stops half-way.
    let mut evil = entries(b"input v2");
    evil.push((
        format!("{NODE}test_cast_x/../../../../evil"),
        b"pwned".to_vec(),
    ));
    wheel(&s.wheel_path(), &evil);
    let e = s
        .run(Options {
            offline: true,
            update_lock: true,
            ..Options::default()
        })
        .expect_err("zip-slip");
    assert!(e.message.contains("unsafe path component `..`"), "{e}");
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
    assert!(!s._dir.path().join("evil").exists() && !s.paths.data.join("evil").exists());
}

#[test]
fn a_truncated_wheel_is_reported_as_damaged() {
    let s = Setup::new();
    let bytes = fs::read(s.wheel_path()).expect("read");
    fs::write(s.wheel_path(), &bytes[..bytes.len() / 2]).expect("truncate");
    let e = s
        .run(Options {
            offline: true,
            update_lock: true,
            ..Options::default()
        })
        .expect_err("damaged");
    assert!(
        e.message.contains("damaged") && e.message.contains(&s.wheel_path().display().to_string()),
        "{e}"
    );
    assert!(!s.release_dir().exists() && s.leftovers().is_empty());
}

#[test]
fn leftovers_of_a_killed_run_are_cleaned_up() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    // Killed between the two renames: the old tree is aside, a complete new one is pending.
    let old = s.paths.data.join(format!(".old-onnx-{REL}-4000000"));
    fs::rename(s.release_dir(), &old).expect("move aside");
    let tmp = s.paths.data.join(format!(".tmp-onnx-{REL}-4000000"));
    fs::create_dir_all(tmp.join("node/test_cast_a")).expect("partial tmp");
    fs::remove_file(s.wheel_path()).expect("no wheel: the tree must come back by rename");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("cleanup run");
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
}

#[test]
fn from_takes_a_wheel_or_a_checkout_and_names_the_release() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    let from_wheel = Options {
        from: Some(s.wheel_path()),
        ..Options::default()
    };
    run(&from_wheel, &s.paths).expect("release from the wheel name");
    assert_eq!(s.snapshot(), before);

    let checkout = s._dir.path().join("onnx-src");
    for (name, bytes) in entries(b"input v1") {
        if let Some(rel) = name.strip_prefix(NODE).filter(|n| !n.ends_with('/')) {
            let p = checkout.join(NODE).join(rel);
            fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            fs::write(p, bytes).expect("write");
        }
    }
    let opts = Options {
        from: Some(checkout.clone()),
        ..Options::default()
    };
    let e = run(&opts, &s.paths).expect_err("no VERSION_NUMBER");
    assert!(e.hint.as_deref() == Some("add --release V"), "{e}");
    fs::write(checkout.join("VERSION_NUMBER"), format!("{REL}\n")).expect("version");
    run(&opts, &s.paths).expect("checkout matches the lock");
    let stamp = s.release_dir().join(STAMP_FILE);
    assert!(fs::read_to_string(stamp)
        .expect("stamp")
        .contains("onnx-src"));
    let files = |s: &Setup| {
        s.snapshot()
            .into_iter()
            .filter(|(k, _)| !k.ends_with(STAMP_FILE))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        files(&s),
        before
            .into_iter()
            .filter(|(k, _)| !k.ends_with(STAMP_FILE))
            .collect::<Vec<_>>()
    );

    let wrong = Options {
        releases: vec!["9.9.9".into()],
        from: Some(s.wheel_path()),
        ..Options::default()
    };
    assert!(run(&wrong, &s.paths)
        .expect_err("mismatch")
        .message
        .contains("holds onnx 9.0.0"));
}

#[test]
fn releases_missing_from_the_lock_are_named() {
    let s = Setup::new().locked();
    let opts = Options {
        releases: vec!["9.1.0".into()],
        offline: true,
        ..Options::default()
    };
    let e = run(&opts, &s.paths).expect_err("unlocked");
    assert!(
        e.message.contains("not in the lock file: onnx 9.1.0"),
        "{e}"
    );
}
