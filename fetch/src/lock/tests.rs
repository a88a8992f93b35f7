use super::*;
use schema::hash::sha256_hex;

fn entry() -> LockedRelease {
    LockedRelease {
        release: "9.0.0".into(),
        wheel: "onnx-9.0.0-py3-none-any.whl".into(),
        sha256: sha256_hex(b"wheel"),
        files: [
            (
                "node/test_cast_a/model.onnx".to_string(),
                sha256_hex(b"model"),
            ),
            (
                "node/test_cast_a/test_data_set_0/input_0.pb".to_string(),
                sha256_hex(b"in"),
            ),
        ]
        .into(),
        generated: None,
    }
}

#[test]
fn matching_files_pass() {
    let e = entry();
    assert_eq!(check_files(&e, &e.files), Ok(()));
    assert_eq!(
        check_wheel(&e, Path::new("w.whl"), &sha256_hex(b"wheel")),
        Ok(())
    );
}

#[test]
fn a_wheel_hash_mismatch_names_the_wheel_and_both_hashes() {
    let e = entry();
    let bad = sha256_hex(b"other wheel");
    let err = check_wheel(&e, Path::new("cache/w.whl"), &bad).expect_err("mismatch");
    for part in ["cache/w.whl", bad.as_str(), e.sha256.as_str(), "9.0.0"] {
        assert!(err.message.contains(part), "{part} not in {err}");
    }
    assert!(err.hint.is_some());
}

#[test]
fn a_file_hash_mismatch_names_the_file_and_both_hashes() {
    let e = entry();
    let mut found = e.files.clone();
    let bad = sha256_hex(b"tampered");
    found.insert("node/test_cast_a/model.onnx".into(), bad.clone());
    let err = check_files(&e, &found).expect_err("mismatch");
    let want = sha256_hex(b"model");
    for part in ["node/test_cast_a/model.onnx", bad.as_str(), want.as_str()] {
        assert!(err.message.contains(part), "{part} not in {err}");
    }
}

#[test]
fn missing_and_extra_files_are_errors() {
    let e = entry();
    let mut found = e.files.clone();
    found.remove("node/test_cast_a/test_data_set_0/input_0.pb");
    let err = check_files(&e, &found).expect_err("missing");
    assert!(
        err.message.contains("input_0.pb") && err.message.contains("missing"),
        "{err}"
    );

    let mut found = e.files.clone();
    found.insert("node/test_cast_b/model.onnx".into(), sha256_hex(b"x"));
    let err = check_files(&e, &found).expect_err("extra");
    assert!(err.message.contains("test_cast_b/model.onnx"), "{err}");
    assert!(err.message.contains("not in the lock"), "{err}");
}

#[test]
fn the_lock_round_trips_in_version_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("lock.json");
    assert_eq!(load(&path), Ok(None));
    let mut lock = Lock {
        format: 1,
        ops: vec!["test_cast".into()],
        releases: vec![],
    };
    for r in ["1.10.2", "1.9.0"] {
        upsert(
            &mut lock,
            LockedRelease {
                release: r.into(),
                ..entry()
            },
        );
    }
    upsert(
        &mut lock,
        LockedRelease {
            release: "1.9.0".into(),
            wheel: "new".into(),
            ..entry()
        },
    );
    save(&path, &lock).expect("save");
    let back = load(&path).expect("load").expect("present");
    let names: Vec<&str> = back.releases.iter().map(|r| r.release.as_str()).collect();
    assert_eq!(names, ["1.9.0", "1.10.2"]);
    assert_eq!(back.releases[0].wheel, "new");
    std::fs::write(&path, "{").expect("write");
    assert!(load(&path)
        .expect_err("bad json")
        .message
        .contains("not a valid lock file"));
}

#[test]
fn a_lock_written_before_generated_releases_still_reads() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("lock.json");
    let old = r#"{"format": 1, "ops": ["test_cast"], "releases": [{"release": "9.0.0",
        "wheel": "w.whl", "sha256": "00", "files": {"node/test_cast_a/model.onnx": "11"}}]}"#;
    std::fs::write(&path, old).expect("write");
    let lock = load(&path).expect("load").expect("present");
    assert_eq!(lock.releases[0].generated, None);
    assert_eq!(lock.releases[0].wheel, "w.whl");
    // A wheel release is written back without the new field.
    save(&path, &lock).expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(!text.contains("generated"), "{text}");
}
